"""The mutation runner's arithmetic: which mutants count, and which listings went stale.

The scores in docs/testing.md are this code's output, so it is tested like the kit (with made-up verdicts:
mutmut itself is not run here).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tests.mutation.run import Group, listed_kind, score, stale_listings

GROUP = Group("g", ["tests/x"], [], ["contract/core/thing.py"])
M = "contract.core.thing.x_f__mutmut_"


def test_equivalent_and_import_time_mutants_leave_the_score_and_no_tests_counts_as_not_killed() -> None:
    verdicts = {f"{M}{n}": v for n, v in enumerate(
        ["killed", "killed", "timeout", "survived", "no tests", "survived", "survived", "not checked"], start=1)}
    equivalent = {f"{M}6": "equivalent", f"{M}7": "import-time"}
    row = score(verdicts, equivalent)["contract.core.thing"]
    assert {key: row[key] for key in ("mutants", "killed", "considered", "not_run", "score")} == {
        "mutants": 8, "killed": 3, "considered": 5, "not_run": 1, "score": 60.0}  # a mutant not run yet is no verdict


def test_a_pattern_lists_every_mutant_it_matches() -> None:
    equivalent = {"contract.core.thing.x_g__mutmut_*": "import-time"}
    assert listed_kind("contract.core.thing.x_g__mutmut_12", equivalent) == "import-time"
    assert listed_kind(f"{M}12", equivalent) is None


def test_a_listing_that_names_a_killed_or_missing_mutant_is_stale() -> None:
    equivalent = {f"{M}1": "equivalent", f"{M}2": "equivalent", f"{M}3": "equivalent",
                  "contract.core.other.x_f__mutmut_1": "equivalent", f"{M}*": "equivalent"}
    verdicts = {f"{M}1": "survived", f"{M}2": "killed"}
    assert stale_listings(GROUP, verdicts, equivalent) == [f"{M}2", f"{M}3"]


def test_a_groups_timeout_multiplier_reaches_mutmuts_configuration_only_when_set() -> None:
    from tests.mutation.run import _setup_cfg

    assert "timeout_multiplier = 4" in _setup_cfg(Group("g", ["tests/x"], [], ["m.py"], [], 4)).splitlines()
    assert "timeout_multiplier" not in _setup_cfg(GROUP)


ENDLESS = "def test_endless() -> None:\n    while True:\n        pass\n\n\ndef test_quick() -> None:\n    assert True\n"


def _run_endless(tmp_path: Path, mutant: str) -> tuple[int, float]:
    (tmp_path / "test_loop.py").write_text(ENDLESS, encoding="utf-8")
    (tmp_path / "mutmut-stats.json").write_text(
        '{"duration_by_test": {"test_loop.py::test_endless": 0.01}}', encoding="utf-8")
    env = dict(os.environ, MUTANT_UNDER_TEST=mutant, DICECHESS_MUTATION_TEST_CPU_MIN="1",
               PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p",
                           "tests.mutation.cpulimit", "test_loop.py::test_endless"],
                          cwd=tmp_path, env=env, capture_output=True, timeout=60, check=False)
    return done.returncode, time.monotonic() - started


def test_under_a_mutant_an_endless_test_is_stopped_by_sigxcpu_within_its_own_cpu_budget(tmp_path: Path) -> None:
    code, seconds = _run_endless(tmp_path, "contract.core.thing.x_f__mutmut_1")
    assert code == -signal.SIGXCPU  # mutmut's "timeout": killed
    assert seconds < 30  # a budget of 1 CPU second plus pytest's start, not mutmut's minutes


def test_outside_a_mutant_run_the_limit_is_not_set(tmp_path: Path) -> None:
    from tests.mutation import cpulimit

    os.environ.pop("MUTANT_UNDER_TEST", None)
    assert not cpulimit.under_mutant()
    os.environ["MUTANT_UNDER_TEST"] = "stats"
    try:
        assert not cpulimit.under_mutant()
    finally:
        del os.environ["MUTANT_UNDER_TEST"]


def test_a_tests_budget_is_ten_times_its_clean_seconds_and_never_below_the_minimum(monkeypatch: Any) -> None:
    from tests.mutation import cpulimit

    monkeypatch.setitem(cpulimit._CACHE, "durations", {"t.py::slow": 4.0, "t.py::fast": 0.01})
    monkeypatch.delenv("DICECHESS_MUTATION_TEST_CPU_MIN", raising=False)
    assert cpulimit.budget("t.py::slow") == 40.0
    assert cpulimit.budget("t.py::fast") == cpulimit.MINIMUM
    assert cpulimit.budget("t.py::unknown") == cpulimit.MINIMUM


def test_a_listed_equivalent_gets_no_tests_so_mutmut_settles_it_without_running(tmp_path: Path,
                                                                                  monkeypatch: Any) -> None:
    import sys
    import types

    from tests.mutation import run, selection

    # mutmut (3.8.1) is installed by the mutation environments only: its state module, as the selection reads
    # it (``state()`` with ``tests_by_mangled_function_name``), stands in for it here
    mutmut_state = types.ModuleType("mutmut.state")
    monkeypatch.setitem(sys.modules, "mutmut", sys.modules.get("mutmut", types.ModuleType("mutmut")))
    monkeypatch.setitem(sys.modules, "mutmut.state", mutmut_state)

    monkeypatch.setattr(run, "load_equivalent", lambda: {f"{M}2": "equivalent", "contract.core.thing.x_g__mutmut_*":
                                                         "import-time"})
    run._record_settled(tmp_path)
    (tmp_path / selection.COVERAGE_FILE).write_text("{}", encoding="utf-8")
    (tmp_path / "mutants").mkdir()
    fake = type("State", (), {})()
    fake.tests_by_mangled_function_name = {"contract.core.thing.x_f": {"t.py::a"},
                                           "contract.core.thing.x_g": {"t.py::a"}}
    fake.duration_by_test = {"t.py::a": 1.0}
    monkeypatch.setattr(mutmut_state, "state", lambda: fake, raising=False)
    lookup = selection._patched_lookup(lambda name: name.partition("__mutmut_")[0], tmp_path)
    for name in (f"{M}2", "contract.core.thing.x_g__mutmut_7"):
        assert fake.tests_by_mangled_function_name[lookup(name)] == []  # "no tests": nothing runs
    assert fake.tests_by_mangled_function_name[lookup(f"{M}3")] == ["t.py::a"]  # not listed: its tests run
