"""``pairjudge.json`` format version 1: the reference's ``read_manifest`` layer as one ordered table.

:data:`MANIFEST_CHECKS` runs in the reference's order (R1-R11 of the spec) with its messages (the
``manifest`` family of ``schema/pairjudge-check-table.json``; the tests are bound here by code), and
the first failure wins: present, at most 1 MiB, JSON, the required keys, ``format_version``,
``artifact_type``, ``label_order``, the packer, the training receipt, safetensors listed, then per
``files`` entry a safe path and an exact lowercase sha256 (interleaved per entry, as upstream). The
file digests are the last and heaviest step; nothing reads model files before them.

The reference is lenient in places (``format_version: true`` passes, missing packer fields take
defaults, keys it does not read are unchecked). The kit keeps its verdict there and adds warnings:
the explicit ones below, and one per violation of ``schema/pairjudge-1.schema.json``, which
describes the document as pairjudge 0.3.0 writes it.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path, PurePosixPath
from typing import Any

from jsonschema import Draft202012Validator

from contract.core import resources
from contract.core.checktable import PAIRJUDGE_TABLE as TABLE
from contract.core.checktable import PASS, Entry, Fields
from contract.core.oserrors import os_error_reason
from contract.core.regularfile import open_regular
from contract.pairjudge import packer, referencejson
from contract.pairjudge.packer import PackerSubject, json_kind

MANIFEST_NAME = "pairjudge.json"
MAX_MANIFEST_BYTES = 1024 * 1024
FORMAT_VERSION = 1
ARTIFACT_TYPES = ("full", "adapter")
LABELS = ("a_wins", "b_wins", "tie")
REQUIRED_KEYS = ("label_order", "packer", "tokenizer", "training", "files")
SCHEMA_FILE = "pairjudge-1.schema.json"
MAX_SCHEMA_WARNINGS = 20
# pairjudge 0.3.0 writes pairjudge.json 5 levels deep. A deeper document is compared with the writer's
# schema only up to this depth: beyond it, whether jsonschema (and the repr in its messages) runs out of
# Python's stack depends on the interpreter (3.11 and 3.13 differ), so the warning would too.
MAX_SCHEMA_DEPTH = 64
# A bound on the time the digests take: each distinct file (device and inode) is hashed once,
# and all of them together at most this many bytes (about 3 minutes at 1.6 GiB/s).
MAX_HASHED_BYTES = 256 * 1024**3
_CHUNK = 1024 * 1024


@dataclass
class ManifestSubject:
    """One bundle directory as the manifest layer sees it; checks fill in what they read."""

    bundle: Path
    warnings: list[str] = field(default_factory=list)
    raw: bytes = b""  # the file's first MAX_MANIFEST_BYTES + 1 bytes
    read: bool = False  # raw holds what the file held when it was read
    document: Any = None
    _packer: PackerSubject | None = None
    digests: dict[tuple[int, int], str | None] = field(default_factory=dict)  # (device, inode) -> sha256
    hashed_bytes: int = 0

    @property
    def path(self) -> Path:
        return self.bundle / MANIFEST_NAME

    @property
    def packer(self) -> PackerSubject:
        if self._packer is None:
            self._packer = PackerSubject(self.document.get("packer"), self.warnings)
        return self._packer

    def label_order(self) -> list[Any]:
        """The stored order as the reference iterates it (an object yields its keys)."""
        return list(self.document["label_order"])


@dataclass(frozen=True)
class FileEntry:
    """One ``files`` entry with the manifest it belongs to."""

    subject: ManifestSubject
    key: str
    digest: Any

    @property
    def path(self) -> Path:
        return self.subject.bundle / self.key


def label_order_problem(order: Any) -> bool:
    """True when ``order`` is not what the reference accepts as a label order.

    The reference requires: not a string, length 3, and as a set equal to the three labels, so a
    JSON object with those three keys passes too (its keys are then the order).
    """
    if isinstance(order, str) or not isinstance(order, list | dict):
        return True
    items = list(order)
    if len(items) != 3 or not all(isinstance(item, str) for item in items):
        return True
    return set(items) != set(LABELS)


def unsafe_path(key: str) -> bool:
    """Absolute, with a ``..`` component, or containing ``:`` or ``\\`` (the reference's rule)."""
    path = PurePosixPath(key)
    return path.is_absolute() or ".." in path.parts or ":" in key or "\\" in key


def _file_identity(path: Path) -> tuple[tuple[int, int], int] | None:
    """((device, inode), size) of the regular file ``path`` names (symlinks followed), or None."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):  # ValueError: a NUL byte in the name
        return None
    return ((info.st_dev, info.st_ino), info.st_size) if stat.S_ISREG(info.st_mode) else None


def file_sha256(path: Path) -> str | None:
    """Lowercase hex sha256 of a regular file (symlinks followed), or None if there is none."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):  # before open: a FIFO would block
            return None
        with open(path, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                return None
            digest = hashlib.sha256()
            while chunk := handle.read(_CHUNK):
                digest.update(chunk)
    except (OSError, ValueError):  # ValueError: a NUL byte in the name
        return None
    return digest.hexdigest()


def leaves_bundle(bundle: Path, path: Path) -> bool:
    """True when ``path`` (inside ``bundle`` by name) resolves to a place outside ``bundle``."""
    try:
        inside = os.path.realpath(bundle)
        return os.path.commonpath([inside, os.path.realpath(path)]) != inside
    except (OSError, ValueError):
        return False


# -- the checks, in the reference's order ---------------------------------------------------------


def _bundle_directory(s: ManifestSubject) -> Fields | None:
    return PASS if os.path.isdir(s.bundle) else {"bundle": str(s.bundle)}


def _present(s: ManifestSubject) -> Fields | None:
    return PASS if os.path.exists(s.path) else {}


def _regular(s: ManifestSubject) -> Fields | None:
    return PASS if os.path.isfile(s.path) else {}


def _read_capped(path: Path) -> bytes:
    """At most one byte more than :data:`MAX_MANIFEST_BYTES` (raises OSError): the bytes the size check judges
    are the bytes parsed, even for a file that grows between a ``stat`` and a read."""
    with open_regular(path) as stream:
        return stream.read(MAX_MANIFEST_BYTES + 1)


def _size(s: ManifestSubject) -> Fields | None:
    try:
        s.raw, s.read = _read_capped(s.path), True
    except OSError:
        return PASS  # reported by the read that follows
    return PASS if len(s.raw) <= MAX_MANIFEST_BYTES else {}


def _readable(s: ManifestSubject) -> Fields | None:
    if s.read:  # by the size check
        return PASS
    try:
        s.raw, s.read = _read_capped(s.path), True
    except OSError as exc:
        return {"problem": os_error_reason(exc)}
    return PASS


def _json(s: ManifestSubject) -> Fields | None:
    parsed = referencejson.load(s.raw, MANIFEST_NAME)
    if isinstance(parsed, referencejson.JsonProblem):
        return {"problem": parsed.problem}
    s.document = parsed.value
    s.warnings.extend(parsed.warnings)
    return PASS


def _required(s: ManifestSubject) -> Fields | None:
    ok = isinstance(s.document, dict) and all(key in s.document for key in REQUIRED_KEYS)
    return PASS if ok else {}


def _format_version(s: ManifestSubject) -> Fields | None:
    value = s.document.get("format_version")
    if isinstance(value, bool | int | float) and value == FORMAT_VERSION:
        if type(value) is not int:
            s.warnings.append(TABLE.text("warning.format_version.notInteger", value=json.dumps(value)))
        return PASS
    return {}


def _artifact_type(s: ManifestSubject) -> Fields | None:
    return PASS if s.document.get("artifact_type") in ARTIFACT_TYPES else {}


def _label_order(s: ManifestSubject) -> Fields | None:
    order = s.document["label_order"]
    if label_order_problem(order):
        return {}
    if isinstance(order, dict):
        s.warnings.append(TABLE.text("warning.label_order.object"))
    return PASS


def _training_object(s: ManifestSubject) -> Fields | None:
    training = s.document["training"]
    return PASS if isinstance(training, dict) else {"kind": json_kind(training)}


def _steps_number(s: ManifestSubject) -> Fields | None:
    steps = s.document["training"].get("optimizer_steps", 0)
    if isinstance(steps, bool | int | float):
        if type(steps) is not int:
            s.warnings.append(TABLE.text("warning.optimizer_steps.notInteger", value=json.dumps(steps)))
        return PASS
    return {"kind": json_kind(steps)}


def _trained_head(s: ManifestSubject) -> Fields | None:
    training = s.document["training"]
    steps = training.get("optimizer_steps", 0)
    # the reference tests ``steps <= 0``, so NaN passes (observed)
    return PASS if not steps <= 0 and training.get("head_changed") is True else {}


def _files_object(s: ManifestSubject) -> Fields | None:
    files = s.document["files"]
    return PASS if isinstance(files, dict) or not files else {"kind": json_kind(files)}


def _safetensors_listed(s: ManifestSubject) -> Fields | None:
    files = s.document["files"]
    ok = bool(files) and any(key.endswith(".safetensors") for key in files)
    return PASS if ok else {}


def _file_entries(s: ManifestSubject) -> Iterator[FileEntry]:
    for key, digest in s.document["files"].items():
        yield FileEntry(s, key, digest)


def _safe_path(entry: FileEntry) -> Fields | None:
    return {} if unsafe_path(entry.key) else PASS


def _hash_budget(entry: FileEntry) -> Fields | None:
    """A file not hashed yet must fit in what is left of :data:`MAX_HASHED_BYTES`."""
    found = _file_identity(entry.path)
    if found is None or found[0] in entry.subject.digests:
        return PASS
    if entry.subject.hashed_bytes + found[1] <= MAX_HASHED_BYTES:
        return PASS
    return {"key": entry.key, "limit": MAX_HASHED_BYTES}


def _entry_digest(entry: FileEntry) -> str | None:
    """The entry's file digest, hashing each distinct file (device and inode) once."""
    found = _file_identity(entry.path)
    if found is None:
        return None
    identity, size = found
    if identity not in entry.subject.digests:
        entry.subject.hashed_bytes += size
        entry.subject.digests[identity] = file_sha256(entry.path)
    return entry.subject.digests[identity]


def _digest(entry: FileEntry) -> Fields | None:
    actual = _entry_digest(entry)
    if actual is None or actual != entry.digest:
        return {"key": entry.key}
    if os.path.islink(entry.path) or leaves_bundle(entry.subject.bundle, entry.path):
        code = "warning.files.outside" if leaves_bundle(entry.subject.bundle, entry.path) else "warning.files.symlink"
        entry.subject.warnings.append(TABLE.text(code, key=repr(entry.key)))
    return PASS


TESTS: dict[str, packer.Test] = {
    "bundle.directory": _bundle_directory,
    "manifest.present": _present,
    "manifest.regular_file": _regular,
    "manifest.size": _size,
    "manifest.readable": _readable,
    "manifest.json": _json,
    "manifest.required": _required,
    "manifest.format_version": _format_version,
    "manifest.artifact_type": _artifact_type,
    "manifest.label_order": _label_order,
    "training.object": _training_object,
    "training.optimizer_steps": _steps_number,
    "training.head": _trained_head,
    "files.object": _files_object,
    "files.safetensors": _safetensors_listed,
    "files.path": _safe_path,
    "files.budget": _hash_budget,
    "files.digest": _digest,
}
"""The test of each check of the ``manifest`` family, by code; order and messages are the table's."""

MANIFEST_CHECKS: tuple[Entry[ManifestSubject], ...] = TABLE.checks(
    "manifest", {**TESTS, **packer.TESTS}, {"packer": lambda s: s.packer, "file": _file_entries}
)


# -- the writer's schema, as warnings -------------------------------------------------------------


@cache
def schema_validator() -> Draft202012Validator:
    """The validator for ``schema/pairjudge-1.schema.json``, built once."""
    schema = json.loads((resources.schema_dir() / SCHEMA_FILE).read_text(encoding="utf-8"))
    return Draft202012Validator(schema)


def _shorten(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _deeper_than(document: Any, limit: int) -> bool:
    """Whether ``document`` has arrays or objects nested more than ``limit`` levels (no recursion)."""
    stack: list[tuple[Any, int]] = [(document, 0)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict | list):
            if depth >= limit:
                return True
            children = value.values() if isinstance(value, dict) else value
            stack.extend((child, depth + 1) for child in children)
    return False


def schema_warnings(document: Any) -> list[str]:
    """One warning per way ``document`` differs from what pairjudge 0.3.0 writes (capped)."""
    if _deeper_than(document, MAX_SCHEMA_DEPTH):
        return [TABLE.text("warning.schema.tooDeep")]
    try:
        errors = sorted(
            schema_validator().iter_errors(document), key=lambda e: [str(p) for p in e.absolute_path]
        )
    except RecursionError:
        return [TABLE.text("warning.schema.tooDeep")]
    out = []
    for error in errors[:MAX_SCHEMA_WARNINGS]:
        where = "/" + "/".join(str(p) for p in error.absolute_path)
        out.append(_shorten(TABLE.text("warning.schema.difference", where=where, problem=error.message)))
    if len(errors) > MAX_SCHEMA_WARNINGS:
        out.append(TABLE.text("warning.schema.more", count=len(errors) - MAX_SCHEMA_WARNINGS))
    return out
