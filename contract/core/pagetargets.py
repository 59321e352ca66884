"""Where a page writer may put its page: checked before any work, the same rules as ``extract``'s targets.

The kit's page writers (``conformance run --html FILE``, ``golden report --output DIR`` → ``DIR/index.html``)
publish a page by renaming a complete temporary sibling onto its name
(:func:`contract.core.stagedfile.write_atomic`). :func:`check_page_target` refuses, naming the path:

* a target that exists and is not a regular file (a directory, a FIFO, a device such as ``/dev/null``,
  a socket) or is a symbolic link: the rename would replace the node, or the link, instead of writing
  through it;
* a target inside a directory the run reads (``golden/``, ``schema/``, …, after resolving links): a
  page there is refused the first time as the second, not only once it exists;
* a target that is the same file as one of the run's inputs (the known-divergences file, a corpus
  file, an adapter's script): the page would destroy it. "Same" is decided by identity
  (``st_dev``/``st_ino``, so a hard link is caught) and by resolved name (a symbolic link on the way);
* a target whose directory does not exist (unless the writer creates it, ``parent_may_be_missing``).

The kinds of file are named by one table, :func:`kind`, which ``extract``'s target checks
(:mod:`contract.enrichment.targets`) use too, so every writer says the same words.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path

from contract.core.errors import ContractError
from contract.core.oserrors import os_error_reason

Identity = tuple[int, int]
MAX_INPUT_FILES = 100_000  # a walk of the inputs stops here: a page target is never checked without bound

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class PageTargetError(ContractError, ValueError):
    """The page cannot be written there; the message names the path and why."""


def kind(mode: int) -> str:
    """What a file of this mode is, in words (``a character device``)."""
    for test, words in _KINDS:
        if test(mode):
            return words
    return "not a regular file"


def files_under(*directories: Path) -> Iterator[Path]:
    """Every regular file under the given directories (links not followed), at most
    :data:`MAX_INPUT_FILES` of them."""
    count = 0
    for directory in directories:
        for top, _, names in os.walk(directory):
            for name in names:
                count += 1
                if count > MAX_INPUT_FILES:
                    return
                yield Path(top) / name


def _identity(path: Path) -> Identity | None:
    try:
        info = path.stat()
    except OSError:
        return None
    return (info.st_dev, info.st_ino)


def check_page_target(path: Path, role: str, inputs: Iterable[tuple[str, Path]] = (), *,
                      read_directories: Iterable[tuple[str, Path]] = (), parent_may_be_missing: bool = False) -> None:
    """Refuse (:class:`PageTargetError`) a page target that is a link, exists and is not a regular file,
    lies inside one of ``read_directories`` or is the same file as one of ``inputs`` ((role, path)
    pairs), or sits in a missing directory."""
    if path.is_symlink():
        raise PageTargetError(f"{path}: is a symbolic link; give the {role} as the path it points to")
    try:
        info: os.stat_result | None = path.stat()
    except (FileNotFoundError, NotADirectoryError):
        info = None
    except OSError as exc:
        raise PageTargetError(f"{path}: cannot be checked ({os_error_reason(exc)})") from None
    if info is None:
        if not parent_may_be_missing and not path.parent.is_dir():
            raise PageTargetError(f"{path}: is in a directory that does not exist")
    elif not stat.S_ISREG(info.st_mode):
        raise PageTargetError(f"{path}: is {kind(info.st_mode)}; the {role} must be a regular file or absent"
                              " (it is published by renaming a new file onto that name)")
    identity = None if info is None else (info.st_dev, info.st_ino)
    name = os.path.realpath(path)
    for directory_role, directory in read_directories:
        if name.startswith(os.path.realpath(directory) + os.sep):
            raise PageTargetError(f"{path}: is inside the {directory_role} ({directory}), which the run reads;"
                                  f" write the {role} elsewhere")
    for input_role, source in inputs:
        if os.path.realpath(source) == name or (identity is not None and _identity(source) == identity):
            raise PageTargetError(f"{path}: is the same file as the {input_role} ({source}), which the run"
                                  " reads; the page would destroy it")
