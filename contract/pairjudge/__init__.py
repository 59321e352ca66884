"""pairjudge.json v1 bundles (pairwise LLM judges), verified from JSON and safetensors headers only.

The second contract family of the kit, beside the ONNX package manifest: the same machinery (a
JSON Schema per format version, ordered check tables with exact messages, digests before anything
heavier, agreement with verdicts recorded from the reference implementation, pairjudge 0.3.0).
Entry point: :func:`verify_bundle`, returning a :class:`Verdict`.
"""

from contract.pairjudge.bundle import LAYERS, Layer, verify_bundle
from contract.pairjudge.verdict import Verdict

__all__ = ["LAYERS", "Layer", "Verdict", "verify_bundle"]
