"""Files under one directory, reached only through directory descriptors that never follow a link.

``vendor`` writes, reads and removes every file under its directory through a :class:`Tree`: the directory
is opened once (``O_DIRECTORY | O_NOFOLLOW``), each directory on the way to a file is opened relative to
its parent's descriptor the same way, and the file is then created, renamed into place, hashed or
unlinked relative to the descriptor of the directory holding it. A directory swapped for a symbolic link
at any instant is therefore never followed: opening it fails (the walk stops with :class:`Inside`), or it
was opened before the swap and the walk goes on in the real directory, which is still inside. No name is
ever resolved from the top again between a check and a write.

Refuses (raises :class:`Inside`) a symbolic link, or anything that is not a directory, on the way to a
file, and a file that is a link or not a regular file; raises OSError for what the operating system
refuses. Without ``dir_fd`` (Windows: :func:`supported` is false) each directory on the way is checked with
``lstat`` before it is used, which is as close as paths allow.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Final

from contract.core.errors import ContractError
from contract.core.stagedfile import sync_path

_DIR_FLAGS: Final = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(
    os, "O_CLOEXEC", 0)
_READ_FLAGS: Final = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(
    os, "O_CLOEXEC", 0)
_CREATE_FLAGS: Final = (os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
                        | getattr(os, "O_CLOEXEC", 0))
_BUFFER: Final = 64 * 1024


_BY_DESCRIPTOR: Final = (os.open in os.supports_dir_fd and os.unlink in os.supports_dir_fd
                         and os.mkdir in os.supports_dir_fd and hasattr(os, "O_NOFOLLOW")
                         and hasattr(os, "O_DIRECTORY"))  # decided once, at import


def supported() -> bool:
    """Whether this platform walks by directory descriptor (``os.open`` and ``os.unlink`` take ``dir_fd``)."""
    return _BY_DESCRIPTOR


def step(action: str, name: str) -> None:
    """A point between two steps of the walk (``open``, ``mkdir``, ``create``, ``replace``, ``read``,
    ``unlink``, ``rmdir``) on ``name``; does nothing. Tests replace it to change the tree between steps."""


class Inside(ContractError):
    """A link or a non-directory on the way to a file, or a file that is a link or not regular."""

    def __init__(self, kind: str, path: str) -> None:
        super().__init__(f"{kind}: {path}")
        self.kind = kind  # "symlink", "notDirectory" or "notRegular"
        self.path = path  # relative to the tree's directory


Holder = int | Path  # a directory descriptor, or (without dir_fd) a path checked on the way


def _call(function: Callable[..., Any], holder: Holder, base: str, *args: Any) -> Any:
    """``function(base, *args)`` relative to ``holder`` (``dir_fd``), or on the joined path without it."""
    if isinstance(holder, Path):
        return function(holder / base, *args)
    return function(base, *args, dir_fd=holder)


def _sync(holder: Holder) -> None:
    """fsync a directory; a file system or platform that cannot is tolerated."""
    with contextlib.suppress(OSError):
        if isinstance(holder, Path):
            sync_path(holder)
        else:
            os.fsync(holder)


def _kind(parent: int, name: str) -> str:
    """What stands at ``name`` in ``parent`` (not following a link), for a message."""
    try:
        mode = os.stat(name, dir_fd=parent, follow_symlinks=False).st_mode
    except OSError:
        return "notDirectory"
    return "symlink" if stat.S_ISLNK(mode) else "notDirectory"


class Tree:
    """A directory opened without following a link; every operation is relative to its descriptor."""

    def __init__(self, directory: Path) -> None:
        self.by_descriptor = supported()
        if self.by_descriptor:
            self.fd = os.open(directory, _DIR_FLAGS)  # raises OSError (ELOOP/ENOTDIR for a link or a file)
        else:  # no dir_fd (Windows): each name checked with lstat on the way, as closely as paths allow
            self.fd = -1
            if os.path.islink(directory) or not os.path.isdir(directory):
                raise OSError(errno.ENOTDIR, "not a directory", str(directory))
        self.root = directory

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def _top(self) -> Holder:
        return self.fd if self.by_descriptor else self.root

    def __enter__(self) -> Tree:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def names(self) -> list[str]:
        """The entries of the directory itself."""
        return os.listdir(self.fd if self.by_descriptor else self.root)

    @contextlib.contextmanager
    def _parents(self, name: str, create: bool = False,
                 created: list[str] | None = None) -> Iterator[list[Holder] | None]:
        """The directories on the way to ``name`` (the tree's first, the holder last), as descriptors (or
        checked paths without dir_fd); ``None`` when one is absent and ``create`` is false. Descriptors are
        closed when the block ends."""
        parts = name.split("/")
        holders = [self._top()]
        try:
            for depth, part in enumerate(parts[:-1]):
                where = "/".join(parts[: depth + 1])
                step("open", where)
                try:
                    inner = self._enter(holders[-1], part, where)
                except FileNotFoundError:
                    if not create:
                        yield None
                        return
                    step("mkdir", where)
                    try:
                        _call(os.mkdir, holders[-1], part, 0o777)
                    except FileExistsError:
                        pass  # made meanwhile: entered below like any other, never followed
                    else:
                        if created is not None:
                            created.append(where)
                    step("open", where)
                    inner = self._enter(holders[-1], part, where)
                holders.append(inner)
            yield holders
        finally:
            for holder in holders[1:]:
                if isinstance(holder, int):
                    os.close(holder)

    @staticmethod
    def _enter(parent: Holder, part: str, where: str) -> Holder:
        if isinstance(parent, Path):
            mode = os.lstat(parent / part).st_mode  # FileNotFoundError: absent
            if not stat.S_ISDIR(mode) or stat.S_ISLNK(mode):
                raise Inside("symlink" if stat.S_ISLNK(mode) else "notDirectory", where)
            return parent / part
        try:
            return os.open(part, _DIR_FLAGS, dir_fd=parent)
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):
                raise Inside(_kind(parent, part), where) from None
            raise

    def status(self, name: str) -> str:
        """``absent`` or ``file`` for ``name``; raises :class:`Inside` for a link or a non-directory on
        the way, or a file that is a link or not regular."""
        with self._parents(name) as fds:
            if fds is None:
                return "absent"
            base = name.rsplit("/", 1)[-1]
            try:
                mode = _call(os.lstat, fds[-1], base).st_mode
            except FileNotFoundError:
                return "absent"
            if stat.S_ISLNK(mode):
                raise Inside("symlink", name)
            if not stat.S_ISREG(mode):
                raise Inside("notRegular", name)
            return "file"

    def digest(self, name: str) -> str | None:
        """The SHA-256 of the regular file ``name`` (``None``: absent); a link is never followed."""
        with self._parents(name) as fds:
            if fds is None:
                return None
            base = name.rsplit("/", 1)[-1]
            step("read", name)
            try:
                if isinstance(fds[-1], Path) and os.path.islink(fds[-1] / base):
                    raise Inside("symlink", name)
                fd = _call(os.open, fds[-1], base, _READ_FLAGS)
            except FileNotFoundError:
                return None
            except OSError as exc:
                if exc.errno == errno.ELOOP:
                    raise Inside("symlink", name) from None
                raise
            try:
                if not stat.S_ISREG(os.fstat(fd).st_mode):
                    raise Inside("notRegular", name)
                os.set_blocking(fd, True)
                digest = hashlib.sha256()
                while chunk := os.read(fd, _BUFFER):
                    digest.update(chunk)
                return digest.hexdigest()
            finally:
                os.close(fd)

    def write(self, name: str, data: bytes, created: list[str] | None = None) -> None:
        """Write ``name`` whole: a temporary sibling, synced, renamed into place, the directory synced;
        directories on the way are made (each one made is appended to ``created``)."""
        with self._parents(name, create=True, created=created) as fds:
            assert fds is not None
            holder = fds[-1]
            base = name.rsplit("/", 1)[-1]
            temporary = f".{base}.tmp-{os.urandom(6).hex()}"
            step("create", name)
            fd = _call(os.open, holder, temporary, _CREATE_FLAGS, 0o666)
            try:
                try:
                    view = memoryview(data)
                    while view:
                        view = view[os.write(fd, view):]
                    os.fsync(fd)
                finally:
                    os.close(fd)
                step("replace", name)
                if isinstance(holder, Path):
                    os.replace(holder / temporary, holder / base)
                else:
                    os.replace(temporary, base, src_dir_fd=holder, dst_dir_fd=holder)
            except BaseException:
                with contextlib.suppress(OSError):
                    _call(os.unlink, holder, temporary)
                raise
            _sync(holder)

    def remove(self, name: str) -> None:
        """Unlink ``name`` and the directories it leaves empty (never the tree's own directory)."""
        with self._parents(name) as fds:
            if fds is None:
                return
            parts = name.split("/")
            step("unlink", name)
            with contextlib.suppress(FileNotFoundError):
                _call(os.unlink, fds[-1], parts[-1])
            _sync(fds[-1])
            for depth in range(len(parts) - 1, 0, -1):
                step("rmdir", "/".join(parts[:depth]))
                try:
                    _call(os.rmdir, fds[depth - 1], parts[depth - 1])
                except OSError:
                    return

    def remove_directory(self, name: str) -> None:
        """Remove the empty directory ``name`` (one this run made); anything else is left."""
        with self._parents(name) as fds:
            if fds is None:
                return
            step("rmdir", name)
            with contextlib.suppress(OSError):
                _call(os.rmdir, fds[-1], name.rsplit("/", 1)[-1])


__all__ = ["Inside", "Tree", "step", "supported"]
