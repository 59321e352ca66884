"""Shared by every test directory: make ``generators`` (a checkout directory, not packaged) importable.

Also, only under mutation testing, clear cached loaders before each test (see the fixture).

Appended, not prepended: when the kit is installed, the installed ``contract`` stays the one under test.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.append(str(REPO))


@pytest.fixture(autouse=True)
def _fresh_loaders_under_mutation() -> Iterator[None]:
    """Under mutation testing (mutmut sets ``MUTANT_UNDER_TEST``), clear the kit's cached loaders first.

    A loader cached before a mutant was switched on (``manifest_versions``, the grammar's parser) would
    answer from the cache and hide the mutant. Outside a mutation run this does nothing.
    """
    if os.environ.get("MUTANT_UNDER_TEST"):
        for name, module in list(sys.modules.items()):
            if name == "contract" or name.startswith("contract."):
                for value in list(vars(module).values()):
                    clear = getattr(value, "cache_clear", None)
                    if callable(clear) and getattr(value, "__module__", None) == name:
                        clear()
    yield
