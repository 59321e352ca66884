"""``pairjudge declare-legacy``: the documented migration of a legacy classifier, done safely.

A legacy classifier (no ``pairjudge.json``) often carries opaque ``LABEL_0``.. class names, which the
reference's loader rejects. Its documented migration: copy the directory, rewrite only
``config.json``'s ``id2label``/``label2id`` in the verified training order, keep every other file,
and load with ``allow_legacy=True``, that order and the complete original ``PackerConfig``.

:func:`declare_legacy` does exactly that and nothing more: it refuses an existing TARGET, a SOURCE
that is not a legacy directory (one with ``pairjudge.json`` is a bundle whose digests the rewrite
would break), a SOURCE holding anything but plain files and directories, a TARGET inside SOURCE;
it copies SOURCE into a hidden temporary sibling of TARGET (every file byte for byte,
``config.json`` apart), refusing any link or special file met *during* the copy (each entry is
opened relative to its already-opened directory, without following links, so a file swapped for
a link after the first look is refused, not copied), rewrites the two mappings there, checks again
that the stage holds only plain files and directories, verifies the copy as ``verify
--allow-legacy`` would, and only then renames it to TARGET. SOURCE is only read. ``config.json`` is
read with the same bounds and the same JSON reading as ``verify`` (so declare-legacy is no stricter:
a repeated key is a warning, the last value wins). A refusal or an interruption leaves no TARGET
and no temporary directory behind.

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

from contract.core.arguments import is_text_path
from contract.core.checktable import PAIRJUDGE_TABLE as TABLE
from contract.core.checktable import first_failure
from contract.core.consoletext import cut
from contract.core.oserrors import os_error_reason
from contract.core.stagedfile import temporary_sibling
from contract.pairjudge import sidejson
from contract.pairjudge.bundle import (
    ARGUMENT_CHECKS,
    CONFIG_FILE,
    Arguments,
    python_kind,
    unusable_path_fields,
    verify_bundle,
)
from contract.pairjudge.manifest import MANIFEST_NAME
from contract.pairjudge.verdict import Verdict

NOT_PROOF = TABLE.text("declare.notProof")
_CHUNK = 1024 * 1024
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)


@dataclass(frozen=True)
class Declaration:
    """The outcome: ``ok`` with the verdict on the published TARGET, or the refusal's message;
    ``warnings`` are those of reading SOURCE's config.json (the verdict carries the copy's)."""

    ok: bool
    message: str | None
    verdict: Verdict | None = None
    warnings: tuple[str, ...] = ()


class _Special(Exception):
    """A link or special file met during the copy (its path relative to SOURCE)."""


def _refused(code: str, /, **fields: object) -> Declaration:
    return Declaration(False, TABLE.text(code, **fields))


def _inside(path: Path, directory: Path) -> bool:
    """True when ``path`` (which need not exist) resolves to ``directory`` or below it."""
    try:
        resolved, root = os.path.realpath(path), os.path.realpath(directory)
        return os.path.commonpath([resolved, root]) == root
    except (OSError, ValueError):
        return False


def _source_problem(source: Path) -> str | None:
    try:
        is_directory = stat.S_ISDIR(os.stat(source).st_mode)
    except (FileNotFoundError, NotADirectoryError):
        is_directory = False
    except OSError as exc:  # a name too long, a loop of links, no permission: said, not raised
        return TABLE.text("declare.source.unreadable", source=cut(str(source)), reason=os_error_reason(exc))
    if not is_directory:
        return TABLE.text("declare.source.notDirectory", source=source)
    if os.path.lexists(source / MANIFEST_NAME):
        return TABLE.text("declare.source.bundle", source=source, manifest=MANIFEST_NAME)
    if not os.path.isfile(source / CONFIG_FILE) or os.path.islink(source / CONFIG_FILE):
        if os.path.islink(source / CONFIG_FILE):
            return TABLE.text("declare.source.special", path=CONFIG_FILE)
        return TABLE.text("declare.source.noConfig", source=source, config=CONFIG_FILE)
    return None


def declared_config(config: Any, order: Sequence[str]) -> bytes | str:
    """``config.json`` with ``id2label``/``label2id`` in ``order`` (other keys and their order kept),
    or why it cannot be rewritten."""
    if not isinstance(config, dict):
        return TABLE.text("declare.config.notObject", config=CONFIG_FILE)
    config = dict(config)
    config["id2label"] = {str(index): label for index, label in enumerate(order)}
    config["label2id"] = {label: index for index, label in enumerate(order)}
    return (json.dumps(config, indent=2, ensure_ascii=False) + "\n").encode("utf-8", "surrogatepass")


def _copy_file(source_dir: int, name: str, target: Path, relative: str) -> None:
    """Copy the regular file ``name`` of the open directory ``source_dir``, never through a link."""
    try:
        fd = os.open(name, os.O_RDONLY | _NOFOLLOW | _NONBLOCK, dir_fd=source_dir)
    except OSError as exc:
        if exc.errno in (getattr(os, "ELOOP", 40), 6):  # ELOOP: a link; ENXIO: a FIFO, socket
            raise _Special(relative) from None
        raise
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise _Special(relative)
        os.set_blocking(fd, True)
        out = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, stat.S_IMODE(info.st_mode) | 0o600)
        try:
            while chunk := os.read(fd, _CHUNK):
                view = memoryview(chunk)
                while view:
                    view = view[os.write(out, view):]
        finally:
            os.close(out)
        os.chmod(target, stat.S_IMODE(info.st_mode))
    finally:
        os.close(fd)


def _copy_tree(source_dir: int, target: Path, relative: str = "") -> None:
    """Copy the open directory ``source_dir`` into the new directory ``target``: plain files and
    directories only, each opened without following links (raises :class:`_Special` otherwise)."""
    for entry in sorted(os.scandir(source_dir), key=lambda e: e.name):
        path = f"{relative}{entry.name}"
        mode = os.lstat(entry.name, dir_fd=source_dir).st_mode
        if stat.S_ISDIR(mode):
            try:
                child = os.open(entry.name, os.O_RDONLY | _DIRECTORY | _NOFOLLOW, dir_fd=source_dir)
            except OSError as exc:
                if exc.errno in (getattr(os, "ELOOP", 40), getattr(os, "ENOTDIR", 20)):
                    raise _Special(path) from None
                raise
            try:
                os.mkdir(target / entry.name, 0o700)
                _copy_tree(child, target / entry.name, path + "/")
                os.chmod(target / entry.name, stat.S_IMODE(os.fstat(child).st_mode))
            finally:
                os.close(child)
        elif stat.S_ISREG(mode):
            _copy_file(source_dir, entry.name, target / entry.name, path)
        else:
            raise _Special(path)


def _stage_special(stage: Path) -> str | None:
    """The first path in ``stage`` that is not a plain file or directory (looked at again before
    the rename), or None."""
    for root, directories, files in os.walk(stage):
        for name in [*directories, *files]:
            if not (stat.S_ISREG(os.lstat(os.path.join(root, name)).st_mode)
                    or stat.S_ISDIR(os.lstat(os.path.join(root, name)).st_mode)):
                return os.path.relpath(os.path.join(root, name), stage)
    return None


def _copy_source(source: Path, stage: Path) -> str | None:
    """Copy SOURCE into the new ``stage``; the first link or special file met, or None."""
    fd = os.open(source, os.O_RDONLY | _DIRECTORY)
    try:
        os.mkdir(stage, 0o700)
        _copy_tree(fd, stage)
        os.chmod(stage, stat.S_IMODE(os.fstat(fd).st_mode))
    except _Special as special:
        return str(special)
    finally:
        os.close(fd)
    return _stage_special(stage)


def _argument_problem(source: Any, target: Any, label_order: Any, packer_config: Any) -> str | None:
    for name, path in (("SOURCE", source), ("TARGET", target)):
        if not is_text_path(path):
            return TABLE.text("declare.path.type", argument=name, kind=python_kind(path))
        unusable = unusable_path_fields(name, path)
        if unusable is not None:
            return TABLE.text("arguments.unusablePath", **unusable)
    if label_order is None or packer_config is None:
        return TABLE.text("arguments.label_order" if label_order is None else "arguments.packer_config",
                          kind=python_kind(packer_config))
    failure = first_failure(ARGUMENT_CHECKS, Arguments(True, label_order, packer_config, source))
    return None if failure is None else failure.message


def declare_legacy(
    source: Path | str,
    target: Path | str,
    label_order: Sequence[Any],
    packer_config: Mapping[str, Any],
) -> Declaration:
    """Copy the legacy classifier ``source`` to the new ``target`` with the declared class order,
    then verify the copy; never raises for bad input, never edits ``source``."""
    problem = _argument_problem(source, target, label_order, packer_config)
    if problem is not None:
        return Declaration(False, problem)
    source, target = Path(source), Path(target)
    order = list(label_order)
    if os.path.lexists(target):
        return _refused("declare.target.exists", target=target)
    problem = _source_problem(source)
    if problem is not None:
        return Declaration(False, problem)
    if _inside(target, source):
        return _refused("declare.target.insideSource", target=target, source=source)
    if not os.path.isdir(target.parent):
        return _refused("declare.parent.notDirectory", parent=target.parent)
    parsed = sidejson.read_side_json(source / CONFIG_FILE, CONFIG_FILE)
    if parsed is None:
        return _refused("declare.source.noConfig", source=source, config=CONFIG_FILE)
    if isinstance(parsed, str):
        return _refused("declare.config.unusable", problem=parsed)
    config = declared_config(parsed.value, order)
    if isinstance(config, str):
        return Declaration(False, config)
    stage = temporary_sibling(target)
    try:
        special = _copy_source(source, stage)
        if special is not None:
            return _refused("declare.source.special", path=special)
        (stage / CONFIG_FILE).write_bytes(config)
        verdict = verify_bundle(stage, allow_legacy=True, label_order=order, packer_config=packer_config)
        if not verdict.ok:
            return Declaration(False, TABLE.text("declare.copy.refused", message=verdict.message), verdict,
                               parsed.warnings)
        special = _stage_special(stage)
        if special is not None:
            return _refused("declare.source.special", path=special)
        if os.path.lexists(target):
            return _refused("declare.target.appeared", target=target)
        os.rename(stage, target)
    except OSError as exc:
        return _refused("declare.target.unwritable", target=target, reason=os_error_reason(exc))
    finally:
        if os.path.lexists(stage):
            shutil.rmtree(stage, ignore_errors=True)
    return Declaration(True, None, verdict, parsed.warnings)
