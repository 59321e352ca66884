"""Writing a package safely: stage, validate fully, then publish by one rename — or publish nothing.

:func:`build_package` writes ``model.onnx``, ``manifest.json`` and ``model-card.md`` (the caller's, or
one generated from the manifest: :mod:`contract.model.modelcard`; the training repository's package has
all three) into a hidden temporary sibling
``.<name>.tmp-<hex>`` of the destination, runs the same checks a reader runs (the §4.1 load checks and
the §5.1 tensor contract), and only then renames the directory to its final name. So a reader never
sees a half-written or unvalidated package under that name:

- an existing destination is refused (``refusing to overwrite ...``), never replaced;
- a package that fails validation is kept as ``<name>.failed-<hex>`` with ``REFUSED.txt`` holding the
  refusal message, for inspection; nothing appears at the destination;
- an interrupted build leaves at most the hidden staging directory;
- a filesystem error is a refusal too, with the stage removed; what is published is fsynced (files,
  stage, then the parent after the rename), so a crash leaves the name absent or complete.

The manifest version follows the role: ``1.0.0`` for ``position-value`` (the only version the evaluation
service reads), ``1.1.0`` for the other roles, with the tensor names declared. A ``position-value``
graph whose tensors are not ``input``/``output`` is refused before anything is staged, for the training
writer's reason (check-table code ``builder.tensors.renamedValue``): 1.0.0 cannot name tensors and the service reads no
other version, so such a package describes itself and mounts nowhere in the service.
``PackageSpec.allow_service_unmountable`` writes it anyway as 1.1.0 (the engine loads it); the caller
is then told what it costs (:func:`service_cost`). Manifests are written with sorted keys, two-space indent, a trailing
newline and no NaN (:func:`contract.core.strictjson.dumps`).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import math
import os
import secrets
import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from contract.core import strictjson
from contract.core.arguments import A_PATH, is_text_path, not_a_path, not_a_string, unusable_path, wrong_type
from contract.core.checktable import CONTRACT_TABLE
from contract.core.oserrors import os_error_reason
from contract.core.refusal import Refusal, refusal
from contract.core.registry import feature_schemas
from contract.core.stagedfile import sync_path, write_atomic
from contract.model.compatibility import INT_MAX, Version, evaluate, parse_constraint
from contract.model.manifest_schema import default_of, known_roles
from contract.model.modelcard import CARD_FILE_NAME, generated_card, read_card
from contract.model.package import MANIFEST_FILE_NAME, MODEL_FILE_NAME, ModelPackage, ModelTooLarge, path_text
from contract.model.service import SERVICE_PROFILE
from contract.model.tensors import check_graph, open_session, read_graph

REFUSAL_FILE: Final = "REFUSED.txt"
FAILED_INFIX: Final = ".failed-"  # a refused build is kept as <out>.failed-<hex>
VALUE_ROLE: Final = "position-value"
UNCALIBRATED_ROLES: Final = ("move-prerank",)
# The training writer's words (fortemate/dicechess-training kcp13.build_manifest) for the same refusal.


@dataclass(frozen=True)
class PackageSpec:
    """What a producer states about a model; the builder derives the rest (digest, width, version)."""

    model: Path
    schema_id: str
    role: str
    engine_compatibility: str
    model_id: str
    calibration_temperature: float | None = None
    provenance: Mapping[str, str] | None = None
    evaluation_profile: str | None = None
    allow_service_unmountable: bool = False  # write a renamed-tensor position-value package anyway
    model_card: Path | None = None  # model-card.md, copied byte for byte; None: generated from the manifest
    sign_key: Any = None  # a private key (contract.model.signature): model.sig is written before the rename


def _graph_tensor_names(model: Path, graph: bytes) -> tuple[str, str] | Refusal:
    """The graph's single input and output names; defaults when it has several (the contract refuses)."""
    session = open_session(graph)
    if isinstance(session, Refusal):
        return session.prefixed(str(model))
    inputs, outputs = session.get_inputs(), session.get_outputs()
    input_name = inputs[0].name if len(inputs) == 1 else default_of("inputName")
    output_name = outputs[0].name if len(outputs) == 1 else default_of("outputName")
    return input_name, output_name


