"""The real pairjudge loader as a worker process, for the differential fuzz (never imported by the kit).

Run with the Python of an environment where ``pip install pairjudge==0.3.0`` was done (it pulls
torch, transformers, peft). It reads one JSON request per line on stdin,
``{"bundle": DIR, "layer": "read_manifest" | "from_pretrained", "kwargs": {...}}``, calls the layer
(``read_manifest(DIR)`` or ``PairwiseJudge.from_pretrained(DIR, device="cpu",
local_files_only=True, **kwargs)``) and writes one JSON line to stdout: ``{"ok": true}`` or
``{"ok": false, "exception": class name, "message": text}`` with DIR replaced by ``<bundle>``.
The first line it writes is ``{"versions": {...}}``. Library chatter goes to stderr.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import sys
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

LIBRARIES = (
    "pairjudge",
    "torch",
    "transformers",
    "tokenizers",
    "peft",
    "safetensors",
    "accelerate",
    "huggingface-hub",
    "numpy",
)
MAX_MESSAGE = 600


def _versions() -> dict[str, str]:
    out = {"python": sys.version.split()[0]}
    for name in LIBRARIES:
        try:
            out[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            out[name] = "absent"
    return out


def _call(request: dict[str, Any]) -> dict[str, Any]:
    from pairjudge.artifacts import read_manifest
    from pairjudge.judge import PairwiseJudge

    bundle = request["bundle"]
    try:
        if request["layer"] == "read_manifest":
            read_manifest(bundle)
        else:
            PairwiseJudge.from_pretrained(bundle, device="cpu", local_files_only=True, **request["kwargs"])
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt):
            raise
        message = str(exc).replace(os.path.realpath(bundle), "<bundle>").replace(bundle, "<bundle>")
        if len(message) > MAX_MESSAGE:
            message = message[:MAX_MESSAGE] + "..."
        return {"ok": False, "exception": type(exc).__name__, "message": message}
    return {"ok": True}


def main() -> None:
    out = os.fdopen(os.dup(sys.stdout.fileno()), "w", buffering=1)
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # library prints go to stderr
    import pairjudge.judge  # noqa: F401 - import torch once, before the first request

    out.write(json.dumps({"versions": _versions()}) + "\n")
    for line in sys.stdin:
        if line.strip():
            out.write(json.dumps(_call(json.loads(line))) + "\n")


if __name__ == "__main__":
    main()
