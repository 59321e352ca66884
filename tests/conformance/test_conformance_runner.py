"""The runner's behaviour: resolving implementations, comparing answers, the divergence bookkeeping,
and what happens with adapters that misbehave (wrong answers, crashes, garbage, wrong ids)."""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path

import pytest

from contract.conformance import __main__ as cli
from contract.conformance.corpus import Case, Expected, load_cases
from contract.conformance.divergences import Divergence, DivergenceFileError, load
from contract.conformance.report import as_json, as_text
from contract.conformance.runner import (
    LIVE,
    RECORDED,
    Implementation,
    Run,
    UsageError,
    classify,
    compare,
    evaluate,
    resolve,
    run,
)
from contract.core.resources import data_root

CASE = Case(
    id="engine-compatibility/test-one",
    kind="engine-compatibility",
    request={"constraint": ">=0.12.0", "engineVersion": "0.12.0"},
    expected=Expected({"outcome": "satisfied", "message": None}),
    source="test",
    recorded={"training": Expected({"outcome": "excluded"})},
)


def _fake_adapter(tmp_path: Path, body: str) -> tuple[str, ...]:
    """A Python adapter whose answer to each request is computed by ``body`` (a function of ``req``)."""
    script = tmp_path / "fake_adapter.py"
    script.write_text(
        "import json, sys\n"
        f"def reply(req):\n{body}\n"
        "for line in sys.stdin:\n"
        "    out = reply(json.loads(line))\n"
        "    if out is not None:\n"
        "        sys.stdout.write(out + '\\n'); sys.stdout.flush()\n",
        encoding="utf-8",
    )
    return (sys.executable, str(script))


# --- resolving --impl ----------------------------------------------------------------------------


def test_builtin_names_resolve_to_live_adapters() -> None:
    kit = resolve("kit", {})
    assert kit.mode == LIVE and kit.command[-1] == "contract.conformance.adapter"
    js = resolve("js", {})
    assert js.command[0] == "node" and js.command[1].endswith("js/src/adapter.js")


def test_external_names_are_recorded_unless_an_adapter_is_configured() -> None:
    assert resolve("training", {}) == Implementation("training", RECORDED)
    configured = resolve("training", {"DICECHESS_CONFORMANCE_TRAINING": "python -m my.adapter --flag"})
    assert configured == Implementation("training", LIVE, ("python", "-m", "my.adapter", "--flag"))
    forced = resolve("engine=recorded", {"DICECHESS_CONFORMANCE_ENGINE": "java -jar x.jar"})
    assert forced.mode == RECORDED


@pytest.mark.parametrize("spec", ["mystery", "kit=", "Bad=python x", "kit=recorded", "=python"])
def test_unresolvable_impls_are_usage_errors(spec: str) -> None:
    with pytest.raises(UsageError):
        resolve(spec, {})


def test_cli_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["run", "--impl", "mystery"]) == 2
    assert "unknown implementation" in capsys.readouterr().err
    assert cli.main(["run", "--impl", "training", "--kinds", "bogus"]) == 2
    assert cli.main(["run", "--impl", "training", "--impl", "training=recorded"]) == 2


# --- comparing ------------------------------------------------------------------------------------


def test_compare_requires_every_canonical_field_of_a_live_answer() -> None:
    assert compare(CASE.expected, {"status": "ok", "outcome": "satisfied", "message": None})[0] == "agree"
    assert compare(CASE.expected, {"status": "ok", "outcome": "satisfied", "message": "x"})[0] == "disagree"
    assert compare(CASE.expected, {"status": "unsupported"})[0] == "unsupported"
    assert compare(CASE.expected, {"status": "error", "message": "boom"})[0] == "disagree"
    assert compare(CASE.expected, {"status": "ok"})[0] == "disagree"  # nothing to compare is no agreement


def test_compare_prefix_and_vectors() -> None:
    prefix = Expected({"verdict": "refused", "message": "not valid JSON: "}, prefix=True)
    assert compare(prefix, {"status": "ok", "verdict": "refused", "message": "not valid JSON: x at 1"})[0] == "agree"
    assert compare(prefix, {"status": "ok", "verdict": "refused", "message": "manifest must be"})[0] == "disagree"
    vector = Expected({"vector": [0.1, -2.0, 78.0]})
    # 0.1 as float32 printed with float32's shortest repr still names the same float32
    assert compare(vector, {"status": "ok", "vector": [0.10000000149011612, -2, 78.0]})[0] == "agree"
    assert compare(vector, {"status": "ok", "vector": [0.1000001, -2.0, 78.0]})[0] == "disagree"
    assert compare(vector, {"status": "ok", "vector": [0.1, -2.0]})[0] == "disagree"
    assert compare(vector, {"status": "ok", "vector": [0.1, -2.0, 1e300]})[0] == "disagree"
    assert compare(Expected({"vector": [0.0]}), {"status": "ok", "vector": [-0.0]})[0] == "disagree"


