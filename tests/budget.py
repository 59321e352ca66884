"""How many examples a property test draws: a share of the active Hypothesis profile's budget.

The profiles are registered in ``tests/conftest.py`` and chosen with ``DICECHESS_HYPOTHESIS_PROFILE``
(``quick``, ``default``, ``thorough``). A test states its weight, not a count: ``@settings(share(3))``
draws three times the profile's ``max_examples`` (300 under ``default``); an expensive test takes less
than one share.
"""

from __future__ import annotations

from hypothesis import settings


def share(weight: float) -> settings:
    """Settings drawing ``weight`` times the active profile's ``max_examples`` (at least one example)."""
    return settings(max_examples=max(1, round(settings.default.max_examples * weight)))
