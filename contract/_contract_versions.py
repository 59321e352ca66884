"""The contract versions ``dicechess-contract --version`` prints, recorded from the contract files.

Read from the files themselves (:func:`contract.vendoring.files.contract_versions`) this costs every
``--version`` a parse of 2.5 MB of JSON (~90 ms on the 2-core machine, a fifth of ``import onnxruntime``);
recorded here it costs nothing. Drift is caught, not tolerated: ``tests/runtime/test_runtime_startup_imports.py``
compares this table with the files and fails, printing the table to write here, when a contract file adds,
drops or changes a version. ``vendor`` writes its lock from the files, never from this table.
"""

from typing import Final

CONTRACT_VERSIONS: Final[dict[str, tuple[str, ...]]] = {
    "check-table": ("1.4.0",),
    "engine-compatibility": ("1.0.0",),
    "engine-rules": ("1.0.0",),
    "feature-schemas": ("1.0.0",),
    "kcp-13": ("1.2.0",),
    "kcp-mobility-27-v1": ("1.2.0",),
    "kcp-mobility-pawns-31-v1": ("1.2.0",),
    "manifest": ("1.0.0", "1.1.0"),
    "manifest-fields": ("1.0.0",),
    "manifests": ("1.0.0",),
    "material-7-v1": ("1.2.0",),
    "output-bench": ("1",),
    "output-bench-throughput": ("1",),
    "output-check-data": ("1",),
    "output-compat": ("1",),
    "output-conformance-diff": ("1",),
    "output-conformance-run": ("1",),
    "output-enrich-shards": ("1",),
    "output-package-build": ("1",),
    "output-package-sign": ("1",),
    "output-pairjudge-declare-legacy": ("1",),
    "output-pairjudge-verify": ("1",),
    "output-validate": ("1",),
    "output-vendor-check": ("1",),
    "pairjudge": ("1",),
    "pairjudge-check-table": ("1.0.0",),
    "probes": ("1.0.0",),
    "raw-board-768-v1": ("1.2.0",),
    "rich-9-v1": ("1.2.0",),
    "rich-pdi-11-v1": ("1.2.0",),
    "synthetic_kcp13_value_parity": ("1.1.0",),
    "tensor-contract": ("1.0.0",),
    "vendor-layout": ("1",),
    "vendor-lock": ("1", "2"),
}
