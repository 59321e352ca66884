"""The kit against the corpora: through its real adapter (a subprocess), and in-process with its grammar
broken on purpose, to show the matrix notices and names the cases."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from contract.conformance import adapter
from contract.conformance.corpus import KINDS, load_cases
from contract.conformance.divergences import load
from contract.conformance.protocol import PROTOCOL_VERSION, response_problem
from contract.conformance.report import as_text
from contract.conformance.runner import LIVE, Implementation, Run, classify, evaluate, resolve, run
from contract.model import compatibility


def _in_process(kinds: list[str]) -> Run:
    cases = load_cases(kinds)
    answers = [adapter.answer(json.dumps(case.request_line())) for case in cases]
    impl = Implementation("kit", LIVE, ("in-process",))
    return classify(Run([impl], kinds, evaluate(impl, cases, answers), load()))


@pytest.mark.slow
def test_the_kit_adapter_agrees_with_every_case_of_every_kind() -> None:
    outcome = run([resolve("kit")], load_cases(), list(KINDS), load())
    text = as_text(outcome)
    assert outcome.ok, text
    assert not outcome.listed, "the kit is canonical: it needs no listed divergence"
    assert all(r.status == "agree" for r in outcome.results), text
    assert len(outcome.results) > 1000


def test_every_kit_answer_follows_the_protocol() -> None:
    for case in load_cases(["engine-compatibility", "manifest", "tensor-contract"]):
        answer = adapter.answer(json.dumps(case.request_line()))
        assert response_problem(answer) is None, (case.id, answer)


def test_the_adapter_never_raises() -> None:
    assert adapter.answer("{not json")["status"] == "error"
    assert adapter.answer("[1]")["status"] == "error"
    version = {"formatVersion": PROTOCOL_VERSION}
    assert adapter.answer(json.dumps({**version, "id": "x", "kind": "telepathy"}))["status"] == "unsupported"
    missing_field = adapter.answer(json.dumps({**version, "id": "x", "kind": "engine-compatibility"}))
    assert missing_field["status"] == "error" and "constraint" in missing_field["message"]
    bad_schema = adapter.answer(json.dumps({**version, "id": "x", "kind": "features", "schemaId": "kcp-99",
                                            "fen": "8/8/8/8/8/8/8/8 w - -", "side": "w"}))
    assert bad_schema["status"] == "error"


@pytest.mark.slow
def test_a_broken_grammar_fails_the_run_naming_the_cases(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The grammar file is the authority: a changed file changes every reading, the canonical texts' included (the
    parser-free reading of those is used only for the grammar text it was checked against)."""
    grammar = (compatibility.grammar_dir() / compatibility.GRAMMAR_FILE).read_text(encoding="utf-8")
    broken = grammar.replace('OP: ">=" | "<=" | ">" | "<" | "="', 'OP: ">=" | ">" | "<" | "="')
    assert broken != grammar, "the grammar's OP rule changed: update this test"
    (tmp_path / compatibility.GRAMMAR_FILE).write_text(broken, encoding="utf-8")
    monkeypatch.setattr(compatibility, "grammar_dir", lambda: tmp_path)
    compatibility.parser.cache_clear()
    compatibility._subset_verified.cache_clear()
    try:
        outcome = _in_process(["engine-compatibility", "manifest"])
    finally:
        compatibility.parser.cache_clear()
        compatibility._subset_verified.cache_clear()
    failing = {r.case.id for r in outcome.unlisted}
    assert not outcome.ok
    assert "engine-compatibility/recorded-06" in failing  # '<=0.12.0 >0.4.0' @ 0.12.0, satisfied
    assert "engine-compatibility/kit-op-le-equal" in failing
    assert "engine-compatibility/recorded-06" in as_text(outcome)
    assert all("<=" in r.case.request.get("constraint", "") for r in outcome.unlisted
               if r.case.kind == "engine-compatibility")


@pytest.mark.slow
def test_a_component_bound_that_drifts_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compatibility, "INT_MAX", 2**32)
    outcome = _in_process(["engine-compatibility"])
    failing = {r.case.id for r in outcome.unlisted}
    assert {"engine-compatibility/recorded-53", "engine-compatibility/recorded-54"} <= failing


def _answers_by_id(kinds: list[str]) -> dict[str, dict[str, Any]]:
    return {c.id: adapter.answer(json.dumps(c.request_line())) for c in load_cases(kinds)}


@pytest.mark.slow
def test_the_recorded_engine_test_texts_come_back_verbatim() -> None:
    answers = _answers_by_id(["engine-compatibility", "tensor-contract"])
    assert answers["engine-compatibility/recorded-08"]["message"] == (
        "engineCompatibility '>=0.12.0 <1.0.0' does not include engine version '0.11.0'")
    assert answers["tensor-contract/fixture-static-batch"]["message"] == (
        "input 'input' must have shape [batch,13] with a dynamic batch dimension; got [1,13]")
