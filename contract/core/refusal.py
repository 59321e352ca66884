"""A refusal as a value: what every contract check returns instead of raising on a bad artifact."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Refusal:
    """Why something was not accepted. ``message`` is the exact text a user sees."""

    message: str

    @property
    def ok(self) -> bool:
        return False

    def prefixed(self, prefix: str) -> Refusal:
        return Refusal(f"{prefix}: {self.message}")
