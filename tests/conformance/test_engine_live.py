"""The live engine path: building adapters/jvm, falling back to the recordings, and the extractor differential.

The engine itself (com.fortemate:dicechess-engine_3) is not served by the registries this project's machines
reach (docs/engine-live.md), so these tests cover what holds without it: the reason printed when it cannot be
built, the recorded fallback, the Java protocol layer (built without the engine where Java and Maven exist),
and the differential's comparison and reporting.
"""

from __future__ import annotations

import json
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from contract.cli import conformance as cli
from contract.conformance import differential, engine_build
from contract.conformance.protocol import LiveAdapter
from contract.core import registry
from contract.core.resources import data_root

KIT_ADAPTER = f"{sys.executable} -m contract.conformance.adapter"
HAS_JVM = shutil.which("java") is not None and shutil.which("mvn") is not None

# What Maven 3.8.7 printed here on 2026-11-30 for `mvn -B -q package` in adapters/jvm (engine 0.12.0).
MAVEN_MISSING_ENGINE = (
    "[ERROR] Failed to execute goal on project engine-conformance-adapter: Could not resolve dependencies for"
    " project dev.dicechess-contract:engine-conformance-adapter:jar:1.0.0: com.fortemate:dicechess-engine_3:jar:"
    "0.12.0 was not found in https://repo.maven.apache.org/maven2 during a previous attempt. This failure was"
    " cached in the local repository and resolution is not reattempted until the update interval of central has"
    " elapsed or updates are forced -> [Help 1]\n[ERROR] \n"
)


