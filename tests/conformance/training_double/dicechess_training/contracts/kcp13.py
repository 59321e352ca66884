"""Test double of the training repository's ``dicechess_training.contracts.kcp13`` (fortemate/
dicechess-training at ``42eb599``), written for this kit from what a live run of the real module showed
and from spec/contract.md §3.2-3.3, §4.2 and §5.2. It is scaffolding for the training adapter, never a
source of expected values: the tests compare what comes back through the adapter with the canonical
answers and with the live-mode entries of ``golden/divergences.json``.

It keeps the behaviours an adapter must survive, because each one broke the first adapter live:

* ``engine_compatible`` returns ``False`` with no text when the range excludes the version; only
  ``validate_manifest`` words that refusal;
* ``validate_manifest(manifest, engine_version)`` reads the manifest with ``.get`` and therefore
  assumes a dict (an array, a string or ``None`` raises ``AttributeError``);
* ``validate_onnx_contract(model_path, ...)`` takes a **path** and loads it with
  ``onnx.load(str(model_path))`` (a loaded ``ModelProto`` fails there with an ``OSError``), then runs
  the full ONNX checker and the default-domain opset ceiling (18) before the tensor checks, dtypes
  before shapes.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

LEGACY_MANIFEST_VERSION = "1.0.0"
CURRENT_MANIFEST_VERSION = "1.1.0"
SCHEMA_ID = "kcp-13"
FEATURE_COUNT = 13
PROFILE_ID = "standard-kcp"
PERSPECTIVE = "side-to-move"
ROLES = ("chance-collapse", "move-prerank", "position-value")
DEFAULT_NAMES = ("input", "output")
OPSET_CEILING = 18

_HOST = re.compile(r"^(\d+)\.(\d+)\.(\d+)$")  # Python's $ also matches before a final newline
_BOUND = re.compile(r"^(>=|<=|>|<|=)?(\d+)\.(\d+)\.(\d+)$")
_DIGEST = re.compile(r"^[0-9a-fA-F]{64}$")
_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "=": operator.eq, ">": operator.gt, ">=": operator.ge, "<": operator.lt, "<=": operator.le,
}


class ContractError(ValueError):
    pass


def _version(text: str) -> tuple[int, ...]:
    found = _HOST.match(text)
    if found is None:
        raise ContractError(f"invalid semantic version {text!r}; expected MAJOR.MINOR.PATCH")
    return tuple(int(part) for part in found.groups())


def engine_compatible(constraint: str, engine_version: str) -> bool:
    words = constraint.split()  # any Unicode whitespace
    if not words:
        raise ContractError("engineCompatibility must not be blank")
    host = _version(engine_version)
    for word in words:  # lazily: the first unsatisfied comparator ends the loop
        found = _BOUND.match(word)
        if found is None:
            raise ContractError(f"invalid engineCompatibility {constraint!r}; expected e.g. '>=0.4.0 <0.5.0'")
        bound = tuple(int(part) for part in found.groups()[1:])
        if not _COMPARE[found.group(1) or "="](host, bound):
            return False
    return True


def _since_current(manifest: dict[str, Any], key: str, version: Any, legacy: str) -> str:
    value = manifest.get(key)
    if value is None:
        if version == LEGACY_MANIFEST_VERSION:
            return legacy
        raise ContractError(f"manifestVersion {version} requires field {key!r}")
    if version == LEGACY_MANIFEST_VERSION:
        raise ContractError(f"manifestVersion {version} does not define field {key!r}")
    return str(value)


def manifest_tensor_names(manifest: dict[str, Any]) -> tuple[str, str]:
    version = manifest.get("manifestVersion")
    names = []
    for key, default in zip(("inputName", "outputName"), DEFAULT_NAMES, strict=True):
        value = manifest.get(key)
        if value is not None and version == LEGACY_MANIFEST_VERSION:
            raise ContractError(f"manifestVersion {version} does not define field {key!r}")
        if value is not None and (not isinstance(value, str) or not value.strip()):
            raise ContractError(f"{key} must not be blank")
        names.append(default if value is None else value)
    return names[0], names[1]


def _excluded(manifest: dict[str, Any], engine_version: str) -> None:
    constraint = str(manifest.get("engineCompatibility", ""))
    if not engine_compatible(constraint, engine_version):
        raise ContractError(f"engineCompatibility {constraint!r} does not include engine version {engine_version!r}")


def validate_manifest(manifest: dict[str, Any], engine_version: str) -> None:
    version = manifest.get("manifestVersion")
    if version not in (LEGACY_MANIFEST_VERSION, CURRENT_MANIFEST_VERSION):
        raise ContractError(f"unsupported manifestVersion {version!r}; expected one of "
                            f"{LEGACY_MANIFEST_VERSION}, {CURRENT_MANIFEST_VERSION}")
    if not str(manifest.get("modelId", "")).strip():
        raise ContractError("modelId must not be blank")
    if _DIGEST.match(str(manifest.get("modelSha256", ""))) is None:
        raise ContractError("modelSha256 must be exactly 64 hexadecimal characters")
    for key, wanted, shown in (("featureSchema", SCHEMA_ID, repr(SCHEMA_ID)),
                               ("featureCount", FEATURE_COUNT, str(FEATURE_COUNT)),
                               ("evaluationProfile", PROFILE_ID, repr(PROFILE_ID))):
        if manifest.get(key) != wanted:
            raise ContractError(f"unsupported {key} {manifest.get(key)!r}; expected {shown}")
    role = _since_current(manifest, "modelRole", version, "position-value")
    if role not in ROLES:
        raise ContractError(f"unknown modelRole {role!r}; known roles: {', '.join(ROLES)}")
    perspective = _since_current(manifest, "perspective", version, PERSPECTIVE)
    if perspective != PERSPECTIVE:
        raise ContractError(f"unsupported perspective {perspective!r}; supported: {PERSPECTIVE!r}")
    manifest_tensor_names(manifest)
    _excluded(manifest, engine_version)


def dims(value_info: Any) -> list[int | None]:
    """A tensor's dimensions; ``None`` for a symbolic or unset (0) one."""
    return [None if d.dim_param or d.dim_value == 0 else d.dim_value
            for d in value_info.type.tensor_type.shape.dim]


