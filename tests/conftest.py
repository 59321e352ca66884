"""Shared by every test directory: make ``generators`` (a checkout directory, not packaged) importable,
and choose the Hypothesis profile.

Also, only under mutation testing, clear cached loaders before each test (see the fixture) and give each
test its own CPU limit (tests/mutation/cpulimit.py).

Appended, not prepended: when the kit is installed, the installed ``contract`` stays the one under test.

Profiles (``DICECHESS_HYPOTHESIS_PROFILE``, default ``default``): ``quick`` draws 10 examples per share,
``default`` 100, ``thorough`` 1000, ``mutation`` 10 without shrinking; none has a deadline (a shared CI machine is not a stopwatch). Tests
state their share with ``budget.share`` (tests/budget.py).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import Phase, settings

PROFILES = {"quick": 10, "default": 100, "thorough": 1000, "mutation": 10}
for _name, _examples in PROFILES.items():
    settings.register_profile(_name, max_examples=_examples, deadline=None)
# Mutation runs (tests/mutation/run.py): a failing example kills the mutant as it is; shrinking it first
# took minutes per mutant (mutmut then timed the mutant out), and the example database is not shared.
settings.register_profile("mutation", max_examples=PROFILES["mutation"], deadline=None, database=None,
                          phases=(Phase.explicit, Phase.reuse, Phase.generate))
PROFILE = os.environ.get("DICECHESS_HYPOTHESIS_PROFILE", "default")
if PROFILE not in PROFILES:
    raise ValueError(f"DICECHESS_HYPOTHESIS_PROFILE={PROFILE!r}: expected one of {', '.join(PROFILES)}")
settings.load_profile(PROFILE)

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.append(str(REPO))

from testids import plain_id  # noqa: E402  (tests/ is on the path, as for budget)

# a CPU limit per test, only under a mutant (tests/mutation/cpulimit.py): an endless loop stops in seconds
from tests.mutation.cpulimit import pytest_runtest_protocol  # noqa: E402,F401


def pytest_make_parametrize_id(config: pytest.Config, val: object, argname: str) -> str | None:
    """A text or bytes parameter that pytest would escape gets a plain id instead (tests/testids.py)."""
    if isinstance(val, (str, bytes)):
        plain = plain_id(val)
        shown = val if isinstance(val, str) else val.decode("ascii", "replace")
        return plain if plain != shown else None
    return None


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


@pytest.fixture
def python_backend(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Run the test on the pure-Python feature backend (DICECHESS_BACKEND=python), e.g. when it
    replaces a Python function that the native accelerator would not call."""
    from contract.features import backend

    monkeypatch.setenv(backend.ENV, "python")
    backend.reset()
    yield
    monkeypatch.undo()
    backend.reset()