def _no_jvm(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.delenv("JAVA_HOME", raising=False)


def test_java_home_wins_over_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    java = tmp_path / "bin" / "java"
    java.parent.mkdir()
    java.write_text("#!/bin/sh\n", encoding="utf-8")
    java.chmod(0o755)
    monkeypatch.setenv("JAVA_HOME", str(tmp_path))
    assert engine_build.java_command() == str(java)
    monkeypatch.setenv("JAVA_HOME", str(tmp_path / "not-a-jdk"))
    monkeypatch.setenv("PATH", "/nonexistent")
    assert engine_build.java_command() is None


def test_maven_reason_names_the_missing_engine() -> None:
    reason = engine_build.maven_reason(MAVEN_MISSING_ENGINE, "0.12.0")
    assert reason == ("Maven could not resolve com.fortemate:dicechess-engine_3:0.12.0: the repositories it"
                      " reaches (Maven Central) do not serve it")


def test_maven_reason_quotes_another_failure() -> None:
    output = "\x1b[1;31m[ERROR]\x1b[m COMPILATION ERROR : Foo.java:[3,1] class, interface expected\n"
    reason = engine_build.maven_reason(output, "0.9.3")
    assert reason == ("Maven could not build adapters/jvm for engine 0.9.3:"
                      " COMPILATION ERROR : Foo.java:[3,1] class, interface expected")


@pytest.mark.parametrize("version", ["0.12", "v0.12.0", "0.12.0-SNAPSHOT", "", "0.12.0 "])
def test_engine_version_must_be_a_release(version: str) -> None:
    with pytest.raises(engine_build.EngineVersionError, match=r"is not a release MAJOR\.MINOR\.PATCH"):
        engine_build.check_version(version)
    assert cli.main(["run", "--impl", "engine", "--engine-version", version]) == cli.EXIT_USAGE


def test_without_java_or_maven_the_reason_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    _no_jvm(monkeypatch)
    built = engine_build.build("0.12.0")
    assert not built.live
    assert built.reason == "java and mvn not found on PATH"


def test_run_falls_back_to_recorded_with_the_reason(monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    _no_jvm(monkeypatch)
    monkeypatch.delenv("DICECHESS_CONFORMANCE_ENGINE", raising=False)
    status = cli.main(["run", "--impl", "engine", "--engine-version", "0.12.0", "--kinds", "engine-compatibility"])
    out, err = capsys.readouterr()
    assert status == cli.EXIT_OK
    assert "engine: recorded (no live engine 0.12.0: java and mvn not found on PATH;" in err
    assert "engine          recorded  engine-compatibility" in out


@pytest.mark.slow
def test_an_adapter_command_wins_over_the_build(monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("DICECHESS_CONFORMANCE_ENGINE", KIT_ADAPTER)
    status = cli.main(["run", "--impl", "engine", "--engine-version", "0.12.0", "--kinds", "engine-compatibility",
                       "--json"])
    report = json.loads(capsys.readouterr().out)
    assert [(i["name"], i["mode"]) for i in report["implementations"]] == [("engine", "live")]
    assert status in (cli.EXIT_OK, cli.EXIT_FAILED)  # the kit is not the engine: listed entries may go stale


def test_forced_recorded_engine_is_not_built(monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(engine_build, "build", lambda *_a, **_k: pytest.fail("must not build"))
    status = cli.main(["run", "--impl", "engine=recorded", "--engine-version", "0.12.0",
                       "--kinds", "engine-compatibility"])
    assert status == cli.EXIT_OK
    assert "engine          recorded" in capsys.readouterr().out


# -- the differential ------------------------------------------------------------------------------------

def test_random_positions_are_reproducible_and_varied() -> None:
    first = list(differential.random_positions(60, 7))
    assert first == list(differential.random_positions(60, 7))
    assert first != list(differential.random_positions(60, 8))
    assert len(first) == 60 and len({p.fen for p in first}) > 50
    assert {p.side for p in first} == {"w", "b"}
    assert any(len(p.fen.split(" ")) == 7 for p in first)  # some carry a dice pool


def _flipped_adapter(tmp_path: Path) -> str:
    """An adapter that answers the kit's vector with the lowest bit of one kcp-13 column flipped."""
    script = tmp_path / "flipped_adapter.py"
    script.write_text(
        "import json, struct, sys\n"
        "from contract.conformance.adapter import answer\n"
        "for line in sys.stdin:\n"
        "    reply = answer(line)\n"
        "    request = json.loads(line)\n"
        "    if request.get('schemaId') == 'kcp-13' and reply.get('status') == 'ok':\n"
        "        bits = struct.unpack('<I', struct.pack('<f', reply['vector'][9]))[0] ^ 1\n"
        "        reply['vector'][9] = struct.unpack('<f', struct.pack('<I', bits))[0]\n"
        "    print(json.dumps(reply), flush=True)\n",
        encoding="utf-8")
    return f"{sys.executable} {script}"


def test_a_mismatch_names_position_schema_column_and_bits(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    status = cli.main(["differential", "--no-probes", "--positions", "3", "--schemas", "kcp-13,material-7-v1",
                       "--command", _flipped_adapter(tmp_path)])
    out = capsys.readouterr().out
    assert status == cli.EXIT_FAILED
    line = next(x for x in out.splitlines() if x.startswith("MISMATCH random 0 "))
    assert "schema kcp-13 column king_capture_attack (#9): kit 0x" in line
    kit_bits = int(line.split("kit 0x")[1][:8], 16)
    engine_bits = int(line.split("engine 0x")[1][:8], 16)
    assert kit_bits ^ engine_bits == 1
    assert "6 vectors compared: 3 bit-identical, 3 mismatched, 0 error(s)" in out
    assert out.rstrip().endswith("FAIL")


def test_identical_vectors_pass(capsys: pytest.CaptureFixture[str]) -> None:
    status = cli.main(["differential", "--no-probes", "--positions", "4", "--schemas", "rich-9-v1",
                       "--command", KIT_ADAPTER])
    out = capsys.readouterr().out
    assert status == cli.EXIT_OK, out
    assert "4 vectors compared: 4 bit-identical, 0 mismatched, 0 error(s)" in out


def test_errors_fail_and_nothing_compared_fails() -> None:
    kcp = registry.feature_schemas()["kcp-13"]
    probe = differential.Probe("p", "8/8/8/8/8/8/8/8 w - -", "w")
    tally = differential.Tally()
    differential.compare(probe, kcp, [0.0] * 13, {"id": "x", "status": "error", "message": "boom"}, tally)
    assert not tally.ok and tally.errors == ["ERROR p: '8/8/8/8/8/8/8/8 w - -' side w schema kcp-13: boom"]
    unsupported = differential.Tally()
    differential.compare(probe, kcp, [0.0] * 13, {"id": "x", "status": "unsupported"}, unsupported)
    assert unsupported.unsupported == 1 and not unsupported.ok  # nothing was compared


def test_an_error_message_is_kept_only_up_to_the_runs_text_limit() -> None:
    """Issue 22 audit: every error answer's message was kept whole (up to a 16 MiB line each, for
    thousands of positions); like the matrix run, the differential keeps 4,096 characters of it."""
    from contract.conformance.runner import TEXT_KEPT

    kcp = registry.feature_schemas()["kcp-13"]
    probe = differential.Probe("p", "8/8/8/8/8/8/8/8 w - -", "w")
    tally = differential.Tally()
    differential.compare(probe, kcp, [0.0] * 13, {"id": "x", "status": "error", "message": "b" * (8 << 20)}, tally)
    (kept,) = tally.errors
    assert len(kept) < TEXT_KEPT + 100 and kept.endswith(" more characters not kept]")
    assert kept.startswith("ERROR p: '8/8/8/8/8/8/8/8 w - -' side w schema kcp-13: bbbb")


def test_float32_bits() -> None:
    assert differential.float32_bits(1.0) == 0x3F800000
    assert differential.float32_bits(-0.0) == 0x80000000
    assert differential.float32_bits(0.1) == struct.unpack("<I", struct.pack("<f", 0.1))[0]


def test_without_a_live_engine_require_engine_skips_and_fails(monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    _no_jvm(monkeypatch)
    monkeypatch.delenv("DICECHESS_CONFORMANCE_ENGINE", raising=False)
    assert cli.main(["differential", "--require-engine"]) == cli.EXIT_FAILED
    assert capsys.readouterr().out == "SKIPPED: no live engine (java and mvn not found on PATH)\n"


def _replay(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    _no_jvm(monkeypatch)
    monkeypatch.delenv("DICECHESS_CONFORMANCE_ENGINE", raising=False)
    status = cli.main(["differential", *args])
    return status, capsys.readouterr().out


def test_without_a_live_engine_the_differential_replays_the_recording(monkeypatch: pytest.MonkeyPatch,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """issue 23: the engine's recorded vectors (golden/recorded/engine-live) stand in for the engine."""
    status, out = _replay(monkeypatch, capsys, "--positions", "40", "--schemas", "kcp-13,raw-board-768-v1,rich-9-v1")
    assert status == cli.EXIT_OK, out
    assert out.splitlines()[0].startswith("differential: the kit against the engine's recorded vectors (recorded:"
                                          " no live engine: java and mvn not found on PATH): 160 positions (120"
                                          " probes, 40 random")
    # the 3 engine-newest edge probes and their twins (issue 33) x 3 schemas: the rebuild never recorded them
    assert "462 vectors compared: 462 bit-identical, 0 mismatched, 0 error(s); 18 not recorded" in out
    assert out.rstrip().endswith("PASS")


def test_a_changed_extractor_fails_the_replay_naming_position_schema_column_and_bits(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import numpy as np

    from contract import features

    original = features.extract_fen

    def clamped(schema_id: str, fen: str, side: str) -> np.ndarray:  # type: ignore[type-arg]
        vector = original(schema_id, fen, side).copy()
        vector[9] = min(float(vector[9]), 0.25)  # king_capture_attack clamped
        return vector

    monkeypatch.setattr(features, "extract_fen", clamped)
    status, out = _replay(monkeypatch, capsys, "--no-probes", "--positions", "200", "--schemas", "kcp-13")
    assert status == cli.EXIT_FAILED and out.rstrip().endswith("FAIL")
    line = next(x for x in out.splitlines() if x.startswith("MISMATCH random "))
    assert " schema kcp-13 column king_capture_attack (#9): kit 0x" in line and " engine 0x" in line
    kit_bits, engine_bits = (int(line.split(f"{who} 0x")[1][:8], 16) for who in ("kit", "engine"))
    assert kit_bits == differential.float32_bits(0.25) and engine_bits != kit_bits
    assert " mismatched, 0 error(s); 0 not recorded" in out and "200 vectors compared" in out


def test_a_recording_of_another_position_is_stale_and_positions_beyond_it_are_not_recorded(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import dataclasses

    recorded = differential.recorded_positions()
    first = "random 0 (seed 20261130, game 1, turn 1)"
    assert first in recorded
    moved = {**recorded, first: dataclasses.replace(recorded[first], fen="8/8/8/8/8/8/8/K6k w - - 0 1")}
    monkeypatch.setattr(differential, "recorded_positions", lambda: moved)
    status, out = _replay(monkeypatch, capsys, "--no-probes", "--positions", "2", "--schemas", "rich-9-v1")
    assert status == cli.EXIT_FAILED
    assert f"STALE recording {first}: recorded for '8/8/8/8/8/8/8/K6k w - - 0 1' side" in out
    assert "2 vectors compared: 1 bit-identical, 0 mismatched, 1 error(s)" in out
    status, out = _replay(monkeypatch, capsys, "--no-probes", "--positions", "3", "--seed", "7",
                          "--schemas", "rich-9-v1")
    assert status == cli.EXIT_FAILED and "0 vectors compared: 0 bit-identical" in out and "3 not recorded" in out


@pytest.mark.slow
def test_the_default_differential_replays_every_recorded_vector(monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    status, out = _replay(monkeypatch, capsys)
    assert status == cli.EXIT_OK, out
    assert "14798 vectors compared: 14798 bit-identical, 0 mismatched, 0 error(s); 42 not recorded" in out


# -- the Java protocol layer (built without the engine) ---------------------------------------------------

@pytest.mark.slow
@pytest.mark.skipif(not HAS_JVM, reason="needs java and mvn")
def test_java_adapter_speaks_the_protocol_without_the_engine(capsys: pytest.CaptureFixture[str]) -> None:
    built = engine_build.build("0.12.0", without_engine=True)
    assert built.command is not None, built.reason
    command = " ".join(built.command)
    status = cli.main(["run", "--impl", f"jvm={command}", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert status == cli.EXIT_FAILED  # 'unsupported' to everything is never agreement (issue 22 H7)
    rows = report["matrix"]
    assert rows and all(r["unsupported"] == r["cases"] for r in rows)
    assert [s["kind"] for s in report["shortfalls"]] == [r["kind"] for r in rows]
    assert cli.main(["differential", "--no-probes", "--positions", "2", "--command", command]) == cli.EXIT_FAILED
    assert "14 unsupported by the engine" in capsys.readouterr().out
    request = {"id": "x", "kind": "features", "schemaId": "kcp-13", "fen": "8/8/8/8/8/8/8/8 w - -", "side": "w"}
    with LiveAdapter("jvm", built.command, 120) as adapter:  # another protocol major is refused, never guessed at
        assert adapter.ask({**request, "formatVersion": "2.0.0"}) == {
            "id": "x", "status": "error", "message": "request: formatVersion 2.0.0 is not one this adapter speaks: "
            "it speaks adapter-protocol format 1.x (docs/versioning.md)"}
        assert adapter.ask({**request, "formatVersion": "1.5.0"})["status"] == "unsupported"


# -- regenerate --from-engine -----------------------------------------------------------------------------

def test_regenerate_from_engine_refuses_without_a_live_engine(monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    from contract.cli import golden as golden_cli

    _no_jvm(monkeypatch)
    monkeypatch.delenv("DICECHESS_CONFORMANCE_ENGINE", raising=False)
    status = golden_cli.main(["--quiet", "--root", str(data_root()), "regenerate", "--from-engine", "0.12.0"])
    assert status == golden_cli.EXIT_FAILED
    assert capsys.readouterr().out == ("refused: no live engine 0.12.0 (java and mvn not found on PATH);"
                                       " nothing was written.\n")


@pytest.mark.slow
def test_regenerate_from_engine_refuses_a_differing_engine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    from contract.cli import golden as golden_cli

    monkeypatch.setenv("DICECHESS_CONFORMANCE_ENGINE", _flipped_adapter(tmp_path))
    status = golden_cli.main(["--quiet", "--root", str(data_root()), "regenerate", "--from-engine", "0.12.0"])
    out = capsys.readouterr().out
    assert status == golden_cli.EXIT_FAILED
    assert "MISMATCH golden/vectors/kcp-13.json start-w: " in out
    assert "column king_capture_attack (#9)" in out
    assert out.rstrip().endswith("nothing was written.")


# -- bench beside the live engine ---------------------------------------------------------------------------

def test_bench_falls_back_to_the_recorded_medians_with_the_reason(monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    from contract.cli import main as contract_main

    _no_jvm(monkeypatch)
    assert contract_main(["bench", "--schema", "rich-9-v1", "--repeat", "1", "--json",
                          "--engine-version", "0.12.0"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ("bench: engine: recorded medians (no live engine 0.12.0: java and mvn not found"
                            " on PATH)\n")
    assert json.loads(captured.out)["engineSource"].startswith("recorded medians: engine 0.9.3")


def test_bench_uses_live_medians_when_given() -> None:
    from contract.cli.bench import format_report, probes, run_bench

    medians = {p["id"]: 2.0 for p in probes()}
    report = run_bench("rich-9-v1", repeat=1, warmup=0, live_engine=(medians, "live engine X"))
    assert report["engineSource"] == "live engine X"
    assert report["totalEngineMs"] == pytest.approx(2.0 * len(medians))
    assert all(p["engineMedianMs"] == 2.0 for p in report["probes"])
    assert "engine: live engine X" in format_report(report)


@pytest.mark.slow
@pytest.mark.skipif(not HAS_JVM, reason="needs java and mvn")
def test_engine_timing_without_the_engine_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    from contract.conformance import engine_bench

    protocol_only = engine_build.build("0.12.0", without_engine=True)
    assert protocol_only.command is not None, protocol_only.reason
    monkeypatch.setattr(engine_build, "build", lambda *_a, **_k: protocol_only)
    probe = {"id": "start-w", "fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", "side": "w"}
    medians, why = engine_bench.engine_medians("kcp-13", [probe], "0.12.0", repeat=3, warmup=1)
    assert medians is None
    assert why == ("the engine cannot time start-w: the engine on the classpath has no extractor for feature"
                   " schema 'kcp-13'")


def test_adapter_dir_found_from_the_working_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    checkout = data_root()
    monkeypatch.setattr(engine_build, "data_root", lambda: tmp_path / "_data")  # as in an installed wheel
    monkeypatch.chdir(checkout)
    assert engine_build.adapter_dir() == checkout / "adapters" / "jvm"
    monkeypatch.chdir(tmp_path)
    assert engine_build.adapter_dir() == tmp_path / "_data" / "adapters" / "jvm"
    _no_jvm(monkeypatch)
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    (tmp_path / "bin").mkdir()
    for tool in ("java", "mvn"):
        (tmp_path / "bin" / tool).write_text("#!/bin/sh\nexit 1\n", encoding="utf-8")
        (tmp_path / "bin" / tool).chmod(0o755)
    built = engine_build.build("0.12.0")
    assert built.reason == (f"{tmp_path / '_data' / 'adapters' / 'jvm' / 'pom.xml'} does not exist"
                            " (adapters/ ships in a checkout, not in the wheel)")


# -- the manifest case's bytes reach the engine (a fake engine class records them) ------------------------

FAKE_ENGINE = {
    # scala.Option / scala.util.Left as the adapter's reflection reads them (Scala.option, Scala.either)
    "scala/Option.java": "package scala; public class Option { public final Object value;"
                         " Option(Object value) { this.value = value; } }",
    "scala/Option$.java": "package scala; public class Option$ { public static final Option$ MODULE$ = new Option$();"
                          " public Option apply(Object value) { return new Option(value); } }",
    "scala/util/Left.java": "package scala.util; public class Left { private final Object value;"
                            " public Left(Object value) { this.value = value; } public Object value() { return value; } }",
    # ModelPackage.loadFiles refuses with the hex of the manifest file's bytes: a byte dump, no engine
    "dicechess/engine/model/ModelPackage$.java": (
        "package dicechess.engine.model; import java.nio.file.*;"
        " public class ModelPackage$ { public static final ModelPackage$ MODULE$ = new ModelPackage$();"
        " public Object loadFiles(Path model, Path manifest, String engineVersion, scala.Option role) throws Exception {"
        " StringBuilder hex = new StringBuilder(); for (byte b : Files.readAllBytes(manifest))"
        " hex.append(String.format(\"%02x\", b & 0xff));"
        " return new scala.util.Left(manifest + \": bytes \" + hex); } }"),
}


@pytest.mark.slow
@pytest.mark.skipif(not HAS_JVM or shutil.which("javac") is None, reason="needs java, javac and mvn")
def test_the_jvm_adapter_hands_the_engine_the_cases_bytes(tmp_path: Path) -> None:
    """issue 23: the manifest text of a request reaches the engine as the case's bytes (a lone surrogate as
    ED A0 80, as the kit's adapter makes them), not re-encoded with a '?' in its place."""
    from contract.conformance.adapter import _manifest_bytes
    from contract.conformance.corpus import load_cases

    built = engine_build.build("0.12.0", without_engine=True)
    assert built.command is not None, built.reason
    sources = []
    for relative, text in FAKE_ENGINE.items():
        path = tmp_path / "src" / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        sources.append(str(path))
    classes = tmp_path / "fake-engine"
    javac = subprocess.run(["javac", "-d", str(classes), *sources], capture_output=True, text=True, check=False)
    assert javac.returncode == 0, javac.stderr
    java, flag, classpath, main = built.command
    command = (java, flag, f"{classpath}:{classes}", main)
    wanted = ["manifest/json-raw-lone-surrogate", "manifest/accepted-current", "manifest/model-id-nbsp"]
    cases = [case for case in load_cases(["manifest"]) if case.id in wanted]
    assert len(cases) == 3
    with LiveAdapter("jvm", command, 120) as adapter:
        for case in cases:
            got = adapter.ask(case.request_line())
            assert got["status"] == "ok" and got["verdict"] == "refused", got
            dumped = bytes.fromhex(str(got["message"]).rsplit("bytes ", 1)[1])
            assert dumped == _manifest_bytes(case.request["manifest"]), case.id
    lone = next(case for case in cases if case.id == wanted[0])
    assert b"\xed\xa0\x80" in _manifest_bytes(lone.request["manifest"])  # the case is about those bytes


def test_the_live_differential_has_an_overall_budget(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """issue 22 L6: --budget bounds all the engine's answers, not only each one."""
    script = tmp_path / "slow_engine.py"
    script.write_text("import sys, time\nfrom contract.conformance.adapter import answer\nimport json\n"
                      "for line in sys.stdin:\n    time.sleep(0.3)\n    print(json.dumps(answer(line)), flush=True)\n",
                      encoding="utf-8")
    status = cli.main(["differential", "--no-probes", "--positions", "20", "--schemas", "rich-9-v1",
                       "--command", f"{sys.executable} {script}", "--budget", "1.5"])
    out = capsys.readouterr().out
    assert status == cli.EXIT_FAILED and "the run's overall budget of 1.5 s (--budget)" in out
    assert cli.main(["differential", "--budget", "0"]) == cli.EXIT_USAGE
    assert "--budget 0: give a positive number of seconds" in capsys.readouterr().err
