"""The coverage choice of each mutmut mutant's tests (tests/mutation/selection.py), on a hand-written mutated file
laid out the way mutmut 3.8.1 writes one (generated functions, a ``.spans`` index beside it)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.mutation.selection import (
    changed_offsets,
    choose_tests,
    mutant_lines,
    ordered,
    statement_lines,
    statement_spans,
)

ORIGINAL = '''import os


def pick(a, b):
    if a > b:
        return a
    total = (a +
             b)
    return total


def other():
    return 1
'''

# what mutmut writes: the unmutated copy, two mutants (a comparison in the if, the second line of a
# two-line statement), and the trampoline (not read)
MUTATED = '''import os
def x_pick__mutmut_orig(a, b):
    if a > b:
        return a
    total = (a +
             b)
    return total
def x_pick__mutmut_1(a, b):
    if a >= b:
        return a
    total = (a +
             b)
    return total
def x_pick__mutmut_2(a, b):
    if a > b:
        return a
    total = (a +
             None)
    return total
def x_other__mutmut_orig():
    return 1
def x_other__mutmut_1():
    return 2
'''
SPANS = {"x_pick__mutmut_orig": [2, 7], "x_pick__mutmut_1": [8, 13], "x_pick__mutmut_2": [14, 19],
         "x_other__mutmut_orig": [20, 21], "x_other__mutmut_1": [22, 23]}
NAMES = ["pkg.mod.x_pick__mutmut_1", "pkg.mod.x_pick__mutmut_2", "pkg.mod.x_other__mutmut_1"]


def test_changed_offsets_name_the_replaced_lines() -> None:
    assert changed_offsets(["a", "b", "c"], ["a", "B", "c"]) == {1}
    assert changed_offsets(["a", "b", "c"], ["a", "c"]) == {1}
    assert changed_offsets(["a", "b"], ["a", "x", "b"]) == {0}


def test_a_line_of_a_two_line_statement_names_the_whole_statement_and_a_header_only_its_header() -> None:
    spans = statement_spans(ORIGINAL)
    assert list(statement_lines(spans, 8)) == [7, 8]
    assert list(statement_lines(spans, 5)) == [5]
    assert list(statement_lines(spans, 99)) == [99]


def test_mutants_are_placed_on_the_checkout_lines_they_change() -> None:
    placed = mutant_lines(ORIGINAL, MUTATED.splitlines(), SPANS, NAMES)
    assert placed == {"pkg.mod.x_pick__mutmut_1": {5}, "pkg.mod.x_pick__mutmut_2": {8},
                      "pkg.mod.x_other__mutmut_1": {13}}


def _laid_out(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "mutants" / "pkg").mkdir(parents=True)
    (tmp_path / "pkg" / "mod.py").write_text(ORIGINAL, encoding="utf-8")
    (tmp_path / "mutants" / "pkg" / "mod.py").write_text(MUTATED, encoding="utf-8")
    (tmp_path / "mutants" / "pkg" / "mod.py.spans").write_text(json.dumps({"spans": SPANS}), encoding="utf-8")


def test_each_mutant_keeps_only_the_tests_that_ran_its_statement(tmp_path: Path) -> None:
    _laid_out(tmp_path)
    coverage = {"pkg/mod.py": {5: {"t.py::test_big", "t.py::test_small"}, 7: {"t.py::test_small"},
                               13: {""}}}
    functions = {"pkg.mod.x_pick": {"t.py::test_big", "t.py::test_small[1]", "t.py::test_small[2]", "t.py::test_x"},
                 "pkg.mod.x_other": {"t.py::test_x"}}
    chosen = choose_tests(tmp_path, coverage, functions, NAMES)
    assert chosen == {
        "pkg.mod.x_pick__mutmut_1": {"t.py::test_big", "t.py::test_small[1]", "t.py::test_small[2]"},
        # line 8 is the statement's second line: the statement ran (line 7) in test_small
        "pkg.mod.x_pick__mutmut_2": {"t.py::test_small[1]", "t.py::test_small[2]"},
    }  # x_other's line ran only at import: not chosen here, mutmut's own choice stands


def test_a_map_of_parametrized_cases_keeps_only_the_cases_that_ran_the_statement(tmp_path: Path) -> None:
    _laid_out(tmp_path)
    coverage = {"pkg/mod.py": {5: {"t.py::test_big", "t.py::test_small[2]"}, 7: {"t.py::test_small[1]"}}}
    functions = {"pkg.mod.x_pick": {"t.py::test_big", "t.py::test_small[1]", "t.py::test_small[2]", "t.py::test_x"}}
    assert choose_tests(tmp_path, coverage, functions, NAMES[:2]) == {
        "pkg.mod.x_pick__mutmut_1": {"t.py::test_big", "t.py::test_small[2]"},
        "pkg.mod.x_pick__mutmut_2": {"t.py::test_small[1]"},
    }


def test_a_mutants_tests_run_quickest_first_and_a_test_without_a_time_last() -> None:
    durations = {"a": 3.0, "b": 0.5, "c": 0.5, "d": 9.0}
    assert ordered({"a", "b", "c", "d", "e"}, durations) == ["b", "c", "a", "d", "e"]
