"""Test double of the training repository's ``dicechess_training.contracts.prerank`` (fortemate/
dicechess-training at ``6e2fb74``): the ``rich-9-v1`` / ``move-prerank`` contract, written for this kit
from a live run of the real module and spec/contract.md §4.3 and §5.2. Scaffolding for the training
adapter's routing, never a source of expected values. Its width is 9 for engine 0.12.0 (the real module
reads it from its committed rich-9 golden corpus, and knows no other engine); its tensor messages print
the names actually checked.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from .kcp13 import ContractError, engine_compatible, graph_checks

SCHEMA_ID = "rich-9-v1"
ROLE = "move-prerank"
MANIFEST_VERSION = "1.1.0"
PERSPECTIVE = "side-to-move"
WIDTHS = {"0.12.0": 9}  # the engines a rich-9 golden corpus is committed for

_DIGEST = re.compile(r"^[0-9a-fA-F]{64}$")

__all__ = ["ContractError"]


def feature_count(engine_version: str = "0.12.0") -> int:
    if engine_version not in WIDTHS:
        raise ContractError(f"no committed golden corpus for engine {engine_version!r}")
    return WIDTHS[engine_version]


def manifest_tensor_names(manifest: dict[str, Any]) -> tuple[str, str]:
    return str(manifest.get("inputName", "input")), str(manifest.get("outputName", "output"))


def validate_manifest(manifest: dict[str, Any], engine_version: str) -> None:
    version = manifest.get("manifestVersion")
    if version != MANIFEST_VERSION:
        raise ContractError(f"unsupported manifestVersion {version!r}; a pre-ranker declares a role and "
                            f"{MANIFEST_VERSION!r} is the first version that has one")
    if manifest.get("modelRole") != ROLE:
        raise ContractError(f"modelRole {manifest.get('modelRole')!r} cannot serve as {ROLE!r}")
    if manifest.get("perspective") != PERSPECTIVE:
        raise ContractError(f"unsupported perspective {manifest.get('perspective')!r}; expected {PERSPECTIVE!r}")
    if not str(manifest.get("modelId", "")).strip():
        raise ContractError("modelId must not be blank")
    if _DIGEST.match(str(manifest.get("modelSha256", ""))) is None:
        raise ContractError("modelSha256 must be exactly 64 hexadecimal characters")
    if manifest.get("featureSchema") != SCHEMA_ID:
        raise ContractError(f"unsupported featureSchema {manifest.get('featureSchema')!r}; expected {SCHEMA_ID!r}")
    width = feature_count(engine_version)
    if manifest.get("featureCount") != width:
        raise ContractError(f"unsupported featureCount {manifest.get('featureCount')!r}; expected {width}")
    if "calibration" in manifest:
        raise ContractError("a ranking score has nothing to calibrate; remove the calibration block")
    constraint = str(manifest.get("engineCompatibility", ""))
    if not engine_compatible(constraint, engine_version):
        raise ContractError(f"engineCompatibility {constraint!r} does not include engine version {engine_version!r}")


def validate_onnx_contract(model_path: str | Path, input_name: str = "input", output_name: str = "output",
                           engine_version: str = "0.12.0") -> None:
    width = feature_count(engine_version)
    graph_checks(model_path, (input_name, output_name), (input_name, output_name), width)
