"""A listed divergence pins the answer it lists (issue 32): another answer on a listed case fails the run,
naming the case and both answers; the committed list records an answer for every entry, from recordings.

The stand-in adapter is a small Python program whose answers a test sets; the answers the committed entries
list come from the engine's, the training side's and the service's recordings (golden/recorded/, the
corpora's recorded entries) and from a live run of the training modules (docs/conformance.md)."""

from __future__ import annotations

import json
import struct
import sys
from pathlib import Path

import pytest

from contract.cli import main as kit_main
from contract.conformance.corpus import KINDS, Case, Expected, load_cases
from contract.conformance.divergences import Divergence, load
from contract.conformance.report import as_json, as_text
from contract.conformance.runner import LIVE, RECORDED, Implementation, Run, classify, evaluate, resolve, run

BLANK = "engine-compatibility/recorded-09"  # canonical: outcome blank, 'engineCompatibility must not be blank'


def _stand_in(tmp_path: Path, outcome: str, message: str | None) -> str:
    """An adapter answering the case BLANK with ``outcome`` and ``message``, every other one 'unsupported'
    (a command line for --impl)."""
    script = tmp_path / "stand_in.py"
    script.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    req = json.loads(line)\n"
        f"    out = {{'id': req['id'], 'status': 'ok', 'outcome': {outcome!r}, 'message': {message!r}}}\n"
        f"    out = out if req['id'] == {BLANK!r} else {{'id': req['id'], 'status': 'unsupported'}}\n"
        "    sys.stdout.write(json.dumps(out) + '\\n'); sys.stdout.flush()\n",
        encoding="utf-8",
    )
    return f"{sys.executable} {script}"


def _divergences(tmp_path: Path, answer: dict[str, object]) -> Path:
    path = tmp_path / "divergences.json"
    entry = {"implementation": "standin", "case": BLANK, "reason": "the stand-in answers this case its own way",
             "answer": answer, "answerSource": "the stand-in's first answer (this test)"}
    path.write_text(json.dumps({"formatVersion": "2.0.0", "description": "test", "divergences": [entry]}),
                    encoding="utf-8")
    return path


def _cli(tmp_path: Path, answer_now: str | None, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str]:
    listed = _divergences(tmp_path, {"outcome": "excluded", "message": "the first text"})
    code = kit_main(["conformance", "run", "--impl", f"standin={_stand_in(tmp_path, 'excluded', answer_now)}",
                     "--kinds", "engine-compatibility", "--divergences", str(listed), *extra])
    return code, capsys.readouterr().out


