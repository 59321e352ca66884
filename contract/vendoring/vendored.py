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
import stat
from pathlib import Path
from typing import Final

from contract import __version__
from contract.core.arguments import unusable_path
from contract.core.oserrors import os_error_reason
from contract.core.record import Record
from contract.core.refusal import Refusal
from contract.core.regularfile import sha256_and_match
from contract.core.resources import data_root, is_checkout
from contract.core.stagedfile import sync_path, temporary_sibling
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
from contract.vendoring.lock import Lock, lock_bytes, lock_document, read_lock
from contract.vendoring.messages import say
from contract.vendoring.walk import Inside, Tree


class Vendored(Record):
    directory: Path
    written: tuple[str, ...]
    removed: tuple[str, ...]
    replaced: tuple[str, ...] = ()
    layout: str = KIT_LAYOUT
    kept: tuple[str, ...] = ()  # named by the old lock, not written by vendor (their SHA-256 differs): kept
    adopted: tuple[str, ...] = ()  # there before, byte-identical to what vendor writes: now in the lock


class Problem(Record):
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


class _Stopped(Exception):
    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(str(path))
        self.path = path
        self.reason = reason


_INSIDE_CODES: Final = {"symlink": "target.linkInside", "notDirectory": "target.notDirectoryInside",
                        "notRegular": "target.notRegularInside"}


def _inside_refusal(directory: Path, found: Inside) -> Refusal:
    return Refusal(say(_INSIDE_CODES[found.kind], directory=directory, path=directory / found.path))


def _bytes_of(planned: list[Planned]) -> dict[str, bytes]:
    return {item.name: planned_bytes(item) for item in planned}


def _write_all(tree: Tree, contents: dict[str, bytes], shown: Path, digests: dict[str, str],
               created: list[str] | None = None) -> None:
    """Write every file under ``tree``, each one's digest into ``digests`` once it is written and each
    directory made into ``created``. An OSError names the file under ``shown`` (the user's path)."""
    for name, data in contents.items():
        try:
            tree.write(name, data, created)
        except OSError as exc:
            raise _Stopped(shown / name, os_error_reason(exc)) from None
        digests[name] = hashlib.sha256(data).hexdigest()


def _vendor_new(directory: Path, layout: Layout, contents: dict[str, bytes]) -> Vendored | Refusal:
    import shutil  # here, not at the top: ``vendor --check`` never removes a staged copy (issue 35)

    try:
        directory.parent.mkdir(parents=True, exist_ok=True)
        staged = temporary_sibling(directory)
        staged.mkdir()
    except OSError as exc:
        return Refusal(say("target.writeFailed", path=directory, reason=os_error_reason(exc), directory=directory))
    try:
        with Tree(staged) as tree:
            digests: dict[str, str] = {}
            _write_all(tree, contents, directory, digests)
            try:
                tree.write(LOCK_NAME, lock_bytes(lock_document(layout, digests)))
            except OSError as exc:
                raise _Stopped(directory / LOCK_NAME, os_error_reason(exc)) from None
        try:
            staged.rename(directory)
        except OSError as exc:
            if exc.errno in (errno.EEXIST, errno.ENOTEMPTY, errno.EISDIR, errno.ENOTDIR):
                return Refusal(say("target.raced", directory=directory))
            raise _Stopped(directory, os_error_reason(exc)) from None
    except _Stopped as stop:
        return Refusal(say("target.writeFailed", path=stop.path, reason=stop.reason, directory=directory))
    except Inside as found:  # the staged directory is this run's own; a link in it was put there meanwhile
        return _inside_refusal(directory, found)
    except OSError as exc:  # the staged directory could not be opened
        return Refusal(say("target.writeFailed", path=directory, reason=os_error_reason(exc), directory=directory))
    finally:
        shutil.rmtree(staged, ignore_errors=True)
    sync_path(directory.parent)
    return Vendored(directory, tuple(digests), (), (), layout.name)


class _Survey(Record):
    """What an update finds before it writes: files replaced (edited locally) and adopted (identical)."""

    replaced: list[str]
    adopted: list[str]
    fresh: list[str]


def _survey(tree: Tree, directory: Path, contents: dict[str, bytes], previous: dict[str, str],
            removed: list[str]) -> _Survey | Refusal:
    for name in [*contents, *removed]:
        tree.status(name)  # raises Inside for a link or a non-directory on the way
    replaced, adopted, fresh = [], [], []
    for name, data in contents.items():
        actual = tree.digest(name)
        if actual is None:
            fresh.append(name)
        elif name in previous:
            if actual != previous[name]:
                replaced.append(name)
        elif actual == hashlib.sha256(data).hexdigest():
            adopted.append(name)  # byte-identical to what vendor writes: taken into the lock
        else:
            return Refusal(say("target.occupied", directory=directory, path=directory / name))
    return _Survey(replaced, adopted, fresh)


def _vendor_update(directory: Path, layout: Layout, contents: dict[str, bytes]) -> Vendored | Refusal:
    try:
        tree = Tree(directory)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR):
            return Refusal(say("target.symlink" if directory.is_symlink() else "target.notDirectory",
                               directory=directory))
        raise
    with tree:
        try:
            return _update(tree, directory, layout, contents)
        except Inside as found:
            return _inside_refusal(directory, found)