def test_recorded_answers_compare_only_what_was_recorded() -> None:
    results = evaluate(Implementation("training", RECORDED), [CASE],
                       [{"id": CASE.id, "status": "ok", "outcome": "excluded"}])
    assert results[0].status == "disagree" and results[0].compared == ("outcome",)


# --- divergence bookkeeping -----------------------------------------------------------------------


def _run(entries: list[Divergence], answer: dict[str, object], mode: str = LIVE) -> Run:
    impl = Implementation("fake", mode, ("x",))
    results = evaluate(impl, [CASE], [{"id": CASE.id, **answer}])
    return classify(Run([impl], ["engine-compatibility"], results, entries))


def test_an_unlisted_disagreement_fails_and_a_listed_one_does_not() -> None:
    wrong = {"status": "ok", "outcome": "excluded", "message": "m"}
    assert not _run([], wrong).ok
    listed = _run([Divergence("fake", CASE.id, "because the spec says so")], wrong)
    assert listed.ok and len(listed.listed) == 1
    assert "because the spec says so" in as_text(listed)


def test_a_listed_divergence_that_now_agrees_is_stale_and_fails() -> None:
    right = {"status": "ok", "outcome": "satisfied", "message": None}
    stale = _run([Divergence("fake", CASE.id, "an old excuse")], right)
    assert not stale.ok and stale.stale[0].case == CASE.id
    assert "STALE" in as_text(stale)
    ghost = _run([Divergence("fake", "engine-compatibility/no-such-case", "typo")], right)
    assert not ghost.ok and ghost.stale[0].case == "engine-compatibility/no-such-case"


def test_mode_limited_entries_and_unsupported_answers() -> None:
    wrong = {"status": "ok", "outcome": "excluded", "message": "m"}
    live_only = [Divergence("fake", CASE.id, "only when run live", "live")]
    assert _run(live_only, wrong, LIVE).ok
    assert not _run(live_only, wrong, RECORDED).ok
    unchecked = _run([Divergence("fake", CASE.id, "not answered here")], {"status": "unsupported"})
    assert unchecked.ok and len(unchecked.unchecked) == 1


def test_the_divergences_file_is_validated(tmp_path: Path) -> None:
    bad = tmp_path / "d.json"
    bad.write_text(json.dumps({"description": "x", "divergences": [{"implementation": "kit", "case": "c"}]}))
    with pytest.raises(DivergenceFileError, match="reason"):
        load(bad)
    twice = {"implementation": "kit", "case": "c", "reason": "a reason long enough"}
    bad.write_text(json.dumps({"description": "x", "divergences": [twice, twice]}))
    with pytest.raises(DivergenceFileError, match="listed twice"):
        load(bad)
    assert load()  # the committed file is valid


# --- adapters that misbehave ----------------------------------------------------------------------


def test_a_wrong_live_answer_fails_the_run_and_names_the_case(tmp_path: Path) -> None:
    cases = [c for c in load_cases(["engine-compatibility"]) if c.id.endswith("recorded-09")]
    command = _fake_adapter(tmp_path, "    return json.dumps({'id': req['id'], 'status': 'ok',"
                                      " 'outcome': 'satisfied', 'message': None})")
    outcome = run([Implementation("fake", LIVE, command)], cases, ["engine-compatibility"], [])
    assert not outcome.ok
    report = as_json(outcome)
    assert report["unlisted"][0]["case"] == "engine-compatibility/recorded-09"
    assert report["unlisted"][0]["expected"]["message"] == "engineCompatibility must not be blank"


