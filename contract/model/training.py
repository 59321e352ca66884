"""What the training repository's package admission would refuse in a package the engine serves
(``validate --as training``).

The training repository (fortemate/dicechess-training) admits a package before publishing it
(``hub.admit_package``): every file of ``hub.PACKAGE_FILES`` (``model.onnx``, ``manifest.json``,
``model-card.md``) present, the manifest readable, a contract of its own for the manifest's
``featureSchema`` (``contracts.SCHEMA_CONTRACTS``: the value-model schemas only; the move pre-ranker's
``rich-9-v1`` is deliberately absent), the digest, then that contract's ``validate_onnx_contract``: the
ONNX checker (``onnx.checker.check_model(full_check=True)``), a default-domain opset, at most opset 18,
then the tensors. Observed live (docs/runtime.md, "The training repository's admission"; the answers are
recorded in ``tests/runtime/recorded/training-admission.json``).

The engine's checks run first and cover the files, the manifest, the digest and the tensors; this family
adds what only the admission refuses, in the admission's order. The checks, their order and their words
are the ``training`` family of ``schema/check-table.json``; the values they accept are here.
"""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import Any, Final

from contract.core.checktable import CONTRACT_TABLE, PASS, Fields, first_failure
from contract.core.record import Record
from contract.core.refusal import Refusal
from contract.model.modelcard import CARD_FILE_NAME
from contract.model.package import ModelPackage, path_text

TRAINING_FILES: Final = ("model.onnx", "manifest.json", CARD_FILE_NAME)  # hub.PACKAGE_FILES
TRAINING_SCHEMAS: Final = ("kcp-13", "kcp-mobility-27-v1", "kcp-mobility-pawns-31-v1")  # SCHEMA_CONTRACTS
TRAINING_MAX_OPSET: Final = 18  # MAX_OPSET of each of those contracts
DEFAULT_DOMAINS: Final = ("", "ai.onnx")


class Admission(Record):
    """A package the engine serves, with the directory it was loaded from."""

    directory: Path
    package: ModelPackage

    @cached_property
    def model(self) -> Any:  # onnx.ModelProto; the engine's checks already parsed these bytes
        from onnx import ModelProto

        return ModelProto.FromString(self.package.model_bytes)

    def opsets(self) -> list[int]:
        return [entry.version for entry in self.model.opset_import if entry.domain in DEFAULT_DOMAINS]


def _missing(subject: Admission) -> Fields | None:
    for name in TRAINING_FILES:
        if not (subject.directory / name).is_file():
            return {"name": name, "path": path_text(subject.directory / name)}
    return PASS


def _schema(subject: Admission) -> Fields | None:
    schema = subject.package.manifest.feature_schema.id
    accepted = ", ".join(f"'{value}'" for value in TRAINING_SCHEMAS)
    return PASS if schema in TRAINING_SCHEMAS else {"value": schema, "accepted": accepted}


def _checker(subject: Admission) -> Fields | None:
    from onnx import checker

    try:
        checker.check_model(subject.model, full_check=True)
    except Exception as exc:  # onnx raises ValidationError or a shape-inference error
        lines = str(exc).strip().splitlines()
        return {"reason": lines[0] if lines else exc.__class__.__name__}
    return PASS


def _no_opset(subject: Admission) -> Fields | None:
    return PASS if subject.opsets() else {}


def _opset(subject: Admission) -> Fields | None:
    highest = max(subject.opsets())
    return PASS if highest <= TRAINING_MAX_OPSET else {"value": highest, "maximum": TRAINING_MAX_OPSET}


CHECKS: Final = CONTRACT_TABLE.checks("training", {
    "training.file.missing": _missing,
    "training.featureSchema.noContract": _schema,
    "training.graph.checker": _checker,
    "training.graph.noOpset": _no_opset,
    "training.graph.opset": _opset,
}, {})


def training_refusal(directory: Path, package: ModelPackage) -> Refusal | None:
    """Why the training repository would not admit this (engine-valid) package directory, or None.

    A missing file is prefixed with its path, the schema with the manifest's, a graph check with the
    model's.
    """
    subject = Admission(Path(directory), package)
    failure = first_failure(CHECKS, subject)
    if failure is None:
        return None
    found = Refusal(failure.message, failure.code, failure.field)
    if failure.code == "training.file.missing":
        missing = _missing(subject)
        assert missing is not None
        return found.prefixed(str(missing["path"]))
    if failure.code == "training.featureSchema.noContract":
        return found.prefixed(package.manifest_text)
    return found.prefixed(package.model_text)


__all__ = ["TRAINING_FILES", "TRAINING_MAX_OPSET", "TRAINING_SCHEMAS", "training_refusal"]
