"""Which implementation computes feature vectors: the native accelerator or the Python reference.

The accelerator is the optional distribution ``dicechess-contract-native`` (``native/`` in this
repository; module :mod:`dicechess_native`). The pure-Python path in :mod:`contract.features` is the
reference the contract is specified in; the accelerator computes the same float32 values (the tests
hold them bit-identical) and is used when it is importable. ``DICECHESS_BACKEND`` chooses:

* unset or empty: ``native`` when the accelerator is importable and agrees with the registry, else
  ``python``;
* ``python``: the Python reference, even when the accelerator is installed;
* ``native``: the accelerator, and a :class:`BackendError` (one line) when it cannot be used.

The choice is read once per process (:func:`active`); :func:`reset` re-reads it (for tests).

>>> from contract.features import backend
>>> backend.active().name in ("native", "python")
True
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import cast

import numpy as np

from contract.core import registry
from contract.core.errors import ContractError

ENV = "DICECHESS_BACKEND"
MODULE = "dicechess_native"
CHOICES = ("native", "python")


class BackendError(ContractError, RuntimeError):
    """``DICECHESS_BACKEND`` names a backend that cannot be used (one line, for a CLI to print)."""


@dataclass(frozen=True)
class Backend:
    """The backend in use: ``name`` is ``native`` or ``python``; ``note`` says why, for reports."""

    name: str
    note: str
    module: ModuleType | None = None
    codes: tuple[tuple[str, int], ...] = ()

    def code(self, schema_id: str) -> int | None:
        """The accelerator's number for ``schema_id``, or ``None`` on the Python backend."""
        for known, code in self.codes:
            if known == schema_id:
                return code
        return None

    def describe(self) -> str:
        """``native (dicechess_native 0.1.0)`` or ``python (…why…)``."""
        return f"{self.name} ({self.note})"


def _load() -> tuple[ModuleType | None, tuple[tuple[str, int], ...], str]:
    """The accelerator, its schema codes bound through the registry, and a note (why not, when not)."""
    try:
        module = importlib.import_module(MODULE)
    except ImportError as exc:
        return None, (), f"accelerator not importable: {exc}"
    extractors = list(getattr(module, "EXTRACTORS", ()))
    widths = list(getattr(module, "WIDTHS", ()))
    codes = []
    for entry in registry.feature_schemas().values():
        if entry.engine_extractor not in extractors:
            return None, (), f"{MODULE} has no extractor {entry.engine_extractor!r} (rebuild native/)"
        code = extractors.index(entry.engine_extractor)
        if code >= len(widths) or widths[code] != entry.width:
            return None, (), f"{MODULE} disagrees with the registry on the width of {entry.id!r} (rebuild native/)"
        codes.append((entry.id, code))
    return module, tuple(codes), f"{MODULE} {getattr(module, '__version__', '?')}"


def _resolve() -> Backend:
    wanted = os.environ.get(ENV, "").strip()
    if wanted not in ("", *CHOICES):
        raise BackendError(f"{ENV} must be 'native' or 'python' (or unset), not {wanted!r}")
    if wanted == "python":
        return Backend("python", f"{ENV}=python")
    module, codes, note = _load()
    if module is None:
        if wanted == "native":
            raise BackendError(f"{ENV}=native, but the native accelerator cannot be used: {note}")
        return Backend("python", note)
    return Backend("native", note + (f", {ENV}=native" if wanted else ""), module, codes)


_ACTIVE: list[Backend] = []


def active() -> Backend:
    """The backend of this process (resolved on first use); :class:`BackendError` if the choice is unusable."""
    if not _ACTIVE:
        _ACTIVE.append(_resolve())
    return _ACTIVE[0]


def reset() -> None:
    """Forget the resolved backend, so that the next :func:`active` reads ``DICECHESS_BACKEND`` again."""
    _ACTIVE.clear()


# -- calls into the accelerator (typed here: the extension module has no stubs) -----------------------
def fens(backend: Backend, code: int, texts: list[str], sides: bytes) -> tuple[np.ndarray, np.ndarray]:
    """``(float32 [n, width], uint8 [n])``: parse and extract; status 1 = leave that row to Python."""
    values, status = backend.module.extract_fens(code, texts, sides)  # type: ignore[union-attr]
    return cast(np.ndarray, values), cast(np.ndarray, status)


def positions(backend: Backend, code: int, items: Sequence[object], colours: bytes) -> tuple[np.ndarray, np.ndarray]:
    """``(float32 [n, width], uint8 [n])`` for Position objects; status 1 = leave that one to Python."""
    values, status = backend.module.extract_positions(code, items, colours)  # type: ignore[union-attr]
    return cast(np.ndarray, values), cast(np.ndarray, status)