def test_garbage_wrong_ids_and_crashes_become_error_answers(tmp_path: Path) -> None:
    cases = load_cases(["engine-compatibility"])[:3]
    garbage = _fake_adapter(tmp_path, "    return 'this is not json'")
    results = run([Implementation("fake", LIVE, garbage)], cases, ["engine-compatibility"], []).results
    assert all(r.got["status"] == "error" and "not JSON" in r.got["message"] for r in results)

    wrong_id = _fake_adapter(tmp_path, "    return json.dumps({'id': 'other', 'status': 'unsupported'})")
    results = run([Implementation("fake", LIVE, wrong_id)], cases, ["engine-compatibility"], []).results
    assert all(r.status == "disagree" and "out of order" in r.got["message"] for r in results)

    crash = _fake_adapter(tmp_path, "    sys.stderr.write('kaboom\\n'); sys.exit(3)")
    results = run([Implementation("fake", LIVE, crash)], cases, ["engine-compatibility"], []).results
    assert all("status 3" in r.got["message"] and "kaboom" in r.got["message"] for r in results)

    missing = run([Implementation("fake", LIVE, ("/nonexistent/adapter",))], cases,
                  ["engine-compatibility"], []).results
    assert all(r.got["status"] == "error" and "could not start" in r.got["message"] for r in missing)


def test_a_silent_adapter_times_out(tmp_path: Path) -> None:
    cases = load_cases(["engine-compatibility"])[:2]
    silent = _fake_adapter(tmp_path, "    return None")
    results = run([Implementation("fake", LIVE, silent)], cases, ["engine-compatibility"], [],
                  timeout=0.5).results
    assert all(r.got["status"] == "error" and "within 0.5 s" in r.got["message"] for r in results)


def test_protocol_violations_are_named(tmp_path: Path) -> None:
    cases = load_cases(["engine-compatibility"])[:1]
    sloppy = _fake_adapter(tmp_path, "    return json.dumps({'id': req['id'], 'status': 'ok',"
                                     " 'outcome': 'fine', 'message': None})")
    result = run([Implementation("fake", LIVE, sloppy)], cases, ["engine-compatibility"], []).results[0]
    assert result.got["status"] == "error" and "does not follow the protocol" in result.got["message"]


def test_the_documented_example_adapter_works(tmp_path: Path) -> None:
    doc = (data_root() / "docs" / "conformance.md").read_text(encoding="utf-8")
    block = doc.split("```python\n", 1)[1].split("```", 1)[0]
    assert "my_adapter.py" in block
    script = tmp_path / "my_adapter.py"
    script.write_text(block, encoding="utf-8")
    kinds = ["engine-compatibility", "manifest"]
    mine = resolve(f"mine={sys.executable} {script}")
    outcome = run([mine], load_cases(kinds), kinds, [])
    assert outcome.ok, as_text(outcome)
    statuses = {(r.case.kind, r.status) for r in outcome.results}
    assert statuses == {("engine-compatibility", "agree"), ("manifest", "unsupported")}


def test_the_training_adapter_runs_live_and_reproduces_the_recorded_python_column(
        monkeypatch: pytest.MonkeyPatch) -> None:
    double = Path(__file__).with_name("training_double")
    monkeypatch.setenv("PYTHONPATH", f"{double}{os.pathsep}{data_root()}")
    monkeypatch.setenv("DICECHESS_CONFORMANCE_TRAINING", f"{sys.executable} -m contract.conformance.training_adapter")
    training = resolve("training")
    assert training.mode == LIVE
    cases = [c for c in load_cases(["engine-compatibility"]) if "training" in c.recorded]
    assert len(cases) == 62
    outcome = run([training], cases, ["engine-compatibility"], [])
    for result in outcome.results:
        assert result.got["status"] == "ok", result.got
        assert result.got["outcome"] == result.case.recorded["training"].fields["outcome"], result.case.id
    # live, the training mirror's own texts show: e.g. its invalid-constraint suffix (§3.3, §9.8)
    by_id = {r.case.id: r for r in outcome.results}
    assert by_id["engine-compatibility/recorded-10"].got["message"] == (
        "invalid engineCompatibility '>=0.12'; expected e.g. '>=0.4.0 <0.5.0'")
    assert by_id["engine-compatibility/recorded-10"].status == "disagree"


def test_the_training_adapter_says_why_it_cannot_start(tmp_path: Path) -> None:
    if importlib.util.find_spec("dicechess_training") is not None:
        pytest.skip("dicechess_training is installed here: the adapter can start")
    command = (sys.executable, "-m", "contract.conformance.training_adapter")
    cases = load_cases(["engine-compatibility"])[:1]
    result = run([Implementation("training", LIVE, command)], cases, ["engine-compatibility"], []).results[0]
    assert result.got["status"] == "error"
    assert "cannot import dicechess_training.contracts.kcp13" in result.got["message"]
