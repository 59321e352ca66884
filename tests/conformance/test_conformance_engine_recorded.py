"""The engine's column of the matrix, complete (issue 23 part 2): its recorded live answer to every case
(golden/recorded/engine-live/conformance-engine-answers.jsonl.gz) is replayed, every difference from the
canonical answer is listed with its reason, and a recording made for another version of a case is stale."""

from __future__ import annotations

import dataclasses
import gzip
import json
import struct
from pathlib import Path

import pytest

from contract.conformance import recording
from contract.conformance.corpus import KINDS, compatibility_cases, load_cases, manifest_cases, tensor_cases
from contract.conformance.divergences import load
from contract.conformance.report import as_json, as_text
from contract.conformance.runner import RECORDED, Implementation, run

ENGINE = Implementation("engine", RECORDED)


def _bits(vector: list[float]) -> bytes:
    return struct.pack(f"<{len(vector)}f", *vector)


def _edge_probes() -> set[str]:
    """The engine-newest edge probes and their twins (issue 33): the engine rebuild never recorded them."""
    probes = json.loads((Path(__file__).resolve().parents[2] / "golden" / "probes.json").read_text("utf-8"))["probes"]
    edges = {p["id"] for p in probes if p["origin"].startswith("edge position of the newest")}
    return edges | {p["id"] for p in probes if p.get("twinOf") in edges}


def _unrecorded(case_id: str) -> bool:
    return case_id.startswith("features/vectors/") and case_id.rsplit("/", 1)[1] in _edge_probes()


def test_every_case_has_the_engines_recorded_answer() -> None:
    cases = load_cases()
    # but the edge probes' vectors: engine-live has no answer for them (golden check compares them with
    # engine-newest, and each vector's rules label says who recorded it)
    assert all(("engine" in case.recorded) != _unrecorded(case.id) and not case.stale for case in cases)
    cases = [case for case in cases if not _unrecorded(case.id)]
    live = [case.id for case in cases if case.recorded["engine"].source == recording.RECORDER]
    assert len(live) == len(recording.engine_answers()) == 1173  # every case of the kit at 7f9a987
    older = {case.recorded["engine"].source for case in cases if case.id not in set(live)}
    assert all(source.startswith("recorded/") for source in older)  # cases added since: their own recording


def test_the_recorded_engine_covers_every_case_with_each_difference_listed() -> None:
    outcome = run([ENGINE], load_cases(), KINDS, load())
    assert outcome.ok, as_text(outcome)
    assert not outcome.unlisted and not outcome.errors and not outcome.stale_recordings
    unsupported = [r.case.id for r in outcome.results if r.status == "unsupported"]
    assert len(unsupported) == 6 * 7 and all(_unrecorded(case_id) for case_id in unsupported)
    listed = sorted(result.case.id for result, entry in outcome.listed if entry.reason)
    assert listed == sorted([
        "manifest/json-duplicate-key", "manifest/json-infinity-overflow", "manifest/json-leading-zero",
        "manifest/json-raw-lone-surrogate", "manifest/legacy-defines-no-input-name",
        "manifest/legacy-defines-no-output-name", "manifest/order-legacy-input-name-before-width",
        "manifest/sha-number"])
    agree = sum(1 for r in outcome.results if r.status == "agree")
    assert agree == len(outcome.results) - 8 - len(unsupported)


def test_recorded_messages_are_compared_exactly() -> None:
    """The live recording carries the engine's own text, so a message differing by one character differs."""
    case = next(c for c in load_cases(["engine-compatibility"]) if c.expected.fields["message"])
    text = case.recorded["engine"].fields["message"]
    changed = dataclasses.replace(case, recorded={"engine": dataclasses.replace(
        case.recorded["engine"], fields={**case.recorded["engine"].fields, "message": text + "."})})
    result = run([ENGINE], [changed], ["engine-compatibility"], []).results[0]
    assert result.status == "disagree" and result.compared == ("outcome", "message")