_SPAN: Final = INT_MAX + 1  # versions ordered as base-_SPAN numbers: major, minor, patch


def _key(version: Version) -> int:
    return (version[0] * _SPAN + version[1]) * _SPAN + version[2]


def witness_version(constraint: str) -> str | Refusal:
    """The lowest engine version the constraint admits (so the package can be checked as a host would).

    The comparators are ANDed over a total order, so what they admit is one interval: its lower end is
    computed directly, one pass over the comparators, however many there are.
    """
    verdict = evaluate(constraint, "0.0.0")
    if verdict.ok:
        return "0.0.0"
    if verdict.outcome in ("blank", "invalid-constraint"):
        assert verdict.refusal is not None
        return verdict.refusal
    low = 0  # the interval's lower end; upper bounds need no arithmetic: the evaluator checks the end
    for op, bound in parse_constraint(constraint):
        at = _key(bound)
        if op in (">=", "="):
            low = max(low, at)
        elif op == ">":
            low = max(low, at + 1)
    major, rest = divmod(low, _SPAN * _SPAN)
    text = ".".join(map(str, (major, *divmod(rest, _SPAN))))
    if evaluate(constraint, text).ok:
        return text
    return refusal("builder.compatibility.empty", constraint=constraint)


def manifest_document(spec: PackageSpec, digest: str, names: tuple[str, str]) -> dict[str, Any] | Refusal:
    """The manifest a spec describes, or why it cannot be written."""
    schemas = feature_schemas()
    if spec.schema_id not in schemas:
        return refusal("manifest.featureSchema.unknown", value=spec.schema_id, known=", ".join(sorted(schemas)))
    if spec.role not in known_roles():
        return refusal("manifest.modelRole.unknown", value=spec.role, known=", ".join(known_roles()))
    declares_names = names != (default_of("inputName"), default_of("outputName"))
    if spec.role == VALUE_ROLE and declares_names and not spec.allow_service_unmountable:
        return refusal("builder.tensors.renamedValue", input=names[0], output=names[1])
    legacy = spec.role == VALUE_ROLE and not declares_names
    doc: dict[str, Any] = {
        "manifestVersion": "1.0.0" if legacy else "1.1.0",
        "modelId": spec.model_id,
        "modelSha256": digest,
        "featureSchema": spec.schema_id,
        "featureCount": schemas[spec.schema_id].width,
        "engineCompatibility": spec.engine_compatibility,
    }
    if not legacy:
        doc.update(modelRole=spec.role, perspective=default_of("perspective"), inputName=names[0],
                   outputName=names[1])
    profile = spec.evaluation_profile or SERVICE_PROFILE.get(spec.schema_id)
    if profile is not None:
        doc["evaluationProfile"] = profile
    if spec.calibration_temperature is not None:
        if spec.role in UNCALIBRATED_ROLES:
            return refusal("builder.calibration.ranking")
        if not math.isfinite(spec.calibration_temperature):
            return refusal("builder.calibration.notFinite", value=spec.calibration_temperature)
        if spec.calibration_temperature <= 0:  # logits are divided by it: 0 and below are no temperature
            return refusal("builder.calibration.notPositive", value=spec.calibration_temperature)
        doc["calibration"] = {"temperature": spec.calibration_temperature}
    if spec.provenance:
        doc["provenance"] = dict(spec.provenance)
    return _unicode_problem(doc) or doc


def service_cost(package: ModelPackage) -> str | None:
    """What a published package costs in the evaluation service, or ``None`` when the service mounts it.

    Only a ``position-value`` package written as 1.1.0 (renamed tensors, by explicit opt-in) has a cost.
    """
    manifest = package.manifest
    if manifest.model_role != VALUE_ROLE or manifest.manifest_version == "1.0.0":
        return None
    return CONTRACT_TABLE.text("builder.serviceCost", version=manifest.manifest_version,
                               input=manifest.input_name, output=manifest.output_name)


def _unicode_problem(doc: Mapping[str, Any]) -> Refusal | None:
    """A field no UTF-8 file can hold: text with a lone surrogate (what undecodable argv bytes become)."""
    for key, value in doc.items():
        try:
            strictjson.dumps({key: value}).encode("utf-8")
        except UnicodeEncodeError:
            return refusal("builder.field.notUnicode", name=key)
    return None


