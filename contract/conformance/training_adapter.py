"""Example adapter for the training repository's Python contract (``dicechess_training.contracts.kcp13``).

Use it where ``dicechess_training`` is importable (a checkout of fortemate/dicechess-training installed
in the same environment as this kit)::

    export DICECHESS_CONFORMANCE_TRAINING="python -m contract.conformance.training_adapter"
    python -m contract.conformance run --impl kit --impl training

It is **not exercised here** (the training package is not installed on this project's machines); the
calls below follow the training module as spec/contract.md §3.2-3.3, §4.2 and §5.2 describe it, and
each is isolated so a signature that differs shows up as an ``error`` answer naming the call, not as a
crash. What it assumes:

* ``kcp13.engine_compatible(constraint, engine_version)`` raises ``kcp13.ContractError`` with the §3.3
  Python texts, and otherwise returns (a falsy return is read as "excluded", with no text);
* ``kcp13.validate_manifest(manifest: dict, ...)`` raises ``ContractError``; the engine version is passed
  as the keyword its signature names (``engine_version`` or ``engine``) when it has one. The text is
  read with Python's ``json`` (last duplicate key wins), as the training callers hand it a dict;
* ``kcp13.validate_onnx_contract(model, input_name=..., output_name=...)`` (names from
  ``kcp13.manifest_tensor_names(manifest)``) raises ``ContractError`` for a graph that does not serve;
* the training module has no expected-role gate and no feature extractor: those requests are answered
  ``unsupported``.
"""

from __future__ import annotations

import importlib
import inspect
import json
import sys
from typing import Any

from contract.conformance.adapter import Answer, Unsupported, serve

MODULE = "dicechess_training.contracts.kcp13"


def _kcp13() -> Any:
    return importlib.import_module(MODULE)


def _contract_error(module: Any) -> type[BaseException]:
    error = getattr(module, "ContractError", None)
    return error if isinstance(error, type) and issubclass(error, BaseException) else ValueError


def _classify(message: str) -> str:
    if message == "engineCompatibility must not be blank":
        return "blank"
    if message.startswith("invalid semantic version"):
        return "invalid-engine-version"
    if message.startswith("invalid engineCompatibility"):
        return "invalid-constraint"
    if "does not include engine version" in message:
        return "excluded"
    raise ValueError(f"unrecognised engine_compatible message: {message!r}")


def engine_compatibility(request: dict[str, Any]) -> Answer:
    module = _kcp13()
    try:
        result = module.engine_compatible(request["constraint"], request["engineVersion"])
    except _contract_error(module) as exc:
        message = str(exc)
        return {"outcome": _classify(message), "message": message}
    if result is False:
        return {"outcome": "excluded", "message": "(engine_compatible returned False)"}
    return {"outcome": "satisfied", "message": None}


def _with_engine_version(function: Any, *args: Any, engine_version: str) -> Any:
    parameters = inspect.signature(function).parameters
    for name in ("engine_version", "engine"):
        if name in parameters:
            return function(*args, **{name: engine_version})
    return function(*args)


def manifest(request: dict[str, Any]) -> Answer:
    if request["expectedRole"] is not None:
        raise Unsupported("kcp13 has no expected-role gate")
    module = _kcp13()
    try:
        document = json.loads(request["manifest"])
    except ValueError as exc:
        return {"verdict": "refused", "message": f"json: {exc}"}
    try:
        _with_engine_version(module.validate_manifest, document, engine_version=request["engineVersion"])
    except _contract_error(module) as exc:
        return {"verdict": "refused", "message": str(exc)}
    return {"verdict": "accepted", "message": None}


def tensor_contract(request: dict[str, Any]) -> Answer:
    module = _kcp13()
    import onnx

    document = json.loads(request["manifest"])
    names = module.manifest_tensor_names(document)
    input_name, output_name = (names["input"], names["output"]) if isinstance(names, dict) else names
    try:
        module.validate_onnx_contract(onnx.load(request["graph"]), input_name=input_name,
                                      output_name=output_name)
    except _contract_error(module) as exc:
        return {"verdict": "refused", "message": str(exc)}
    return {"verdict": "accepted", "message": None}


def main() -> int:
    handlers = {
        "engine-compatibility": engine_compatibility,
        "manifest": manifest,
        "tensor-contract": tensor_contract,
    }
    try:
        _kcp13()
    except ImportError as exc:
        print(f"training adapter: cannot import {MODULE}: {exc}", file=sys.stderr)
        return 1
    serve(sys.stdin, sys.stdout, handlers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