def test_the_live_recording_agrees_with_every_older_engine_recording() -> None:
    """The 330 answers recorded before (verdicts file, the corpora's recorded entries, the engine's golden
    vectors) are what the live recording says, on every field they recorded."""
    answers = recording.engine_answers()
    from contract.conformance.corpus import feature_cases

    older = [c for c in compatibility_cases() + manifest_cases() + tensor_cases() + feature_cases()
             if "engine" in c.recorded and c.id in answers]
    assert len(older) >= 330
    for case in older:
        recorded = answers[case.id].answer
        for key, value in case.recorded["engine"].fields.items():
            if key == "vector":  # as float32 bit patterns, as every vector is compared
                assert _bits(recorded[key]) == _bits(value), case.id
            else:
                assert recorded[key] == value, (case.id, key)


def test_a_recording_of_a_changed_case_is_stale_and_fails_the_run() -> None:
    cases = load_cases(["manifest"])
    changed = dataclasses.replace(cases[0], expected=dataclasses.replace(
        cases[0].expected, fields={**cases[0].expected.fields, "message": "another text"}))
    applied = recording.apply([changed, *cases[1:]])
    assert "engine" not in applied[0].recorded and "re-record" in applied[0].stale["engine"]
    outcome = run([ENGINE], applied, ["manifest"], load())
    assert not outcome.ok and [s.case for s in outcome.stale_recordings] == [cases[0].id]
    result = next(r for r in outcome.results if r.case.id == cases[0].id)
    assert result.status == "unsupported" and result.got["message"].startswith("stale recording:")
    assert "STALE recordings (1;" in as_text(outcome)
    assert as_json(outcome)["staleRecordings"][0]["case"] == cases[0].id


def test_a_recording_of_a_case_the_corpus_lost_is_stale() -> None:
    cases = load_cases(["tensor-contract"])
    outcome = run([ENGINE], cases[1:], ["tensor-contract"], [])
    assert not outcome.ok
    assert [(s.case, s.why) for s in outcome.stale_recordings] == [
        (cases[0].id, "the corpus has no such case any more (remove or re-record it)")]
    kit_only = run([Implementation("engine", RECORDED)], cases, ["tensor-contract"], [])
    assert kit_only.ok


@pytest.mark.parametrize(("content", "says"), [
    (b"not gzip", "cannot be read as gzip"),
    (gzip.compress(b'{"case": "manifest/x", "kind": "manifest"}\n'), "line 1: 'engineAnswer' must be an object"),
    (gzip.compress(b"[" * 100 + b"]" * 100), "line 1: not valid JSON: nesting deeper than"),
    (gzip.compress(b""), "no answer recorded"),
    (gzip.compress(b'{"case": "a/x", "kind": "a", "engineAnswer": {"status": "ok"}, "expected": {}}\n' * 2),
     "line 2: case a/x is recorded twice"),
])
def test_an_unreadable_recording_is_one_message(tmp_path: Path, content: bytes, says: str) -> None:
    path = tmp_path / "answers.jsonl.gz"
    path.write_bytes(content)
    with pytest.raises(recording.RecordingError, match=r"conformance-engine-answers\.jsonl\.gz") as raised:
        recording.read(path)
    assert says in str(raised.value)


def _conforms(document: object) -> None:
    from jsonschema import Draft202012Validator

    from contract.core.resources import schema_dir

    schema = json.loads((schema_dir() / "output-conformance-run-1.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in Draft202012Validator(schema).iter_errors(document)]
    assert errors == []


def test_run_json_has_an_output_version_and_follows_its_schema(capsys: pytest.CaptureFixture[str]) -> None:
    """issue 25: `conformance run --json` starts with "outputVersion": 1 and validates against
    schema/output-conformance-run-1.schema.json, passing and failing alike."""
    from contract.cli import conformance as cli

    assert cli.main(["run", "--impl", "engine=recorded", "--impl", "training", "--json"]) == cli.EXIT_OK
    out = capsys.readouterr().out
    assert out.startswith('{\n  "outputVersion": 1,\n  "ok": true,')
    document = json.loads(out)
    _conforms(document)
    assert document["listed"] and all(entry["reason"] for entry in document["listed"])
    cases = load_cases(["tensor-contract"])
    changed = dataclasses.replace(cases[0], expected=dataclasses.replace(
        cases[0].expected, fields={**cases[0].expected.fields, "message": "another text"}))
    failing = run([ENGINE], recording.apply([changed, *cases[2:]]), ["tensor-contract"], load())
    document = json.loads(json.dumps(as_json(failing)))
    _conforms(document)
    assert document["ok"] is False and len(document["staleRecordings"]) == 2
