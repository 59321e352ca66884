"""The review sample's generator, sample and arithmetic (tests/mutation/review.py).

Its scores are the review column of docs/testing.md, so it is tested like the kit: the mutants it makes
from a known source, the seeded choice, and one real run of a mutant against a real test in a scratch
directory (pytest in a child process, as the tool runs it).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tests.mutation.review import mutants_of, run_mutant, sample, score, selection_for, stale_listings, verdict_of
from tests.mutation.run import Group

SOURCE = textwrap.dedent('''\
    """Module docstring."""
    LIMIT: int = 5


    @decorated(3)
    def check(x: int = 2) -> str:
        """Docstring."""
        if x < LIMIT and x != 0:
            raise ValueError(f"bad {x + 1} value")
        return "ok" if x in (1, 2) else "no"
    ''')


def _made(kind: str) -> list[tuple[str, str]]:
    return [(m.original, m.replacement) for m in mutants_of("m.py", SOURCE) if m.kind == kind]


def test_each_kind_of_the_reviewer_is_made_where_it_applies() -> None:
    assert _made("comparison") == [("x < LIMIT", "(x <= LIMIT)"), ("x != 0", "(x == 0)"), ("x in (1, 2)", "(x not in (1, 2))")]
    assert _made("boolean") == [("x < LIMIT and x != 0", "(x < LIMIT or x != 0)")]
    assert _made("condition") == [("x < LIMIT and x != 0", "(not (x < LIMIT and x != 0))")]  # `x in ...` alone: its flip
    assert _made("raise") == [('raise ValueError(f"bad {x + 1} value")', "pass")]
    assert _made("return") == [('return "ok" if x in (1, 2) else "no"', "return None")]
    # the default and the placeholder's number, not the f-string's text, the docstrings, the annotation,
    # the decorator's argument or the module-level constant
    assert _made("constant") == [("2", "3"), ("0", "1"), ("1", "2"), ("1", "2"), ("2", "3"), ('"ok"', "'okX'"), ('"no"', "'noX'")]


def test_every_mutant_applies_compiles_and_changes_only_its_span() -> None:
    for mutant in mutants_of("m.py", SOURCE):
        changed = mutant.apply(SOURCE)
        compile(changed, "m.py", "exec")
        before, after = SOURCE.splitlines()[: mutant.line - 1], SOURCE.splitlines()[mutant.end_line:]
        lines = changed.splitlines()
        assert lines[: mutant.line - 1] == before and lines[len(lines) - len(after):] == after
        assert mutant.replacement in changed and changed != SOURCE


def test_a_source_that_moved_is_refused_not_mutated_elsewhere() -> None:
    mutant = next(m for m in mutants_of("m.py", SOURCE) if m.kind == "raise")
    with pytest.raises(ValueError, match="no longer reads"):
        mutant.apply("\n" + SOURCE)


def test_columns_count_utf8_bytes_as_ast_does() -> None:
    source = 'def f(s):\n    return "é" if s == "ü" else s\n'
    flip = next(m for m in mutants_of("m.py", source) if m.kind == "comparison")
    assert flip.apply(source) == 'def f(s):\n    return "é" if (s != \'ü\') else s\n'


def test_the_sample_is_seeded_bounded_and_stable() -> None:
    source = "\n".join(f"def f{n}(x):\n    return x + {n}\n" for n in range(50))
    mutants = mutants_of("m.py", source)
    assert len(mutants) == 100
    first = sample(mutants, 30, "a")
    assert len(first) == 30 and first == sample(mutants, 30, "a") and first != sample(mutants, 30, "b")
    assert sample(mutants, 500, "a") == mutants


def _result(module: str, verdict: str) -> dict[str, str]:
    return {"module": module, "verdict": verdict}


def test_equivalents_and_errors_leave_the_score_timeouts_kill_and_no_tests_does_not() -> None:
    verdicts = ["killed", "killed", "timeout", "survived", "no tests", "equivalent", "error"]
    table = score({str(n): _result("m.py", v) for n, v in enumerate(verdicts)})
    assert table["m.py"] | {"counts": None} == {"mutants": 7, "killed": 3, "considered": 5, "score": 60.0, "counts": None}


def test_a_listing_applies_only_while_its_texts_match() -> None:
    mutants = mutants_of("m.py", SOURCE)
    raise_ = next(m for m in mutants if m.kind == "raise")
    listing = {"original": raise_.original, "replacement": "pass", "reason": "r"}
    assert stale_listings(mutants, {raise_.name: listing}) == []
    moved = {raise_.name: listing | {"original": "raise KeyError()"}, "other.py:1:0:raise": listing}
    assert stale_listings(mutants, moved) == [raise_.name]  # other modules' listings are not judged here


@pytest.mark.slow
def test_a_mutant_is_killed_by_a_failing_test_survives_a_passing_one_and_the_file_is_restored(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    module = tmp_path / "pkg" / "m.py"
    module.write_text("def f(x):\n    return x < 3\n", encoding="utf-8")
    (tmp_path / "test_m.py").write_text("from pkg.m import f\n\ndef test_f():\n    assert f(2) and not f(4)\n",
                                        encoding="utf-8")
    group = Group("g", ["test_m.py"], [], ["pkg/m.py"])
    mutants = {m.kind: m for m in mutants_of("pkg/m.py", module.read_text(encoding="utf-8"))}
    assert set(mutants) == {"comparison", "constant", "return"}
    assert run_mutant(mutants["return"], ["test_m.py::test_f"], group, tmp_path) == "killed"
    assert run_mutant(mutants["comparison"], ["test_m.py::test_f"], group, tmp_path) == "survived"  # 3 is not tested
    assert run_mutant(mutants["constant"], [], group, tmp_path) == "no tests"
    assert module.read_text(encoding="utf-8") == "def f(x):\n    return x < 3\n"


def test_pytests_own_failure_is_an_error_unless_the_mutant_broke_a_conftest_import() -> None:
    assert verdict_of(4, "ERROR: not found: tests/x.py::test_y") == "error"
    assert verdict_of(4, "ImportError while loading conftest '/s/tests/conftest.py'.") == "killed"
    assert verdict_of(4, "___ ERROR collecting tests/t.py ___\nERROR: found no collectors for tests/t.py::x") == "killed"
    assert verdict_of(3, "INTERNALERROR> boom") == "error"
    assert [verdict_of(code, "") for code in (0, 1, 2, 5)] == ["survived", "killed", "killed", "no tests"]


def test_a_statement_run_only_at_import_runs_the_whole_selection_and_one_never_run_runs_nothing() -> None:
    group = Group("g", ["tests/a", "tests/b"], [], ["m.py"])
    by_kind = {m.kind: m for m in mutants_of("m.py", SOURCE)}
    raise_line, return_line = by_kind["raise"].statement_line, by_kind["return"].statement_line
    lines = {"m.py": {raise_line: {"", "tests/a/t.py::test_x"}, return_line: {""}}}
    assert selection_for(by_kind["raise"], lines, group) == ["tests/a/t.py::test_x"]
    assert selection_for(by_kind["return"], lines, group) == ["tests/a", "tests/b"]
    assert selection_for(by_kind["boolean"], {"m.py": {}}, group) == []


def test_the_tests_of_a_mutant_run_quickest_first() -> None:
    group = Group("g", ["tests/a"], [], ["m.py"])
    mutant = next(m for m in mutants_of("m.py", SOURCE) if m.kind == "raise")
    lines = {"m.py": {mutant.statement_line: {"t.py::slow", "t.py::quick[1]", "t.py::quick[2]"}}}
    durations = {"t.py::slow": 4.0, "t.py::quick[1]": 0.2, "t.py::quick[2]": 0.1}
    assert selection_for(mutant, lines, group, durations) == ["t.py::quick[2]", "t.py::quick[1]", "t.py::slow"]
