"""The mutation runner's arithmetic: which mutants count, and which listings went stale.

The scores in docs/testing.md are this code's output, so it is tested like the kit (with made-up verdicts:
mutmut itself is not run here).
"""

from __future__ import annotations

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
