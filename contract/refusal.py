"""Stable import path ``contract.refusal`` (shown in the README); the module lives in ``contract.core.refusal``."""

from contract.core.refusal import Refusal

__all__ = ["Refusal"]