def graph_checks(model_path: str | Path, names: tuple[str, str], shown: tuple[str, str], width: int) -> None:
    """Load, check, then the tensor rules; ``shown`` are the names the dtype/shape messages print."""
    import onnx

    model = onnx.load(str(model_path))
    try:
        onnx.checker.check_model(model, full_check=True)
    except Exception as exc:
        raise ContractError(f"ONNX model is not a valid graph: {exc}") from exc
    opsets = [entry.version for entry in model.opset_import if entry.domain in ("", "ai.onnx")]
    if not opsets:
        raise ContractError("ONNX model declares no default-domain opset")
    if max(opsets) > OPSET_CEILING:
        raise ContractError(f"ONNX default-domain opset {max(opsets)} exceeds the maximum {OPSET_CEILING}")
    constants = {tensor.name for tensor in model.graph.initializer}
    sides = ([t for t in model.graph.input if t.name not in constants], list(model.graph.output))
    for side, found, name in zip(("input", "output"), sides, names, strict=True):
        if len(found) != 1 or found[0].name != name:
            raise ContractError(f"ONNX model must expose exactly one {side} named {name!r}; "
                                f"found {[t.name for t in found]}")
    for side, found, name in zip(("input", "output"), sides, shown, strict=True):
        if found[0].type.tensor_type.elem_type != onnx.TensorProto.FLOAT:
            raise ContractError(f"{side} {name!r} must have FLOAT dtype")
    for side, found, name, second in zip(("input", "output"), sides, shown, (width, 1), strict=True):
        got = dims(found[0])
        if len(got) != 2 or got[0] is not None or got[1] != second:
            raise ContractError(f"{side} {name!r} must have shape [batch,{second}] with a dynamic batch; got {got}")


def validate_onnx_contract(model_path: str | Path, input_name: str = "input", output_name: str = "output") -> None:
    graph_checks(model_path, (input_name, output_name), DEFAULT_NAMES, FEATURE_COUNT)
