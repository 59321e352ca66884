"""Which implementation computes feature vectors: the native accelerator or the Python reference.

The accelerator is the optional distribution ``dicechess-contract-native`` (``native/`` in this
repository; module :mod:`dicechess_native`). The pure-Python path in :mod:`contract.features` is the
reference the contract is specified in; the accelerator computes the same float32 values (the tests
hold them bit-identical) and is used when it is importable. ``DICECHESS_BACKEND`` chooses:

* unset or empty: ``native`` when the accelerator is importable, is the kit's own version and agrees
  with the registry, else ``python``;
* ``python``: the Python reference, even when the accelerator is installed;
* ``native``: the accelerator, and a :class:`BackendError` (one line) when it cannot be used.

Refusals: an accelerator whose ``__version__`` is not the kit's (``contract.__version__``: an older wheel
left installed after an upgrade, say) or that disagrees with the registry is never used. Unset, the kit
then computes in Python and says so in ONE line on stderr per process, naming both versions (an
accelerator that is simply not installed is not worth a word). The choice is read once per process
(:func:`active`); :func:`reset` re-reads it (for tests).

The calls into the accelerator (:func:`fens`, :func:`positions`) hand it at most :data:`CHUNK` rows at a
time and gather the rows in an array numpy allocates, so a batch too large for memory raises numpy's
``MemoryError`` at the same allocation, with the same message, as on the Python backend (the accelerator
raises ``MemoryError`` for any allocation of its own that fails; it never aborts the process).

>>> from contract.features import backend
>>> backend.active().name in ("native", "python")
True
"""

from __future__ import annotations

import importlib
import os
import sys
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
CHUNK = 4096  # rows per accelerator call in fens/positions: its own buffers stay small (C4)
# set to the refusal once it is said on stderr: the workers a run spawns (they inherit the environment) and
# later resolutions in this process stay quiet, so a run says it once
SAID_ENV = "DICECHESS_BACKEND_REFUSAL_SAID"


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


def _kit_version() -> str:
    import contract

    return str(contract.__version__)


def _load() -> tuple[ModuleType | None, tuple[tuple[str, int], ...], str, bool]:
    """The accelerator, its schema codes bound through the registry, a note (why not, when not) and
    whether an installed accelerator was refused (worth a warning)."""
    try:
        module = importlib.import_module(MODULE)
    except ImportError as exc:
        return None, (), f"accelerator not importable: {exc}", False
    found, kit = getattr(module, "__version__", None), _kit_version()
    if found != kit:
        return None, (), (f"{MODULE} {found if isinstance(found, str) else repr(found)} is not the kit's version "
                          f"{kit} (rebuild native/ or reinstall dicechess-contract-native {kit})"), True
    extractors = list(getattr(module, "EXTRACTORS", ()))
    widths = list(getattr(module, "WIDTHS", ()))
    codes = []
    for entry in registry.feature_schemas().values():
        if entry.engine_extractor not in extractors:
            return None, (), f"{MODULE} has no extractor {entry.engine_extractor!r} (rebuild native/)", True
        code = extractors.index(entry.engine_extractor)
        if code >= len(widths) or widths[code] != entry.width:
            return None, (), (f"{MODULE} disagrees with the registry on the width of {entry.id!r} "
                              "(rebuild native/)"), True
        codes.append((entry.id, code))
    return module, tuple(codes), f"{MODULE} {found}", False


def _resolve() -> Backend:
    wanted = os.environ.get(ENV, "").strip()
    if wanted not in ("", *CHOICES):
        raise BackendError(f"{ENV} must be 'native' or 'python' (or unset), not {wanted!r}")
    if wanted == "python":
        return Backend("python", f"{ENV}=python")
    module, codes, note, refused = _load()
    if module is None:
        if wanted == "native":
            raise BackendError(f"{ENV}=native, but the native accelerator cannot be used: {note}")
        if refused and os.environ.get(SAID_ENV) != note:
            os.environ[SAID_ENV] = note
            print(f"dicechess-contract: warning: the native accelerator is not used: {note}; computing in Python",
                  file=sys.stderr, flush=True)
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
def _chunked(backend: Backend, function: str, code: int, items: Sequence[object],
             sides: bytes) -> tuple[np.ndarray, np.ndarray]:
    """One accelerator call for up to :data:`CHUNK` rows; more are gathered chunk by chunk into arrays
    numpy allocates (``np.empty``, as the Python backend's output is: the same ``MemoryError``)."""
    call = getattr(backend.module, function)
    if len(items) <= CHUNK:
        values, status = call(code, items if isinstance(items, list) else list(items), sides)
        return cast(np.ndarray, values), cast(np.ndarray, status)
    width = int(backend.module.WIDTHS[code])  # type: ignore[union-attr]
    out = np.empty((len(items), width), dtype=np.float32)
    leave = np.empty(len(items), dtype=np.uint8)
    for start in range(0, len(items), CHUNK):
        stop = start + CHUNK
        values, status = call(code, list(items[start:stop]), sides[start:stop])
        out[start:stop] = values
        leave[start:stop] = status
    return out, leave


def fens(backend: Backend, code: int, texts: list[str], sides: bytes) -> tuple[np.ndarray, np.ndarray]:
    """``(float32 [n, width], uint8 [n])``: parse and extract; status 1 = leave that row to Python."""
    return _chunked(backend, "extract_fens", code, texts, sides)


def positions(backend: Backend, code: int, items: Sequence[object], colours: bytes) -> tuple[np.ndarray, np.ndarray]:
    """``(float32 [n, width], uint8 [n])`` for Position objects; status 1 = leave that one to Python."""
    return _chunked(backend, "extract_positions", code, items, colours)
