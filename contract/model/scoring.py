"""Scoring a package: an ONNX Runtime session opened only after the tensor contract holds.

:meth:`Scorer.from_package` opens the session from the package's digested bytes (never by
path), runs :func:`contract.model.tensors.check_session` and closes
the session on failure, returning a :class:`~contract.core.refusal.Refusal`. :meth:`Scorer.score` feeds a
``[n, F]`` float32 array by the manifest's ``inputName`` and refuses (raises :class:`ScoringError`)
a wrong dtype, width or rank, non-finite features, a wrong output shape or a non-finite output. Scores
are returned as the model gives them (no clamping, no calibration: the engine applies neither).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from contract.core.arguments import wrong_type
from contract.core.checktable import CONTRACT_TABLE
from contract.core.errors import ContractError
from contract.core.refusal import Refusal
from contract.model.package import ModelPackage
from contract.model.tensors import check_session, open_session, runtime_message


class ScoringError(ContractError, ValueError):
    """A batch the contract refuses to score; the message says why, ``code`` names the check
    (the ``scoring`` family of ``schema/check-table.json``)."""

    def __init__(self, code: str, /, **fields: object) -> None:
        super().__init__(CONTRACT_TABLE.text(code, **fields))
        self.code = code


@dataclass
class Scorer:
    package: ModelPackage
    _session: Any

    @classmethod
    def from_package(cls, package: ModelPackage) -> Scorer | Refusal:
        if not isinstance(package, ModelPackage):
            return wrong_type("package", "a ModelPackage (from ModelPackage.load)", package)
        session = open_session(package.model_bytes)  # the bytes that were digested, never the path again
        if isinstance(session, Refusal):
            return session
        refusal = check_session(session, package.manifest)
        if refusal is not None:
            del session
            return refusal
        return cls(package, session)

    @property
    def width(self) -> int:
        return self.package.manifest.feature_count

    def score(self, features: npt.ArrayLike) -> npt.NDArray[np.float32]:
        """One score per row of a ``[n, F]`` float32 array; ``[n]`` float32."""
        if self._session is None:
            raise ScoringError("scoring.closed")
        try:
            array = np.asarray(features)
        except (ValueError, TypeError) as exc:  # e.g. ragged nested lists
            raise ScoringError("scoring.features.notArray", reason=exc) from None
        if array.dtype != np.float32:
            raise ScoringError("scoring.features.dtype", dtype=array.dtype)
        if array.ndim != 2 or array.shape[1] != self.width:
            raise ScoringError("scoring.features.shape", width=self.width, shape=list(array.shape))
        if not np.isfinite(array).all():
            raise ScoringError("scoring.features.notFinite")
        rows = array.shape[0]
        if rows == 0:
            return np.zeros(0, dtype=np.float32)
        manifest = self.package.manifest
        try:
            (output,) = self._session.run([manifest.output_name], {manifest.input_name: array})
        except Exception as exc:  # the runtime's failure, as a message
            raise ScoringError("scoring.runtime.failed", reason=runtime_message(exc)) from None
        result = np.asarray(output)
        if result.shape != (rows, 1):
            raise ScoringError("scoring.output.shape", shape=list(result.shape), rows=rows)
        if result.dtype != np.float32 or not np.isfinite(result).all():
            raise ScoringError("scoring.output.notFinite")
        return result[:, 0].copy()

    def close(self) -> None:
        self._session = None
