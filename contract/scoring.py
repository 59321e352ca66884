"""Stable import path ``contract.scoring`` (shown in the README); the module lives in ``contract.model.scoring``."""

from contract.model.scoring import Scorer, ScoringError

__all__ = ["Scorer", "ScoringError"]
