"""A model package: ``model.onnx`` + ``manifest.json``, loaded fail-closed in the engine's order.

:meth:`ModelPackage.load` and :meth:`ModelPackage.load_files` return the package or a
:class:`~contract.core.refusal.Refusal`; bad input never raises. Checks (spec/contract.md §4.1), first
failure wins: model readable → manifest readable (and at most 1 MiB) → manifest check table
(:mod:`contract.model.manifest`) → expected-role gate → streamed SHA-256 digest. The digest is verified
before any graph is opened; loading never opens an ONNX session (:mod:`contract.model.scoring` does, and
runs the tensor contract when it does).

Messages are prefixed with the path they concern, rendered as the engine's ``Path.toString`` renders
the path it was given (:func:`path_text`): redundant and trailing slashes go, ``./`` and ``..`` stay.
So ``validate ./pkg`` names ``./pkg/manifest.json``, not pathlib's ``pkg/manifest.json``.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path
from typing import BinaryIO, Final

from contract.core.arguments import not_a_path, not_a_string
from contract.core.errors import ContractError
from contract.core.oserrors import os_error_reason
from contract.core.record import Record, attribute
from contract.core.refusal import Refusal, refusal
from contract.core.regularfile import open_regular
from contract.core.strictjson import MAX_BYTES
from contract.model.manifest import Manifest, read_manifest

MODEL_FILE_NAME: Final = "model.onnx"
MANIFEST_FILE_NAME: Final = "manifest.json"
# protobuf cannot parse a message of 2 GiB or more, so no ONNX Runtime loads a self-contained graph that
# large (a larger model keeps its weights as external data, which the kit refuses): refused unread.
MAX_MODEL_BYTES: Final = 2**31 - 1

PathLike = str | os.PathLike[str]


def path_text(path: PathLike) -> str:
    """A path as the JVM's ``Path.toString`` renders it: slashes collapsed, no trailing slash."""
    text = re.sub("/+", "/", os.fspath(path))
    return text[:-1] if len(text) > 1 and text.endswith("/") else text


def _resolve_text(directory: str, name: str) -> str:
    """``Path.resolve(name)`` on the JVM, as text: the empty path resolves to ``name`` itself."""
    if directory == "":
        return name
    return f"{directory}{name}" if directory.endswith("/") else f"{directory}/{name}"


def _readable_file(path: Path) -> bool:
    try:
        return path.is_file() and os.access(path, os.R_OK)
    except OSError:
        return False


def _real(path: Path) -> str:
    return os.path.realpath(path)


def _inside(path: Path, root: Path | None) -> bool:
    """Whether ``path`` resolves (links followed) to a name strictly inside the directory ``root``.

    ``None`` means no package directory (``load_files``): any path is the caller's choice.
    """
    if root is None:
        return True
    try:
        real, base = _real(path), _real(root)
    except (OSError, ValueError):
        return False
    return real != base and os.path.commonpath([real, base]) == base


def _still_inside(handle: BinaryIO, path: Path, root: Path | None) -> bool:
    """The opened file is the file ``path`` resolves to inside ``root`` (no link swapped in meanwhile)."""
    if root is None:
        return True
    if not _inside(path, root):
        return False
    opened = os.fstat(handle.fileno())
    try:
        named = os.stat(_real(path))
    except OSError:
        return False
    return (opened.st_dev, opened.st_ino) == (named.st_dev, named.st_ino)


def outside_refusal(text: str) -> Refusal:
    """Names the link, says nothing of where it points (not even whether that exists)."""
    return refusal("package.file.outside").prefixed(text)


class _Outside(Exception):
    """A file that was inside at the check and is a link to elsewhere when opened."""


def _read(path: Path, root: Path | None, limit: int) -> bytes:
    """The bytes of a regular file inside ``root``, read through one descriptor (raises OSError, _Outside)."""
    with open_regular(path) as handle:
        if not _still_inside(handle, path, root):
            raise _Outside
        return handle.read(limit)


class ModelTooLarge(ContractError):
    """A model file above :data:`MAX_MODEL_BYTES` (``size``: what it holds), refused unread; its text is
    the refusal's message, as every kit exception's is."""

    def __init__(self, size: int) -> None:
        self.size = size
        super().__init__(self.refusal().message)

    def refusal(self) -> Refusal:
        return refusal("package.model.tooLarge", size=self.size, limit=MAX_MODEL_BYTES)


