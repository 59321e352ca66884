"""Gzip-compressed JSON Lines (the recordings under ``golden/recorded/engine-live/``): read with a cap on the
uncompressed size, each line one strict JSON object."""

from __future__ import annotations

import gzip
import zlib
from pathlib import Path
from typing import Any

from contract.core.strictjson import StrictJsonError
from contract.core.strictjson import parse as parse_json


def read_capped(path: Path, name: str, max_bytes: int, error: type[Exception]) -> bytes:
    """The uncompressed bytes of ``path``; ``error`` (its message starting with ``name``) when the file is
    missing, is not gzip, or holds more than ``max_bytes`` bytes (no more than that is ever decompressed)."""
    try:
        with gzip.open(path, "rb") as stream:
            data = stream.read(max_bytes + 1)
    except FileNotFoundError:
        raise error(f"{name}: missing") from None
    except (OSError, EOFError, zlib.error) as exc:
        raise error(f"{name}: cannot be read as gzip: {exc}") from None
    if len(data) > max_bytes:
        raise error(f"{name}: larger than {max_bytes} bytes uncompressed")
    return data


def parse_object(line: bytes, where: str, max_bytes: int, error: type[Exception]) -> dict[str, Any]:
    """One line as a strict JSON object; ``error`` (its message starting with ``where``) otherwise."""
    try:
        doc = parse_json(line, max_bytes=max_bytes)
    except StrictJsonError as exc:
        raise error(f"{where}: {exc}") from None
    if not isinstance(doc, dict):
        raise error(f"{where}: not a JSON object")
    return doc
