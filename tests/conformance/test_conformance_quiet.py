"""``conformance run --quiet``: only what fails the run and one summary line (issue #35, newcomer item: a
PASS over every implementation printed 265 lines, the listed divergences one by one)."""

from __future__ import annotations

import pytest

from contract.cli import main
from contract.conformance.corpus import Case, Expected
from contract.conformance.divergences import Divergence
from contract.conformance.report import as_text
from contract.conformance.runner import LIVE, Implementation, Run, classify, evaluate

CASE = Case(id="engine-compatibility/quiet-one", kind="engine-compatibility",
            request={"constraint": ">=0.12.0", "engineVersion": "0.12.0"},
            expected=Expected({"outcome": "satisfied", "message": None}), source="test")
WRONG = {"status": "ok", "outcome": "excluded", "message": "m"}


def _run(entries: list[Divergence]) -> Run:
    impl = Implementation("fake", LIVE, ("x",))
    return classify(Run([impl], ["engine-compatibility"], evaluate(impl, [CASE], [{"id": CASE.id, **WRONG}]), entries))


def test_a_quiet_pass_over_recorded_implementations_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["conformance", "run", "--impl", "training", "--impl", "service", "--kinds", "engine-compatibility,manifest"]
    assert main(argv) == 0
    loud = capsys.readouterr().out.splitlines()
    assert len(loud) > 50  # the matrix and every listed divergence
    assert main([*argv, "--quiet"]) == 0
    quiet = capsys.readouterr().out.splitlines()
    assert len(quiet) == 1, quiet
    assert quiet[0].startswith("PASS: 0 unlisted disagreement(s)") and " Corpus: " in quiet[0]
    assert quiet[0].startswith(loud[-1])


def test_a_quiet_failure_keeps_each_failing_case_and_drops_the_listed_ones() -> None:
    failing = as_text(_run([]), quiet=True).splitlines()
    assert failing[0].startswith("UNLISTED disagreements (1;")
    assert failing[1] == f"  fake  {CASE.id}"
    assert failing[-1].startswith("FAIL: 1 unlisted disagreement(s)")
    assert not any(line.startswith("implementation") for line in failing)  # no matrix
    listed = _run([Divergence("fake", CASE.id, "a listed reason", None, {"outcome": "excluded", "message": "m"})])
    assert listed.ok and "a listed reason" in as_text(listed)
    assert as_text(listed, quiet=True).splitlines() == [as_text(listed, quiet=True).strip()]
    assert "a listed reason" not in as_text(listed, quiet=True)