def read_model(path: Path, root: Path | None = None) -> bytes:
    """The graph's bytes, through one descriptor, refused before reading when it is larger than
    :data:`MAX_MODEL_BYTES` (raises OSError, _Outside, ModelTooLarge). Read into one buffer of the file's
    size: the bytes digested are the bytes a session is built from, held once."""
    with open_regular(path) as handle:
        if not _still_inside(handle, path, root):
            raise _Outside
        size = os.fstat(handle.fileno()).st_size
        if size > MAX_MODEL_BYTES:
            raise ModelTooLarge(size)
        data = handle.read(size + 1)
        if len(data) > size:  # grown since: whatever it is now, it is read only up to the limit
            data += handle.read(MAX_MODEL_BYTES + 1 - len(data))
            if len(data) > MAX_MODEL_BYTES:
                raise ModelTooLarge(len(data))
        return data


class ModelPackage(Record):
    """A package whose manifest passed every check and whose model matches its digest.

    ``model_bytes`` are the bytes that were digested; a session is built from them, never by reopening
    ``model_path`` (a file replaced after the check is not what the digest vouched for).
    """

    model_path: Path
    manifest_path: Path
    manifest: Manifest
    engine_version: str
    # The paths as the caller wrote them, rendered as the engine renders them (message prefixes).
    model_text: str = attribute(default="", compare=False)
    manifest_text: str = attribute(default="", compare=False)
    model_bytes: bytes = attribute(default=b"", compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.model_text:
            object.__setattr__(self, "model_text", path_text(self.model_path))
        if not self.manifest_text:
            object.__setattr__(self, "manifest_text", path_text(self.manifest_path))

    @property
    def ok(self) -> bool:
        return True

    @classmethod
    def load(
        cls, directory: PathLike, engine_version: str, expected_role: str | None = None
    ) -> ModelPackage | Refusal:
        """Load ``directory/model.onnx`` described by ``directory/manifest.json``.

        A package is a directory: a name that resolves outside it (a symbolic link to elsewhere) is
        refused, named, with nothing disclosed about what it points to.
        """
        wrong = not_a_path("directory", directory) or not_a_string("expected_role", expected_role, optional=True)
        if wrong is not None:
            return wrong
        base = path_text(directory)
        return cls._load(_resolve_text(base, MODEL_FILE_NAME), _resolve_text(base, MANIFEST_FILE_NAME),
                         engine_version, expected_role, Path(directory))

    @classmethod
    def load_files(
        cls,
        model: PathLike,
        manifest: PathLike,
        engine_version: str,
        expected_role: str | None = None,
    ) -> ModelPackage | Refusal:
        """Load a model and a manifest from two arbitrary paths.

        There is no package directory here: the caller named both files, links are followed as for any
        path the caller gives. Read-once and self-containment of the graph hold as for :meth:`load`.
        """
        wrong = (not_a_path("model", model) or not_a_path("manifest", manifest)
                 or not_a_string("expected_role", expected_role, optional=True))
        if wrong is not None:
            return wrong
        return cls._load(model, manifest, engine_version, expected_role, None)

    @classmethod
    def _load(
        cls,
        model: PathLike,
        manifest: PathLike,
        engine_version: str,
        expected_role: str | None,
        root: Path | None,
    ) -> ModelPackage | Refusal:
        model_path, manifest_path = Path(model), Path(manifest)
        model_text, manifest_text = path_text(model), path_text(manifest)
        if not _inside(model_path, root):
            return outside_refusal(model_text)
        if not _readable_file(model_path):
            return refusal("package.model.unreadable").prefixed(model_text)
        if not _inside(manifest_path, root):
            return outside_refusal(manifest_text)
        if not _readable_file(manifest_path):
            return refusal("package.manifest.unreadable").prefixed(manifest_text)
        try:
            data = _read(manifest_path, root, MAX_BYTES + 1)
        except _Outside:
            return outside_refusal(manifest_text)
        except OSError as exc:
            return refusal("package.manifest.readError", reason=os_error_reason(exc)).prefixed(manifest_text)
        if len(data) > MAX_BYTES:
            return refusal("package.manifest.tooLarge", limit=MAX_BYTES).prefixed(manifest_text)

        result = read_manifest(data, engine_version, expected_role)
        if result.refusal is not None:
            return result.refusal.prefixed(manifest_text)
        assert result.manifest is not None

        try:
            graph = read_model(model_path, root)
        except _Outside:
            return outside_refusal(model_text)
        except ModelTooLarge as exc:
            return exc.refusal().prefixed(model_text)
        except OSError as exc:
            reason = os_error_reason(exc)
            return refusal("package.model.digestError", path=model_text, reason=reason).prefixed(model_text)
        actual = hashlib.sha256(graph).hexdigest()
        declared = result.manifest.model_sha256
        if declared.lower() != actual:
            return refusal("package.model.sha256Mismatch", declared=declared, actual=actual).prefixed(model_text)
        return cls(model_path, manifest_path, result.manifest, engine_version, model_text, manifest_text, graph)