def test_a_listed_case_keeps_passing_while_it_gets_the_listed_answer(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    cases = [c for c in load_cases(["engine-compatibility"]) if c.id == BLANK]
    impl = resolve(f"standin={_stand_in(tmp_path, 'excluded', 'the first text')}")
    entry = Divergence("standin", BLANK, "the stand-in answers this case its own way", None,
                       {"outcome": "excluded", "message": "the first text"}, "this test")
    outcome = run([impl], cases, ["engine-compatibility"], [entry])
    assert outcome.ok and [r.case.id for r, _ in outcome.listed] == [BLANK] and not outcome.changed


def test_another_answer_on_a_listed_case_fails_naming_the_case_and_both_answers(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out = _cli(tmp_path, "the second text", capsys)
    assert code == 1
    block = out[out.index("CHANGED answers on listed cases (1;"):]
    assert f"standin  {BLANK}" in block
    assert 'listed   outcome="excluded", message="the first text"' in block
    assert 'got      outcome="excluded", message="the second text"' in block
    assert "FAIL: 0 unlisted disagreement(s), 1 changed listed answer(s)" in out
    code, out = _cli(tmp_path, "the second text", capsys, "--json")
    report = json.loads(out)
    assert code == 1 and not report["ok"] and not report["listed"] and not report["unlisted"]
    [changed] = report["changed"]
    assert changed["case"] == BLANK and changed["listedAnswer"] == {"outcome": "excluded", "message": "the first text"}
    assert changed["got"] == {"status": "ok", "outcome": "excluded", "message": "the second text"}
    assert changed["answerSource"] == "the stand-in's first answer (this test)"


def test_the_same_answer_from_the_cli_passes(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out = _cli(tmp_path, "the first text", capsys)
    assert code == 0 and "1 listed divergence(s)" in out and "0 changed listed answer(s)" in out


def test_a_field_the_listed_answer_lacks_or_a_null_for_a_text_is_another_answer() -> None:
    case = Case(BLANK, "engine-compatibility", {"constraint": "", "engineVersion": "0.12.0"},
                Expected({"outcome": "blank", "message": "engineCompatibility must not be blank"}), "test")
    impl = Implementation("standin", LIVE, ("x",))
    entry = Divergence("standin", BLANK, "a reason long enough", None, {"outcome": "excluded", "message": None})

    def classified(answer: dict[str, object]) -> Run:
        results = evaluate(impl, [case], [{"id": BLANK, "status": "ok", **answer}])
        return classify(Run([impl], ["engine-compatibility"], results, [entry]))

    assert classified({"outcome": "excluded", "message": None}).ok
    assert not classified({"outcome": "excluded", "message": ""}).ok  # "" is not null
    assert classified({"outcome": "excluded", "message": None, "code": "x"}).changed  # a code added


def _vector_case() -> Case:
    return Case("features/test/p", "features", {"schemaId": "kcp-13", "fen": "8/8/8/8/8/8/8/8 w - -", "side": "w"},
                Expected({"vector": [1.0, 2.0]}), "test")


def test_a_listed_vector_is_compared_as_float32_bits() -> None:
    case, impl = _vector_case(), Implementation("standin", LIVE, ("x",))
    entry = Divergence("standin", case.id, "a reason long enough", None, {"vector": [0.1, 2.0]})
    next_up = struct.unpack("<f", struct.pack("<I", struct.unpack("<I", struct.pack("<f", 0.1))[0] + 1))[0]

    def classified(vector: list[float]) -> Run:
        results = evaluate(impl, [case], [{"id": case.id, "status": "ok", "vector": vector}])
        return classify(Run([impl], ["features"], results, [entry]))

    float32_of_tenth = struct.unpack("<f", struct.pack("<f", 0.1))[0]
    assert classified([float32_of_tenth, 2.0]).ok  # 0.1 and its float32 are one value
    changed = classified([next_up, 2.0])
    assert not changed.ok and changed.changed[0][0].case.id == case.id
    assert "CHANGED answers on listed cases (1" in as_text(changed)


def test_every_committed_entry_lists_an_answer_from_a_recording() -> None:
    entries = load()
    assert entries and all(e.answer and len(e.source) >= 10 for e in entries)
    sources = {e.source.split(" ", 1)[0] for e in entries}
    assert sources <= {"golden/recorded/engine-compatibility-verdicts.json:", "golden/conformance/manifests.json:",
                       "golden/conformance/tensor-contract.json:", "golden/recorded/engine-live/README.md",
                       "golden/recorded/engine-live/conformance-engine-answers.jsonl.gz", "training"}, sources


@pytest.mark.parametrize("name", ["engine", "training", "service"])
def test_the_recorded_replay_gives_every_listed_answer(name: str) -> None:
    """Each recorded-mode entry's answer is what the replay of the recordings answers (none changed)."""
    outcome = run([Implementation(name, RECORDED)], load_cases(KINDS), KINDS, load())
    assert not outcome.changed and outcome.listed
    assert as_json(outcome)["changed"] == []


def test_the_console_names_differing_columns_in_float32_text_and_bits() -> None:
    """Issue 35's newcomer item: no whole vectors without column names, no float64 text on the got side."""
    case = Case("features/test/p", "features", {"schemaId": "kcp-13", "fen": "8/8/8/8/8/8/8/8 w - -", "side": "w"},
                Expected({"vector": [0.0] * 12 + [0.5]}), "test")
    impl = Implementation("standin", LIVE, ("x",))
    results = evaluate(impl, [case], [{"id": case.id, "status": "ok", "vector": [0.0] * 12 + [0.1]}])
    unlisted = as_text(classify(Run([impl], ["features"], results, [])))
    assert ("      vector of kcp-13: 13 values, 13 expected; 1 differing column(s) (float32 text and bits):\n"
            "        queen_capture_danger (#12): expected 0.5 0x3f000000, got 0.1 0x3dcccccd\n") in unlisted
    assert "0.1000000015" not in unlisted and "vector[13]=" not in unlisted
    entry = Divergence("standin", case.id, "a reason long enough", None, {"vector": [0.0] * 12 + [0.25]})
    changed = as_text(classify(Run([impl], ["features"], results, [entry])))
    assert "queen_capture_danger (#12): expected 0.5 0x3f000000, got 0.1 0x3dcccccd, listed 0.25 0x3e800000" in changed
