"""The golden corpus as files: find the checkout, run its generators in memory, compare with disk, write.

A checkout root holds ``golden/`` and ``generators/``; :func:`find_root` refuses any other directory
with a :class:`CorpusError` naming it. :func:`generate_all` imports every module listed in that root's
``generators.GENERATORS`` (the root goes first on ``sys.path``) and collects the exact bytes each
promises; a generator that fails, or two generators claiming one path, or a path leaving the root,
is a :class:`CorpusError` naming the generator - nothing is written by this module except through
:func:`write_files`, which writes each changed file to a temporary sibling and renames it.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from contract.core import progress
from contract.core.errors import CorpusError
from contract.core.oserrors import os_error_text
from contract.core.stagedfile import write_atomic

GENERATED_DIRS = ("golden/vectors", "golden/fixtures", "golden/example-package")
DRIFT_LOG = "golden/drift-log.json"
FILE_LIMIT = 64 * 1024 * 1024  # bytes of one committed corpus file read (the largest is about 1 MB)


def read_file(path: Path, shown: str | None = None) -> bytes:
    """A committed corpus file's bytes: a regular file (a FIFO is refused, never waited on) of at most
    :data:`FILE_LIMIT` bytes (raises OSError, or :class:`CorpusError` naming ``shown`` beyond the limit)."""
    from contract.core.cappedread import read_capped

    data = read_capped(path, FILE_LIMIT)
    if data is None:
        raise CorpusError(f"{shown or path}: larger than {FILE_LIMIT} bytes (a corpus file is read whole)")
    return data


def is_root(path: Path) -> bool:
    return (path / "golden").is_dir() and (path / "generators").is_dir()


def find_root(root: str | None) -> Path:
    """The checkout to work on: ``root`` if given, else the current directory."""
    candidate = Path(root) if root is not None else Path.cwd()
    if not candidate.is_dir():
        raise CorpusError(f"{candidate}: no such directory")
    if not is_root(candidate):
        where = "the current directory " if root is None else ""
        raise CorpusError(
            f"{where}{candidate.resolve()} is not a dicechess-contract checkout: it has no golden/ and "
            "generators/ directories (run from the repository root or pass --root DIR)"
        )
    return candidate.resolve()


def _purge_foreign_generators(root: Path) -> None:
    """Forget ``generators`` modules imported from another checkout, so this root's are used."""
    package = sys.modules.get("generators")
    origin = getattr(package, "__file__", None)
    if package is not None and (origin is None or Path(origin).resolve().parent.parent != root):
        for name in [n for n in sys.modules if n == "generators" or n.startswith("generators.")]:
            del sys.modules[name]


def generator_names(root: Path) -> tuple[str, ...]:
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    _purge_foreign_generators(root)
    try:
        package = importlib.import_module("generators")
    except Exception as exc:
        raise CorpusError(f"{root}/generators: cannot import: {type(exc).__name__}: {exc}") from None
    names = getattr(package, "GENERATORS", None)
    if not isinstance(names, tuple) or not all(isinstance(n, str) for n in names):
        raise CorpusError(f"{root}/generators/__init__.py: GENERATORS must be a tuple of module names")
    return names


def _checked_path(generator: str, path: object) -> str:
    if not isinstance(path, str):
        raise CorpusError(f"{generator}: path {path!r} is not a string")
    pure = PurePosixPath(path)
    if pure.is_absolute() or ".." in pure.parts or not pure.parts:
        raise CorpusError(f"{generator}: path {path!r} is not inside the repository")
    return path


def generate_all(root: Path) -> dict[str, bytes]:
    """Every generated file, path relative to ``root`` -> bytes, in generator order."""
    files: dict[str, bytes] = {}
    owner: dict[str, str] = {}
    for name in generator_names(root):
        progress.note(f"generating: {name}")
        try:
            module = importlib.import_module(name)
            produced = module.generate()
        except CorpusError:
            raise
        except Exception as exc:
            why = os_error_text(exc) if isinstance(exc, OSError) else f"{type(exc).__name__}: {exc}"
            raise CorpusError(f"generator {name} failed: {why}") from None
        if not isinstance(produced, Mapping):
            raise CorpusError(f"generator {name}: generate() must return a mapping of path -> bytes")
        for raw_path, data in produced.items():
            path = _checked_path(name, raw_path)
            if not isinstance(data, bytes):
                raise CorpusError(f"generator {name}: {path} is not bytes")
            if path in owner:
                raise CorpusError(f"generators {owner[path]} and {name} both write {path}")
            owner[path] = name
            files[path] = data
    return files


def read_committed(root: Path, paths: list[str]) -> dict[str, bytes | None]:
    """The bytes on disk for each path (``None`` when absent)."""
    result: dict[str, bytes | None] = {}
    for path in paths:
        target = root / path
        result[path] = read_file(target, path) if target.is_file() else None
    return result


def stale_files(root: Path, generated: Mapping[str, bytes]) -> list[str]:
    """Files in the generated directories that no generator produces any more."""
    stale = []
    for directory in GENERATED_DIRS:
        base = root / directory
        if not base.is_dir():
            continue
        for path in sorted(base.rglob("*")):
            relative = path.relative_to(root).as_posix()
            if path.is_file() and not path.name.startswith(".") and relative not in generated:
                stale.append(relative)
    return stale


@dataclass(frozen=True)
class WriteSummary:
    written: tuple[str, ...]
    unchanged: tuple[str, ...]


def write_files(root: Path, files: Mapping[str, bytes]) -> WriteSummary:
    """Write each file whose bytes differ, atomically; leave identical files untouched."""
    written: list[str] = []
    unchanged: list[str] = []
    for path, data in files.items():
        target = root / path
        if target.is_file() and read_file(target, path) == data:
            unchanged.append(path)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(target, data)
        written.append(path)
    return WriteSummary(tuple(written), tuple(unchanged))
