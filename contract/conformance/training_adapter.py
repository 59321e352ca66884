"""Adapter for the training repository's Python contract modules (``dicechess_training.contracts``).

Use it where ``dicechess_training`` is importable (its ``src`` on ``PYTHONPATH``, with pandas, pyarrow,
numpy and onnx installed: the package imports them)::

    export DICECHESS_CONFORMANCE_TRAINING="python -m contract.conformance.training_adapter"
    python -m contract.conformance run --impl kit --impl training

It was run live against fortemate/dicechess-training (``contracts/kcp13.py`` at ``42eb599``,
``contracts/prerank.py`` at ``6e2fb74``; docs/conformance.md names every file). What it relies on, as
observed there:

* two contract modules, each owning its cases the way the training hub routes a package, by feature
  schema: ``prerank`` owns ``rich-9-v1`` (role ``move-prerank``), ``kcp13`` owns everything else;
* ``engine_compatible(constraint, engine_version)`` raises ``ContractError`` for a blank, invalid or
  unparsable input and returns ``False`` **silently** when the range excludes the version. The training
  text for that case is the one ``validate_manifest`` raises; the adapter asks ``validate_manifest`` for
  it (with a manifest that passes every earlier check) rather than inventing one;
* ``validate_manifest(manifest: dict, engine_version)`` calls ``manifest.get``: it takes a dict, so a
  manifest whose JSON is an array, a string, a number or null is outside its signature and is answered
  ``unsupported`` (calling it would only show an ``AttributeError``). The JSON text is read with
  Python's ``json`` (duplicate keys: the last wins; ``NaN`` and ``Infinity`` accepted), as the training
  callers do, and a text ``json`` refuses is refused with the canonical ``not valid JSON: `` prefix;
* ``validate_onnx_contract(model_path, input_name, output_name)`` takes a **path** and loads the file
  itself, then runs ``onnx.checker`` (full check) and an opset ceiling before the tensor checks; the
  names come from the owning module's ``manifest_tensor_names(manifest)``, whose own refusal is the
  answer when it refuses;
* neither module has an expected-role gate outside its own role, nor a feature extractor: a request
  with an ``expectedRole`` other than the owning module's role, and every ``features`` request, are
  answered ``unsupported``.

Anything else the modules raise is an ``error`` answer naming the exception, which fails the run.
"""

from __future__ import annotations

import importlib
import json
import sys
from typing import Any

from contract.conformance.adapter import Answer, Unsupported, serve
from contract.core.errors import ContractError

PACKAGE = "dicechess_training.contracts"
KCP13 = f"{PACKAGE}.kcp13"
PRERANK = f"{PACKAGE}.prerank"
# The feature schema the prerank module owns (it reads no other); every other schema goes to kcp13.
PRERANK_SCHEMA = "rich-9-v1"


class InvalidJson(ContractError, ValueError):
    """The manifest text is not JSON to Python's ``json``; the message is the canonical refusal."""


def _module(name: str) -> Any:
    return importlib.import_module(name)


def _contract_error() -> type[Exception]:
    error: type[Exception] = _module(KCP13).ContractError
    return error


def _owner(document: dict[str, Any]) -> Any:
    """The training module that owns a manifest: routed by feature schema, as the training hub does."""
    return _module(PRERANK if document.get("featureSchema") == PRERANK_SCHEMA else KCP13)


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


def _excluded_text(constraint: str, engine_version: str) -> str:
    """The text the training side gives an excluded range: the one its ``validate_manifest`` raises.

    ``engine_compatible`` itself says nothing (it returns ``False``), so the adapter hands
    ``validate_manifest`` a legacy manifest that passes every earlier check, built from the module's
    own constants, and reads the refusal.
    """
    kcp13 = _module(KCP13)
    probe = {
        "manifestVersion": kcp13.LEGACY_MANIFEST_VERSION,
        "modelId": "conformance",
        "modelSha256": "0" * 64,
        "featureSchema": kcp13.SCHEMA_ID,
        "featureCount": kcp13.FEATURE_COUNT,
        "evaluationProfile": kcp13.PROFILE_ID,
        "engineCompatibility": constraint,
    }
    try:
        kcp13.validate_manifest(probe, engine_version)
    except _contract_error() as exc:
        return str(exc)
    raise ValueError("engine_compatible returned False but validate_manifest accepted the same range")


def engine_compatibility(request: dict[str, Any]) -> Answer:
    kcp13 = _module(KCP13)
    constraint, version = request["constraint"], request["engineVersion"]
    try:
        included = kcp13.engine_compatible(constraint, version)
    except _contract_error() as exc:
        message = str(exc)
        return {"outcome": _classify(message), "message": message}
    if included is True:
        return {"outcome": "satisfied", "message": None}
    if included is False:
        return {"outcome": "excluded", "message": _excluded_text(constraint, version)}
    raise TypeError(f"engine_compatible returned {included!r}, neither True nor False")


def _document(text: str) -> dict[str, Any]:
    """The manifest as the training callers hold it: a dict read with Python's ``json``.

    Raises :class:`InvalidJson` for a text ``json`` refuses and :class:`Unsupported` for JSON that is
    not an object (outside ``validate_manifest``'s signature).
    """
    try:
        document = json.loads(text)
    except ValueError as exc:
        raise InvalidJson(f"not valid JSON: {exc}") from None
    if not isinstance(document, dict):
        raise Unsupported(f"validate_manifest takes a dict (it calls manifest.get); this manifest's JSON "
                          f"is a {type(document).__name__}")
    return document


def _role_gate(module: Any, expected_role: str | None) -> None:
    own_role = getattr(module, "ROLE", None)
    if expected_role is not None and expected_role != own_role:
        raise Unsupported(f"{module.__name__} has no gate for the expected role {expected_role!r}")


def manifest(request: dict[str, Any]) -> Answer:
    try:
        document = _document(request["manifest"])
    except InvalidJson as exc:
        return {"verdict": "refused", "message": str(exc)}
    module = _owner(document)
    _role_gate(module, request["expectedRole"])
    try:
        module.validate_manifest(document, request["engineVersion"])
    except _contract_error() as exc:
        return {"verdict": "refused", "message": str(exc)}
    return {"verdict": "accepted", "message": None}


def tensor_contract(request: dict[str, Any]) -> Answer:
    document = _document(request["manifest"])  # a tensor case's manifest is JSON: anything else is an error
    module = _owner(document)
    try:
        input_name, output_name = module.manifest_tensor_names(document)
        if module.__name__ == PRERANK:
            module.validate_onnx_contract(request["graph"], input_name, output_name,
                                          engine_version=request["engineVersion"])
        else:
            module.validate_onnx_contract(request["graph"], input_name=input_name, output_name=output_name)
    except _contract_error() as exc:
        return {"verdict": "refused", "message": str(exc)}
    return {"verdict": "accepted", "message": None}


def main() -> int:
    handlers = {
        "engine-compatibility": engine_compatibility,
        "manifest": manifest,
        "tensor-contract": tensor_contract,
    }
    for name in (KCP13, PRERANK):
        try:
            _module(name)
        except ImportError as exc:
            print(f"training adapter: cannot import {name}: {exc}", file=sys.stderr)
            return 1
    sys.stdin.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
    serve(sys.stdin, sys.stdout, handlers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
