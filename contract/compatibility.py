"""Stable import path ``contract.compatibility`` (shown in the README).

The module lives in ``contract.model.compatibility``.
"""

from contract.model.compatibility import Compatibility, Outcome, evaluate

__all__ = ["Compatibility", "Outcome", "evaluate"]
