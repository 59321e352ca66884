"""A model package: ``model.onnx`` + ``manifest.json``, loaded fail-closed in the engine's order.

:meth:`ModelPackage.load` and :meth:`ModelPackage.load_files` return the package or a
:class:`~contract.refusal.Refusal`; bad input never raises. Checks (spec/contract.md §4.1), first
failure wins: model readable → manifest readable (and at most 1 MiB) → manifest check table
(:mod:`contract.manifest`) → expected-role gate → streamed SHA-256 digest. The digest is verified
before any graph is opened; loading never opens an ONNX session (:mod:`contract.scoring` does, and
runs the tensor contract when it does).

Messages are prefixed with the path they concern, rendered as given (``str(path)``), as the engine
renders ``Path.toString``.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from contract.manifest import Manifest, read_manifest
from contract.refusal import Refusal
from contract.strictjson import MAX_BYTES

MODEL_FILE_NAME: Final = "model.onnx"
MANIFEST_FILE_NAME: Final = "manifest.json"
DIGEST_BUFFER: Final = 64 * 1024

PathLike = str | os.PathLike[str]


def _readable_file(path: Path) -> bool:
    try:
        return path.is_file() and os.access(path, os.R_OK)
    except OSError:
        return False


def _io_message(exc: OSError) -> str:
    return exc.strerror or exc.__class__.__name__


def sha256_file(path: Path) -> str:
    """Lowercase hex SHA-256 of a file, streamed in 64 KiB buffers (raises OSError)."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(DIGEST_BUFFER):
            digest.update(chunk)
    return digest.hexdigest()


@dataclass(frozen=True)
class ModelPackage:
    """A package whose manifest passed every check and whose model matches its digest."""

    model_path: Path
    manifest_path: Path
    manifest: Manifest
    engine_version: str

    @property
    def ok(self) -> bool:
        return True

    @classmethod
    def load(
        cls, directory: PathLike, engine_version: str, expected_role: str | None = None
    ) -> ModelPackage | Refusal:
        """Load ``directory/model.onnx`` described by ``directory/manifest.json``."""
        base = Path(directory)
        return cls.load_files(base / MODEL_FILE_NAME, base / MANIFEST_FILE_NAME, engine_version, expected_role)

    @classmethod
    def load_files(
        cls,
        model: PathLike,
        manifest: PathLike,
        engine_version: str,
        expected_role: str | None = None,
    ) -> ModelPackage | Refusal:
        """Load a model and a manifest from two arbitrary paths."""
        model_path, manifest_path = Path(model), Path(manifest)
        if not _readable_file(model_path):
            return Refusal(f"{model_path}: model file not readable")
        if not _readable_file(manifest_path):
            return Refusal(f"{manifest_path}: manifest file not readable")
        try:
            with open(manifest_path, "rb") as handle:
                data = handle.read(MAX_BYTES + 1)
        except OSError as exc:
            return Refusal(f"{manifest_path}: cannot be read: {_io_message(exc)}")
        if len(data) > MAX_BYTES:
            return Refusal(f"{manifest_path}: manifest file is larger than {MAX_BYTES} bytes")

        result = read_manifest(data, engine_version, expected_role)
        if result.refusal is not None:
            return result.refusal.prefixed(str(manifest_path))
        assert result.manifest is not None

        try:
            actual = sha256_file(model_path)
        except OSError as exc:
            return Refusal(f"{model_path}: cannot digest {model_path}: {_io_message(exc)}")
        declared = result.manifest.model_sha256
        if declared.lower() != actual:
            return Refusal(f"{model_path}: model SHA-256 mismatch: manifest {declared}, file {actual}")
        return cls(model_path, manifest_path, result.manifest, engine_version)