def _update(tree: Tree, directory: Path, layout: Layout, contents: dict[str, bytes]) -> Vendored | Refusal:
    previous_files: dict[str, str] = {}
    had_lock = tree.status(LOCK_NAME) != "absent"
    if had_lock:
        previous = read_lock(directory)
        if isinstance(previous, Refusal):
            return Refusal(say("target.notVendored", directory=directory, reason=previous.message))
        previous_files = previous.files
    elif tree.names() and layout.document is None:
        return Refusal(say("target.notVendored", directory=directory, reason=say(
            "lock.missing", directory=directory, lock=LOCK_NAME)))
    removed = sorted(set(previous_files) - set(contents))
    survey = _survey(tree, directory, contents, previous_files, removed)
    if isinstance(survey, Refusal):
        return survey
    digests: dict[str, str] = {}
    created: list[str] = []
    gone: list[str] = []
    kept: list[str] = []
    try:
        _write_all(tree, contents, directory, digests, created)
        for name in removed:  # files an earlier vendor wrote that this layout no longer ships
            actual = tree.digest(name)
            if actual is None:
                continue
            if actual == previous_files[name]:
                tree.remove(name)
                gone.append(name)
            else:  # not what vendor wrote (edited, or the repository's own): never removed
                kept.append(name)
        try:
            tree.write(LOCK_NAME, lock_bytes(lock_document(layout, digests)))
        except OSError as exc:
            raise _Stopped(directory / LOCK_NAME, os_error_reason(exc)) from None
    except (_Stopped, OSError, Inside) as exc:
        refusal = _inside_refusal(directory, exc) if isinstance(exc, Inside) else None
        stop = exc if isinstance(exc, _Stopped) else _Stopped(
            directory if not isinstance(exc, OSError) or exc.filename is None
            else Path(os.fsdecode(exc.filename)), "" if isinstance(exc, Inside) else os_error_reason(exc))
        if had_lock or tree.status(LOCK_NAME) != "absent":
            return refusal or Refusal(say("target.updateFailed", path=stop.path, reason=stop.reason,
                                          directory=directory))
        with contextlib.suppress(OSError, Inside):  # no lock before: this run takes back what it made
            for name in survey.fresh:
                if name in digests:
                    tree.remove(name)
            for made in reversed(created):
                tree.remove_directory(made)
        return refusal or Refusal(say("target.writeFailed", path=stop.path, reason=stop.reason,
                                      directory=directory))
    return Vendored(directory, tuple(digests), tuple(gone), tuple(survey.replaced), layout.name,
                    tuple(kept), tuple(survey.adopted))


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
    if _in_kit_data(target):
        return Refusal(say("target.kitData", directory=target, root=data_root()))
    if target.is_symlink():
        return Refusal(say("target.symlink", directory=target))
    if _exists(target) and not target.is_dir():
        return Refusal(say("target.notDirectory", directory=target))
    contents = _bytes_of(planned)
    if not _exists(target):
        return _vendor_new(target, chosen, contents)
    return _vendor_update(target, chosen, contents)


def _in_kit_data(target: Path) -> bool:
    """Whether ``target`` is the kit's data root, or inside the data it ships (``schema/``, ``grammar/``,
    ``golden/`` of a checkout; anything under an installed kit's ``_data``), links resolved."""
    root = data_root()
    real = os.path.realpath(target)
    guarded = [root] if not is_checkout() else [root / tree for tree in ("schema", "grammar", "golden")]
    if real == os.path.realpath(root):
        return True
    for area in guarded:
        base = os.path.realpath(area)
        if real == base or real.startswith(base.rstrip(os.sep) + os.sep):
            return True
    return False


def _installed(layout: Layout) -> dict[str, bytes]:
    """The bytes the installed kit writes for each file of ``layout``: each copy is compared with them while it
    is hashed for its lock (a copy that matches its lock matches the kit exactly when its bytes are the kit's),
    so the kit's own files are read but not hashed."""
    planned = plan(layout)
    return {} if isinstance(planned, Refusal) else {item.name: planned_bytes(item) for item in planned}


def _file_problem(directory: Path, name: str, locked: dict[str, str], kit: dict[str, bytes]) -> Problem | None:
    path = directory / name
    try:
        found = _path_problem(directory, name)
    except OSError as exc:  # a name too long for this file system, and the like: this file's problem
        return Problem(name, "unreadable", say("problem.unreadable", reason=os_error_reason(exc)))
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
        actual, as_the_kit = sha256_and_match(path, kit.get(name))
    except OSError as exc:
        return Problem(name, "unreadable", say("problem.unreadable", reason=os_error_reason(exc)))
    if actual != locked[name]:
        return Problem(name, "edited", say("problem.edited", lock=LOCK_NAME))
    if name not in kit:
        return Problem(name, "notInKit", say("problem.notInKit", version=__version__))
    if not as_the_kit:  # the copy holds what its lock records, and the kit holds something else
        return Problem(name, "differs", say("problem.differs", version=__version__))
    return None


class Checked(Record):
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