def _validate(staged: Path, engine_version: str, role: str) -> Refusal | None:
    loaded = ModelPackage.load(staged, engine_version, role)
    if isinstance(loaded, Refusal):
        return loaded
    graph = check_graph(loaded.model_bytes, loaded.manifest)
    return None if graph is None else graph.prefixed(loaded.model_text)


# What rename(2) says when another process created the destination after the last check.
_TAKEN: Final = frozenset({errno.EEXIST, errno.ENOTEMPTY, errno.ENOTDIR, errno.EISDIR})


def _publish(staged: Path, out: Path) -> Refusal | None:
    if out.exists() or out.is_symlink():
        return refusal("builder.destination.exists", path=out)
    try:
        os.rename(staged, out)
    except OSError as exc:
        if exc.errno in _TAKEN:
            return refusal("builder.destination.exists", path=out)
        raise
    # The rename itself survives a crash. Published already: a failed sync must not turn into a refusal.
    with contextlib.suppress(OSError):
        sync_path(out.parent)
    return None


def _keep_failed(staged: Path, model: Path, out: Path, problem: Refusal) -> Refusal:
    """Move a refused staging directory aside, with the refusal in it.

    The message names the user's paths: the staged graph is their ``--model``, the staged manifest is the
    one that would have been published at ``out``. The refused copy is ``<out>.failed-<hex>`` (``REFUSED.txt``).
    """
    failed = out.with_name(f"{out.name}{FAILED_INFIX}{secrets.token_hex(4)}")
    message = problem.message.replace(path_text(staged / MODEL_FILE_NAME), path_text(model))
    message = message.replace(path_text(staged), path_text(out))
    # A path from undecodable bytes holds lone surrogates: written as escapes, as the console shows them.
    write_atomic(staged / REFUSAL_FILE, (message + "\n").encode("utf-8", "backslashreplace"))
    os.rename(staged, failed)
    return Refusal(message, problem.code, problem.field).prefixed(_publishing(out))


def failed_copies(out: Path) -> set[Path]:
    """The refused builds kept beside ``out`` (``<out>.failed-<hex>``): a caller compares the set before and after
    :func:`build_package` to name the copy a refusal kept. Empty where ``out``'s parent cannot be listed."""
    prefix = f"{out.name}{FAILED_INFIX}"
    try:
        with os.scandir(out.parent) as entries:
            return {out.parent / entry.name for entry in entries if entry.name.startswith(prefix)}
    except OSError:
        return set()


def _os_refusal(exc: OSError) -> Refusal:
    reason = os_error_reason(exc)
    if exc.filename is None:
        return refusal("builder.os.error", reason=reason)
    return refusal("builder.os.fileError", path=exc.filename, reason=reason)


def _publishing(out: Path) -> str:
    """The prefix of every refusal that stops publication at ``out``."""
    return refusal("builder.refused", path=out).message


def _argument_refusal(spec: object, out: object, engine_version: object) -> Refusal | None:
    """The first argument of :func:`build_package` (or field of its spec) of the wrong type."""
    if not isinstance(spec, PackageSpec):
        return wrong_type("spec", "a PackageSpec", spec)
    provenance = spec.provenance
    if provenance is not None and not (isinstance(provenance, Mapping)
                                       and all(isinstance(k, str) and isinstance(v, str)
                                               for k, v in provenance.items())):
        return wrong_type("spec.provenance", "a mapping of strings to strings or None", provenance)
    temperature = spec.calibration_temperature
    if temperature is not None and (isinstance(temperature, bool) or not isinstance(temperature, (int, float))):
        return wrong_type("spec.calibration_temperature", "a number or None", temperature)
    if not isinstance(spec.allow_service_unmountable, bool):
        return wrong_type("spec.allow_service_unmountable", "a bool", spec.allow_service_unmountable)
    if spec.model_card is not None and not is_text_path(spec.model_card):
        return wrong_type("spec.model_card", f"{A_PATH} or None", spec.model_card)
    return (not_a_path("spec.model", spec.model) or not_a_path("out", out)
            or not_a_string("spec.schema_id", spec.schema_id) or not_a_string("spec.role", spec.role)
            or not_a_string("spec.engine_compatibility", spec.engine_compatibility)
            or not_a_string("spec.model_id", spec.model_id)
            or not_a_string("spec.evaluation_profile", spec.evaluation_profile, optional=True)
            or not_a_string("engine_version", engine_version, optional=True))


