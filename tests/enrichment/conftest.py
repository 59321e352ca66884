"""Fixtures for the enrichment tests (helpers are in ``enrichment_data``)."""

from __future__ import annotations

from typing import Any

import pytest
from enrichment_data import load_golden


@pytest.fixture(scope="session")
def kcp13_golden() -> dict[str, Any]:
    return load_golden()
