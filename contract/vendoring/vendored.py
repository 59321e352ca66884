"""A vendored copy of the contract files in another repository, and the check its CI runs.

:func:`vendor` writes the files of a layout (:mod:`contract.vendoring.layout`; the kit's own by default)
into a directory with a lock file (:data:`LOCK_NAME`) recording the kit's version, the contract versions,
the layout (any but the kit's own) and each written file's SHA-256. A new directory is staged as a
temporary sibling and renamed into place whole; an existing vendored copy (it holds a lock file) is
updated file by file, each through a temporary sibling, the lock last. Nothing is written, read or
removed outside the directory: every name, from the layout or from a lock, is a plain relative name, and
a symbolic link anywhere under the directory on the way to a file is refused, never followed. Messages
are ``schema/vendor-messages.json``'s.

:func:`check` compares a vendored copy with its lock and with the installed kit, naming each file that
was edited, is missing, is not the kit's, or differs from the installed kit's.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import shutil
import stat
from dataclasses import dataclass
from pathlib import Path

from contract import __version__
from contract.core.arguments import unusable_path
from contract.core.oserrors import os_error_reason
from contract.core.refusal import Refusal
from contract.core.stagedfile import sync_path, temporary_sibling, write_atomic
from contract.vendoring.files import file_sha256
from contract.vendoring.layout import (
    KIT_LAYOUT,
    LOCK_NAME,
    Layout,
    Planned,
    builtin_names,
    plan,
    planned_bytes,
    read_layout,
)
from contract.vendoring.lock import Lock, digests_of, lock_bytes, lock_document, read_lock
from contract.vendoring.messages import say


@dataclass(frozen=True)
class Vendored:
    directory: Path
    written: tuple[str, ...]
    removed: tuple[str, ...]
    replaced: tuple[str, ...] = ()
    layout: str = KIT_LAYOUT


@dataclass(frozen=True)
class Problem:
    """One problem of a vendored copy: the file (relative name), a stable kind and the text printed."""

    file: str
    kind: str
    message: str


def _as_path(directory: object) -> Path | Refusal:
    """``directory`` as a Path; a refusal for anything else, a caller's PathLike whose ``__fspath__``
    fails or gives bytes included (never raises)."""
    if isinstance(directory, Path):
        return directory
    if isinstance(directory, str | os.PathLike) and not isinstance(directory, bytes):
        try:
            text = os.fspath(directory)
        except Exception:  # the caller's own __fspath__ failed: not a path this call can use
            text = None
        if isinstance(text, str):
            problem = unusable_path(text)
            return Path(text) if problem is None else Refusal(say("target.badPath", directory=text, reason=problem))
    return Refusal(say("target.notAPath", kind=type(directory).__name__))


def _path_problem(directory: Path, name: str) -> tuple[str, str] | None:
    """``(kind, path)`` when the way to ``directory/name`` holds a link or a non-directory, or the file
    itself is a link or not a regular file (``None``: absent, or a regular file reached without a link)."""
    current = directory
    parts = name.split("/")
    for index, part in enumerate(parts):
        current = current / part
        try:
            mode = os.lstat(current).st_mode
        except FileNotFoundError:
            return None
        if stat.S_ISLNK(mode):
            return ("symlink", str(current))
        last = index == len(parts) - 1
        if not last and not stat.S_ISDIR(mode):
            return ("notDirectory", str(current))
        if last and not stat.S_ISREG(mode):
            return ("notRegular", str(current))
    return None


def _exists(path: Path) -> bool:
    return os.path.lexists(path)


def _write_files(target: Path, planned: list[Planned], shown: Path, digests: dict[str, str],
                 created: list[Path] | None = None) -> dict[str, str]:
    """Write every planned file under ``target``, each one's digest into ``digests`` once it is written
    and each directory it makes into ``created``.

    An OSError names the file under ``shown`` (the user's path), never a temporary one.
    """
    for item in planned:
        data = planned_bytes(item)
        destination = target / item.name
        try:
            if created is not None:
                created += [p for p in destination.relative_to(target).parents
                            if p != Path(".") and not _exists(target / p)][::-1]
            destination.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(destination, data)
        except OSError as exc:
            raise _Stopped(shown / item.name, os_error_reason(exc)) from None
        digests[item.name] = hashlib.sha256(data).hexdigest()
    return digests


class _Stopped(Exception):
    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(str(path))
        self.path = path
        self.reason = reason


def _refuse_inside(directory: Path, names: list[str]) -> Refusal | None:
    codes = {"symlink": "target.linkInside", "notDirectory": "target.notDirectoryInside",
             "notRegular": "target.notRegularInside"}
    for name in names:
        found = _path_problem(directory, name)
        if found is not None:
            return Refusal(say(codes[found[0]], directory=directory, path=found[1]))
    return None


def _vendor_new(directory: Path, layout: Layout, planned: list[Planned]) -> Vendored | Refusal:
    try:
        directory.parent.mkdir(parents=True, exist_ok=True)
        staged = temporary_sibling(directory)
        staged.mkdir()
    except OSError as exc:
        return Refusal(say("target.writeFailed", path=directory, reason=os_error_reason(exc), directory=directory))
    try:
        digests = _write_files(staged, planned, directory, {})
        write_atomic(staged / LOCK_NAME, lock_bytes(lock_document(layout, digests)))
        try:
            staged.rename(directory)
        except OSError as exc:
            if exc.errno in (errno.EEXIST, errno.ENOTEMPTY, errno.EISDIR, errno.ENOTDIR):
                return Refusal(say("target.raced", directory=directory))
            raise _Stopped(directory, os_error_reason(exc)) from None
    except _Stopped as stop:
        return Refusal(say("target.writeFailed", path=stop.path, reason=stop.reason, directory=directory))
    except OSError as exc:  # the lock file itself
        return Refusal(say("target.writeFailed", path=directory / LOCK_NAME, reason=os_error_reason(exc),
                           directory=directory))
    finally:
        shutil.rmtree(staged, ignore_errors=True)
    sync_path(directory.parent)
    return Vendored(directory, tuple(digests), (), (), layout.name)


def _edited(path: Path, digest: str) -> bool:
    try:
        return file_sha256(path) != digest
    except OSError:
        return True


def _remove(directory: Path, name: str) -> None:
    """Remove ``directory/name`` and the directories it leaves empty, never ``directory`` itself."""
    (directory / name).unlink(missing_ok=True)
    parent = (directory / name).parent
    while parent != directory:
        try:
            parent.rmdir()
        except OSError:
            return
        parent = parent.parent


def _vendor_update(directory: Path, layout: Layout, planned: list[Planned]) -> Vendored | Refusal:
    previous_files: dict[str, str] = {}
    if _exists(directory / LOCK_NAME):
        previous = read_lock(directory)
        if isinstance(previous, Refusal):
            return Refusal(say("target.notVendored", directory=directory, reason=previous.message))
        previous_files = previous.files
    elif any(directory.iterdir()) and layout.document is None:
        return Refusal(say("target.notVendored", directory=directory, reason=say(
            "lock.missing", directory=directory, lock=LOCK_NAME)))
    names = [item.name for item in planned]
    removed = sorted(set(previous_files) - set(names))
    refused = _refuse_inside(directory, names + removed)
    if refused is not None:
        return refused
    replaced = []
    for name in names:
        path = directory / name
        if not _exists(path):
            continue
        if name not in previous_files:
            return Refusal(say("target.occupied", directory=directory, path=path))
        if _edited(path, previous_files[name]):
            replaced.append(name)
    digests: dict[str, str] = {}
    created: list[Path] = []
    try:
        _write_files(directory, planned, directory, digests, created)
        for name in removed:  # files an earlier vendor wrote that this layout no longer ships
            _remove(directory, name)
        write_atomic(directory / LOCK_NAME, lock_bytes(lock_document(layout, digests)))
    except (_Stopped, OSError) as exc:
        stop = exc if isinstance(exc, _Stopped) else _Stopped(
            directory if exc.filename is None else Path(os.fsdecode(exc.filename)), os_error_reason(exc))
        if previous_files or _exists(directory / LOCK_NAME):
            return Refusal(say("target.updateFailed", path=stop.path, reason=stop.reason, directory=directory))
        for name in digests:  # no lock before: none of these existed, so this run takes back what it wrote
            (directory / name).unlink(missing_ok=True)
        for made in reversed(created):
            with contextlib.suppress(OSError):
                (directory / made).rmdir()
        return Refusal(say("target.writeFailed", path=stop.path, reason=stop.reason, directory=directory))
    return Vendored(directory, tuple(digests), tuple(removed), tuple(replaced), layout.name)


def vendor(directory: object, layout: Layout | str | None = None) -> Vendored | Refusal:
    """Write the files of ``layout`` and their lock into ``directory``.

    ``layout`` is a :class:`Layout`, a built-in name or a layout file's path; ``None`` means the layout
    the directory's lock records, else the kit's own.
    """
    target = _as_path(directory)
    if isinstance(target, Refusal):
        return target
    try:
        return _vendor(target, layout)
    except OSError as exc:  # one the steps did not name themselves (a name too long for the file system)
        return Refusal(say("target.writeFailed", path=exc.filename or target, reason=os_error_reason(exc),
                           directory=target))


def _vendor(target: Path, layout: Layout | str | None) -> Vendored | Refusal:
    if layout is None:
        previous = read_lock(target) if target.is_dir() and not target.is_symlink() else None
        chosen: Layout | Refusal = previous.layout if isinstance(previous, Lock) else Layout(KIT_LAYOUT)
    elif isinstance(layout, Layout):
        chosen = layout
    elif isinstance(layout, str):
        chosen = read_layout(layout)
    else:
        return Refusal(say("layout.unknown", name=type(layout).__name__, known=", ".join(builtin_names())))
    if isinstance(chosen, Refusal):
        return chosen
    planned = plan(chosen)
    if isinstance(planned, Refusal):
        return planned
    if target.is_symlink():
        return Refusal(say("target.symlink", directory=target))
    if _exists(target) and not target.is_dir():
        return Refusal(say("target.notDirectory", directory=target))
    if not _exists(target):
        return _vendor_new(target, chosen, planned)
    return _vendor_update(target, chosen, planned)


def _installed(layout: Layout) -> dict[str, str]:
    planned = plan(layout)
    return {} if isinstance(planned, Refusal) else digests_of(planned)


def _file_problem(directory: Path, name: str, locked: dict[str, str], kit: dict[str, str]) -> Problem | None:
    path = directory / name
    found = _path_problem(directory, name)
    if found is not None:
        kind, where = found
        if kind == "symlink" and where != str(path):
            return Problem(name, "linkInPath", say("problem.linkInPath", path=where))
        if kind == "notDirectory":
            return Problem(name, "missing", say("problem.missing"))
        return Problem(name, kind, say(f"problem.{kind}"))
    if name not in locked:
        return Problem(name, "missingFromLock", say("problem.missingFromLock", version=__version__))
    if not _exists(path):
        return Problem(name, "missing", say("problem.missing"))
    try:
        actual = file_sha256(path)
    except OSError as exc:
        return Problem(name, "unreadable", say("problem.unreadable", reason=os_error_reason(exc)))
    if actual != locked[name]:
        return Problem(name, "edited", say("problem.edited", lock=LOCK_NAME))
    if name not in kit:
        return Problem(name, "notInKit", say("problem.notInKit", version=__version__))
    if kit[name] != locked[name]:
        return Problem(name, "differs", say("problem.differs", version=__version__))
    return None


@dataclass(frozen=True)
class Checked:
    """What :func:`check` found: the lock's layout and every problem, by file name."""

    layout: str
    problems: list[Problem]


def check(directory: object) -> Checked | Refusal:
    """Every problem of a vendored copy (none: it matches its lock and the installed kit)."""
    target = _as_path(directory)
    if isinstance(target, Refusal):
        return target
    try:
        return _check(target)
    except OSError as exc:  # a name too long for the file system, and the like
        return Refusal(say("lock.unreadable", lock=target / LOCK_NAME, reason=os_error_reason(exc)))


def _check(target: Path) -> Checked | Refusal:
    if target.is_symlink():
        return Refusal(say("check.symlinkDirectory", directory=target))
    if not _exists(target):
        return Refusal(say("check.noDirectory", directory=target))
    if not target.is_dir():
        return Refusal(say("check.notDirectory", directory=target))
    lock = read_lock(target)
    if isinstance(lock, Refusal):
        return lock
    kit = _installed(lock.layout)
    problems = [found for name in sorted(set(lock.files) | set(kit))
                if (found := _file_problem(target, name, lock.files, kit)) is not None]
    return Checked(lock.layout.name, problems)


__all__ = ["LOCK_NAME", "Checked", "Problem", "Vendored", "check", "vendor"]