def build_package(spec: PackageSpec, out: Path, engine_version: str | None = None) -> ModelPackage | Refusal:
    """Write and validate a package at ``out``; return it, or why nothing was published there.

    A filesystem error (a name too long, a directory that cannot be written, a full disk) is a
    refusal too; whatever was staged is removed first.
    """
    wrong = _argument_refusal(spec, out, engine_version)
    if wrong is not None:
        return wrong
    out = Path(out)
    card = () if spec.model_card is None else (Path(spec.model_card),)
    for path in (out, Path(spec.model), *card):  # names no OS call takes: refused here, not raised below
        problem = unusable_path(str(path))
        if problem is not None:
            return refusal("builder.os.fileError", path=path, reason=problem).prefixed(_publishing(out))
    try:
        return _build(spec, out, engine_version)
    except OSError as exc:
        return _os_refusal(exc).prefixed(_publishing(out))


def _build(spec: PackageSpec, out: Path, engine_version: str | None) -> ModelPackage | Refusal:
    if out.exists() or out.is_symlink():
        return refusal("builder.destination.exists", path=out)
    missing_parents = not out.parent.exists() and not out.parent.is_symlink()
    if not missing_parents and not out.parent.is_dir():
        return refusal("builder.parent.notDirectory", parent=out.parent).prefixed(_publishing(out))
    model = Path(spec.model)
    if not (model.is_file() and os.access(model, os.R_OK)):
        return refusal("package.model.unreadable").prefixed(str(model)).prefixed(_publishing(out))
    if engine_version is not None:  # a host the constraint excludes, or no version at all: nothing to stage
        verdict = evaluate(spec.engine_compatibility, engine_version)
        if verdict.refusal is not None:
            return verdict.refusal.prefixed(_publishing(out))
    host = engine_version if engine_version is not None else witness_version(spec.engine_compatibility)
    if isinstance(host, Refusal):
        return host.prefixed(_publishing(out))
    try:  # read once: the bytes inspected, digested and staged are the same bytes
        graph = read_graph(model)
    except ModelTooLarge as exc:  # refused unread, as validate refuses it
        return exc.refusal().prefixed(str(model)).prefixed(_publishing(out))
    except OSError as exc:
        return refusal("package.model.digestError", path=model, reason=os_error_reason(exc)).prefixed(_publishing(out))
    names = _graph_tensor_names(model, graph)
    if isinstance(names, Refusal):
        return names.prefixed(_publishing(out))
    digest = hashlib.sha256(graph).hexdigest()
    document = manifest_document(spec, digest, names)
    if isinstance(document, Refusal):
        return document.prefixed(_publishing(out))
    card = generated_card(document) if spec.model_card is None else read_card(Path(spec.model_card))
    if isinstance(card, Refusal):
        return card.prefixed(_publishing(out))

    if missing_parents:  # only now that nothing can refuse before staging
        out.parent.mkdir(parents=True, exist_ok=True)
    staged = out.with_name(f".{out.name}.tmp-{secrets.token_hex(6)}")
    staged.mkdir()
    try:
        write_atomic(staged / MODEL_FILE_NAME, graph)  # synced
        write_atomic(staged / MANIFEST_FILE_NAME, strictjson.dumps(document))  # synced
        write_atomic(staged / CARD_FILE_NAME, card)  # synced; not covered by the digest (model.onnx alone)
        sync_path(staged)
        problem = _validate(staged, host, spec.role)
        if problem is not None:
            return _keep_failed(staged, model, out, problem)
        if spec.sign_key is not None:  # signed as the last file staged, so it covers every other one
            from contract.model.signature import sign

            signed = sign(staged, spec.sign_key, out.name)
            if isinstance(signed, Refusal):
                shutil.rmtree(staged)
                return signed.prefixed(_publishing(out))
        problem = _publish(staged, out)
        if problem is not None:
            shutil.rmtree(staged)
            return problem
    except BaseException:
        shutil.rmtree(staged, ignore_errors=True)
        raise
    return ModelPackage.load(out, host, spec.role)
