"""The runner's behaviour: resolving implementations, comparing answers, the divergence bookkeeping,
and what happens with adapters that misbehave (wrong answers, crashes, garbage, wrong ids)."""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path

import pytest

from contract.cli import conformance as cli
from contract.conformance.corpus import Case, Expected, load_cases
from contract.conformance.divergences import Divergence, DivergenceFileError, load
from contract.conformance.report import as_json, as_text
from contract.conformance.runner import (
    LIVE,
    RECORDED,
    AdapterFailure,
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
    assert compare(CASE.expected, {"status": "error", "message": "boom"})[0] == "error"
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
    listed = _run([Divergence("fake", CASE.id, "because the spec says so", None, {"outcome": "excluded", "message": "m"},
                              "a test's recording")], wrong)
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
    live_only = [Divergence("fake", CASE.id, "only when run live", "live", {"outcome": "excluded", "message": "m"})]
    assert _run(live_only, wrong, LIVE).ok
    assert not _run(live_only, wrong, RECORDED).ok
    unchecked = _run([Divergence("fake", CASE.id, "not answered here")], {"status": "unsupported"})
    assert unchecked.ok and len(unchecked.unchecked) == 1


def test_the_divergences_file_is_validated(tmp_path: Path) -> None:
    bad = tmp_path / "d.json"
    version = {"formatVersion": "2.0.0"}
    bad.write_text(json.dumps({**version, "description": "x", "divergences": [{"implementation": "kit", "case": "c"}]}))
    with pytest.raises(DivergenceFileError, match="reason"):
        load(bad)
    twice = {"implementation": "kit", "case": "c", "reason": "a reason long enough",
             "answer": {"verdict": "refused", "message": "m"}, "answerSource": "a test's own answer"}
    bad.write_text(json.dumps({**version, "description": "x", "divergences": [twice, twice]}))
    with pytest.raises(DivergenceFileError, match="listed twice"):
        load(bad)
    bad.write_text(json.dumps({"formatVersion": "1.0.0", "description": "x", "divergences": []}))
    with pytest.raises(DivergenceFileError, match=re.escape(f"{bad}: formatVersion 1.0.0 is not one this kit reads: "
                                                           "it reads conformance-divergences format 2.x")):
        load(bad)
    without_answer = {k: v for k, v in twice.items() if k != "answer"}  # a 1.x entry under a 2.x version
    bad.write_text(json.dumps({**version, "description": "x", "divergences": [without_answer]}))
    with pytest.raises(DivergenceFileError, match="'answer' is a required property"):
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


def test_garbage_answers_become_error_answers_that_fail_the_run(tmp_path: Path) -> None:
    cases = load_cases(["engine-compatibility"])[:3]
    garbage = _fake_adapter(tmp_path, "    return 'this is not json'")
    outcome = run([Implementation("fake", LIVE, garbage)], cases, ["engine-compatibility"], [])
    assert all(r.status == "error" and "not JSON" in r.got["message"] for r in outcome.results)
    assert not outcome.ok and len(outcome.errors) == 3 and not outcome.unlisted


def test_an_error_answer_fails_the_run_even_when_its_case_is_listed() -> None:
    entry = Divergence("fake", CASE.id, "a listed divergence is no excuse for a crash")
    crashed = _run([entry], {"status": "error", "message": "KeyError: 'x'"})
    assert not crashed.ok and not crashed.listed and not crashed.stale
    assert [r.case.id for r in crashed.errors] == [CASE.id]
    assert "ERROR answers (1" in as_text(crashed) and "KeyError" in as_text(crashed)
    assert as_json(crashed)["errors"][0]["case"] == CASE.id


def _dead_run(tmp_path: Path, body: str, timeout: float = 120.0) -> str:
    cases = load_cases(["engine-compatibility"])[:50]
    with pytest.raises(AdapterFailure) as failure:
        run([Implementation("fake", LIVE, _fake_adapter(tmp_path, body))], cases, ["engine-compatibility"],
            [], timeout=timeout)
    return str(failure.value)


def test_an_adapter_that_dies_fails_the_run_at_once_with_its_stderr(tmp_path: Path) -> None:
    noisy = "".join(f"    sys.stderr.write('line {n}\\n')\n" for n in range(30))
    message = _dead_run(tmp_path, noisy + "    sys.stderr.write('kaboom\\n'); sys.exit(3)")
    assert "'fake'" in message and "engine-compatibility/recorded-00" in message and "status 3" in message
    assert message.count("kaboom") == 1 and "line 29" in message and "line 3\n" not in message  # a few lines
    assert len(message.splitlines()) <= 8


def test_wrong_ids_timeouts_and_missing_commands_stop_the_run(tmp_path: Path) -> None:
    assert "out of order" in _dead_run(tmp_path, "    return json.dumps({'id': 'other', 'status': 'unsupported'})")
    assert "within 0.5 s" in _dead_run(tmp_path, "    return None", timeout=0.5)
    with pytest.raises(AdapterFailure, match="could not start"):
        run([Implementation("fake", LIVE, ("/nonexistent/adapter",))], load_cases(["engine-compatibility"]),
            ["engine-compatibility"], [])


def test_a_dead_adapter_is_one_message_from_the_cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "dies.py"
    script.write_text("import sys\nsys.stderr.write('no module named mine\\n')\nsys.exit(1)\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert cli.main(["run", "--impl", f"mine={sys.executable} dies.py", "--kinds", "manifest"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("error:") == 1 and "no module named mine" in captured.err
    assert len(captured.err) < 1000


def test_adapters_start_in_the_callers_working_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "here.txt").write_text("found", encoding="utf-8")
    body = ("    text = open('here.txt').read()\n"
            "    return json.dumps({'id': req['id'], 'status': 'unsupported', 'message': text})")
    _fake_adapter(tmp_path, body)
    monkeypatch.chdir(tmp_path)
    relative = resolve(f"mine={sys.executable} fake_adapter.py")  # the README's relative form
    outcome = run([relative], load_cases(["engine-compatibility"])[:2], ["engine-compatibility"], [])
    assert [r.got["message"] for r in outcome.results] == ["found", "found"]


def test_protocol_violations_are_named(tmp_path: Path) -> None:
    cases = load_cases(["engine-compatibility"])[:1]
    sloppy = _fake_adapter(tmp_path, "    return json.dumps({'id': req['id'], 'status': 'ok',"
                                     " 'outcome': 'fine', 'message': None})")
    result = run([Implementation("fake", LIVE, sloppy)], cases, ["engine-compatibility"], []).results[0]
    assert result.got["status"] == "error" and "does not follow the protocol" in result.got["message"]


@pytest.mark.slow
def test_the_documented_example_adapter_works(tmp_path: Path) -> None:
    doc = (data_root() / "docs" / "conformance.md").read_text(encoding="utf-8")
    block = doc.split("```python\n", 1)[1].split("```", 1)[0]
    assert "my_adapter.py" in block
    script = tmp_path / "my_adapter.py"
    script.write_text(block, encoding="utf-8")
    kinds = ["engine-compatibility"]  # the example answers only this kind (docs: --kinds engine-compatibility)
    mine = resolve(f"mine={sys.executable} {script}")
    outcome = run([mine], load_cases(kinds), kinds, [])
    assert outcome.ok, as_text(outcome)
    statuses = {(r.case.kind, r.status) for r in outcome.results}
    assert statuses == {("engine-compatibility", "agree")}


def test_js_without_a_checkout_refuses_in_one_line_saying_what_to_pass(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """issue 25: from a wheel (no js/ beside the data) `--impl js` is a usage error naming what to pass,
    not a Node MODULE_NOT_FOUND stack."""
    from contract.conformance import runner

    monkeypatch.setattr(runner, "data_root", lambda: tmp_path)
    assert cli.main(["run", "--impl", "kit", "--impl", "js", "--kinds", "manifest"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.splitlines()) == 1
    assert captured.err.startswith(f"error: --impl js: the Node adapter is not installed with this kit ({tmp_path}")
    assert '--impl js="node CHECKOUT/js/src/adapter.js"' in captured.err and "npm ci" in captured.err


def test_js_without_its_npm_packages_says_to_run_npm_ci(tmp_path: Path) -> None:
    from contract.conformance.runner import js_problem

    if shutil.which("node") is None:
        pytest.skip("needs node")
    (tmp_path / "js" / "src").mkdir(parents=True)
    (tmp_path / "js" / "src" / "adapter.js").write_text("", encoding="utf-8")
    problem = js_problem(tmp_path)
    assert problem is not None and "node cannot find ajv/dist/2020" in problem
    assert f"npm ci --prefix {tmp_path / 'js'}" in problem
