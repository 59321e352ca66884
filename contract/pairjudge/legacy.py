"""``pairjudge declare-legacy``: the documented migration of a legacy classifier, done safely.

A legacy classifier (no ``pairjudge.json``) often carries opaque ``LABEL_0``.. class names, which the
reference's loader rejects. Its documented migration: copy the directory, rewrite only
``config.json``'s ``id2label``/``label2id`` in the verified training order, keep every other file,
and load with ``allow_legacy=True``, that order and the complete original ``PackerConfig``.

:func:`declare_legacy` does exactly that and nothing more: it refuses an existing TARGET, a SOURCE
that is not a legacy directory (one with ``pairjudge.json`` is a bundle whose digests the rewrite
would break), a SOURCE holding anything but plain files and directories; it copies SOURCE into a
hidden temporary sibling of TARGET (every file byte for byte, ``config.json`` apart), rewrites the
two mappings there, verifies the copy as ``verify --allow-legacy`` would, and only then renames it
to TARGET. SOURCE is only read. A refusal leaves no TARGET and no temporary directory behind.

A declaration is not proof: nothing in the files says which order the head was trained with.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from contract.core import strictjson
from contract.core.checktable import PAIRJUDGE_TABLE as TABLE
from contract.core.oserrors import os_error_reason
from contract.core.stagedfile import temporary_sibling
from contract.pairjudge.bundle import CONFIG_FILE, verify_bundle
from contract.pairjudge.manifest import MANIFEST_NAME, label_order_problem
from contract.pairjudge.verdict import Verdict

NOT_PROOF = TABLE.text("declare.notProof")


@dataclass(frozen=True)
class Declaration:
    """The outcome: ``ok`` with the verdict on the published TARGET, or the refusal's message."""

    ok: bool
    message: str | None
    verdict: Verdict | None = None


def _refused(code: str, /, **fields: object) -> Declaration:
    return Declaration(False, TABLE.text(code, **fields))


def _source_problem(source: Path) -> str | None:
    if not source.is_dir():
        return TABLE.text("declare.source.notDirectory", source=source)
    if (source / MANIFEST_NAME).exists():
        return TABLE.text("declare.source.bundle", source=source, manifest=MANIFEST_NAME)
    for path in source.rglob("*"):
        mode = os.lstat(path).st_mode
        if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
            return TABLE.text("declare.source.special", path=path.relative_to(source))
    if not (source / CONFIG_FILE).is_file():
        return TABLE.text("declare.source.noConfig", source=source, config=CONFIG_FILE)
    return None


def declared_config(data: bytes, order: Sequence[str]) -> bytes | str:
    """``config.json`` with ``id2label``/``label2id`` in ``order`` (other keys and their order kept),
    or why it cannot be rewritten."""
    try:
        config = strictjson.parse(data)
    except strictjson.StrictJsonError as exc:
        return TABLE.text("declare.config.json", config=CONFIG_FILE, problem=exc)
    if not isinstance(config, dict):
        return TABLE.text("declare.config.notObject", config=CONFIG_FILE)
    config["id2label"] = {str(index): label for index, label in enumerate(order)}
    config["label2id"] = {label: index for index, label in enumerate(order)}
    return (json.dumps(config, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def declare_legacy(
    source: Path | str,
    target: Path | str,
    label_order: Sequence[Any],
    packer_config: Mapping[str, Any],
) -> Declaration:
    """Copy the legacy classifier ``source`` to the new ``target`` with the declared class order,
    then verify the copy; never raises for bad input, never edits ``source``."""
    source, target = Path(source), Path(target)
    order = list(label_order)
    if label_order_problem(order) or not isinstance(label_order, list | tuple):
        return _refused("arguments.label_order")
    if os.path.lexists(target):
        return _refused("declare.target.exists", target=target)
    problem = _source_problem(source)
    if problem is not None:
        return Declaration(False, problem)
    if not target.parent.is_dir():
        return _refused("declare.parent.notDirectory", parent=target.parent)
    try:
        config = declared_config((source / CONFIG_FILE).read_bytes(), order)
    except OSError as exc:
        return _refused("declare.config.unreadable", config=CONFIG_FILE, reason=os_error_reason(exc))
    if isinstance(config, str):
        return Declaration(False, config)
    stage = temporary_sibling(target)
    try:
        shutil.copytree(source, stage, symlinks=True)
        (stage / CONFIG_FILE).write_bytes(config)
        verdict = verify_bundle(stage, allow_legacy=True, label_order=order, packer_config=packer_config)
        if not verdict.ok:
            return Declaration(False, TABLE.text("declare.copy.refused", message=verdict.message), verdict)
        if os.path.lexists(target):
            return _refused("declare.target.appeared", target=target)
        os.rename(stage, target)
    except OSError as exc:
        return _refused("declare.target.unwritable", target=target, reason=os_error_reason(exc))
    finally:
        if stage.exists():
            shutil.rmtree(stage, ignore_errors=True)
    return Declaration(True, None, verdict)
