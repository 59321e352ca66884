"""A CPU limit per test under a mutant (issue 36): an endless loop is stopped in seconds, not minutes.

mutmut 3.8.1 gives a mutant one CPU limit for all its tests together: (their clean-run seconds + 1) x
``timeout_multiplier`` x 2. A mutant that turns a loop of the capture search endless runs that whole limit
(about 200 s for the three slow capture boards) before SIGXCPU stops it. This pytest plugin (loaded with
``-p tests.mutation.cpulimit`` by ``tests.mutation.run``) lowers the limit around each test of a mutant run to
the CPU time already used plus that test's own budget: ``FACTOR`` x its clean-run seconds (mutmut's
``mutmut-stats.json``), at least ``MINIMUM`` seconds (``DICECHESS_MUTATION_TEST_CPU_MIN`` overrides it), never
above mutmut's own limit. A test past its budget gets SIGXCPU, which mutmut records as "timeout": killed, its
own rule for a mutant that no longer finishes in time.

Refusals: outside a mutant run (no ``__mutmut_`` in ``MUTANT_UNDER_TEST``: the clean run, the stats pass, the
review tool, an ordinary pytest run) it does nothing; without a readable stats file each test gets the minimum.
"""

from __future__ import annotations

import json
import math
import os
import resource
from collections.abc import Generator
from pathlib import Path
from typing import Final

import pytest

FACTOR: Final = 10.0
MINIMUM: Final = 10.0  # CPU seconds: a session fixture's first use and pytest's own start fit in it
MAX_STATS_BYTES: Final = 64 * 1024 * 1024

_CACHE: dict[str, dict[str, float]] = {}  # "durations" -> the stats file's seconds, read once per process


def under_mutant() -> bool:
    return "__mutmut_" in os.environ.get("MUTANT_UNDER_TEST", "")


def durations() -> dict[str, float]:
    """mutmut's clean-run seconds per test id, from its stats file (in ``mutants/`` or the current directory)."""
    if "durations" not in _CACHE:
        _CACHE["durations"] = {}
        for path in (Path("mutmut-stats.json"), Path("mutants") / "mutmut-stats.json"):
            try:
                if path.is_file() and path.stat().st_size <= MAX_STATS_BYTES:
                    _CACHE["durations"] = {str(k): float(v) for k, v in
                                  json.loads(path.read_text(encoding="utf-8"))["duration_by_test"].items()}
                    break
            except (OSError, ValueError, KeyError, TypeError):
                continue
    return _CACHE["durations"]


def budget(nodeid: str) -> float:
    """CPU seconds one test may use under a mutant."""
    minimum = float(os.environ.get("DICECHESS_MUTATION_TEST_CPU_MIN", MINIMUM))
    return max(minimum, FACTOR * durations().get(nodeid, 0.0))


def _cpu_used() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, None, None]:
    if not under_mutant():
        yield
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
    limit = math.ceil(_cpu_used() + budget(item.nodeid))
    if soft != resource.RLIM_INFINITY:
        limit = min(limit, soft)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))
