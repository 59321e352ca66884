"""``python -m contract extract`` and ``python -m contract bench``."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from jsonschema import Draft202012Validator

from contract.cli import main
from contract.cli.bench import format_report, run_bench
from contract.core import registry
from contract.features import backend, extract_rows
from contract.features.rows import BadRow, format_row

from .conftest import golden_probes, load_json

ROOT = Path(__file__).resolve().parents[2]


def test_fen_mode_prints_golden_text(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["extract", "--schema", "kcp-13", "--fen", "4k3/8/8/8/8/8/4r3/4K3 w - -"])
    out = capsys.readouterr().out
    assert code == 0
    assert out == ('{"id": "fen", "schema": "kcp-13", "features": [0.0, 0.0, 0.0, -1.0, 0.0, -5.0, 5.0, '
                   '-13.0, -2000.0, 0.0, 0.4212963, 0.0, 0.0]}\n')


def test_fen_mode_side_and_bad_fen(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["extract", "--schema", "rich-9-v1", "--fen",
                 "r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", "--side", "b"]) == 0
    assert json.loads(capsys.readouterr().out)["features"] == [0, -1, 0, 0, 0, -3, 75, -1, 0]
    assert main(["extract", "--schema", "kcp-13", "--fen", "8/8/8 w - -"]) == 1
    err = capsys.readouterr().err
    assert "placement" in err and "'8/8/8'" in err


def test_unknown_schema_is_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["extract", "--schema", "kcp-14", "--fen", "8/8/8/8/8/8/8/8 w - -"]) == 2
    assert "unknown featureSchema 'kcp-14'; known schemas: kcp-13," in capsys.readouterr().err


def test_jsonl_rows_bad_rows_do_not_stop_the_rest(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    probes = golden_probes()
    lines = [json.dumps({"id": p["id"], "fen": p["fen"], "side": p["side"]}) for p in probes[:3]]
    lines.insert(1, "{not json")
    lines.insert(2, "")
    lines.insert(3, json.dumps({"id": "bad-fen", "fen": "8/8/8/8/8/8/8/8 w KK -"}))
    lines.append(json.dumps({"id": 7, "fen": probes[6]["fen"], "side": "x"}))
    lines.append(json.dumps({"fen": probes[6]["fen"]}))
    lines.append(json.dumps({"id": "last", "fen": probes[6]["fen"]}))
    source = tmp_path / "rows.jsonl"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    # single-process path (stdout); --input with --output is the bulk path of contract.enrichment
    code = main(["extract", "--schema", "kcp-13", "--input", str(source)])
    assert code == 1
    captured = capsys.readouterr()
    err = captured.err.splitlines()
    out_lines = captured.out.splitlines()
    assert err[0].startswith("extract: line 2: not valid JSON")
    assert err[1].startswith("extract: line 4 (id 'bad-fen'): bad FEN castling 'KK'")
    assert err[2].startswith("extract: line 7 (id 7): bad side 'x'")
    assert err[3].startswith("extract: line 8: row has no 'id'")
    rows = [json.loads(line) for line in out_lines]
    assert [r["id"] for r in rows] == [p["id"] for p in probes[:3]] + ["last"]
    golden = {p["id"]: p["features"] for p in load_json("kcp-13.engine-0.12.0.json")["probes"]}
    for row in rows[:3]:
        assert row["schema"] == "kcp-13"
        assert np.array(row["features"], dtype=np.float32).tobytes() == np.array(
            golden[row["id"]], dtype=np.float32).tobytes()
    # the output text is the golden's text
    raw = out_lines[0]
    assert raw.endswith("[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 78.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]}")


def test_extract_rows_is_reusable() -> None:
    rows = [{"id": "a", "fen": "4k3/8/8/8/8/8/4R3/K7 w - -"}, BadRow("unreadable", id="b"), 5]
    results = list(extract_rows("kcp-13", rows))
    assert [r.ok for r in results] == [True, False, False]
    assert [r.index for r in results] == [0, 1, 2]
    assert results[1].error == "unreadable" and results[1].id == "b"
    assert format_row("kcp-13", results[0]).startswith('{"id": "a", "schema": "kcp-13", "features": [')
    with pytest.raises(KeyError, match="unknown featureSchema 'nope'"):
        list(extract_rows("nope", rows))


def test_module_entry_point_runs() -> None:
    proc = subprocess.run([sys.executable, "-m", "contract", "extract", "--schema", "material-7-v1", "--fen",
                           "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"],
                          capture_output=True, text=True, cwd=ROOT, check=False)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["features"] == [0, 0, 0, 0, 0, 0, 78]


def test_bench_report_structure() -> None:
    report = run_bench("kcp-13", repeat=1, warmup=0)
    assert report["probes"]
    assert report["goldenMismatches"] == []
    assert all(p["goldenMatch"] is True for p in report["probes"])
    assert report["totalEngineMs"] == pytest.approx(49.302, abs=1e-3)
    assert all(p["ratio"] is not None for p in report["probes"])
    text = format_report(report)
    assert "start-w" in text and "total (sum of medians)" in text


def test_bench_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--schema", "raw-board-768-v1", "--repeat", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["schema"] == "raw-board-768-v1" and report["totalEngineMs"] is None
    assert main(["bench", "--schema", "nope", "--repeat", "1"]) == 2


def _throughput_schema() -> Draft202012Validator:
    return Draft202012Validator(json.loads((ROOT / "schema" / "output-bench-throughput-1.schema.json").read_text()))


def test_bench_throughput_json_names_the_backend_and_quotes_the_engine_figures(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--throughput", "--positions", "30", "--runs", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert list(_throughput_schema().iter_errors(report)) == []
    assert report["outputVersion"] == 1 and report["positions"] == 30 and report["mismatches"] == []
    rows = {row["schema"]: row for row in report["schemas"]}
    assert set(rows) == set(registry.schema_ids())
    # the engine's figures as its recording's README states them (golden/recorded/engine-live/README.md)
    assert {s: r["engineRowsPerSecond"] for s, r in rows.items() if r["engineRowsPerSecond"] is not None} == {
        "kcp-13": 149, "kcp-mobility-pawns-31-v1": 153, "rich-9-v1": 620_344, "raw-board-768-v1": 1_962_426}
    native = report["backend"].startswith("native")
    assert all((row["nativeRowsPerSecond"] is not None) is native for row in rows.values())
    assert all(row["pythonRowsPerSecond"] > 0 for row in rows.values())


@pytest.mark.usefixtures("restore_backend_after")
def test_bench_and_extract_refuse_a_backend_they_cannot_use_in_one_line(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(backend.ENV, "fortran")
    backend.reset()
    assert main(["bench", "--throughput", "--positions", "5", "--runs", "1"]) == 2
    assert capsys.readouterr().err == ("bench: DICECHESS_BACKEND must be 'native' or 'python' (or unset), "
                                       "not 'fortran'\n")
    assert main(["extract", "--schema", "kcp-13", "--fen", "4k3/8/8/8/8/8/4r3/4K3 w - -"]) == 2
    assert capsys.readouterr().err == ("extract: DICECHESS_BACKEND must be 'native' or 'python' (or unset), "
                                       "not 'fortran'\n")


@pytest.fixture
def restore_backend_after() -> Iterator[None]:
    yield
    backend.reset()


def test_format_row_writes_every_recorded_value_as_float32_text_does() -> None:
    from contract.core.floattext import float32_text
    from contract.features.rows import RowResult
    from contract.recordings import enginelive

    recorded = enginelive.read(ROOT / enginelive.VECTORS_FILE)
    values = sorted({b for p in recorded for s in ("kcp-mobility-pawns-31-v1", "rich-pdi-11-v1") for b in p.bits[s]})
    vector = np.array([*values, 0, 0x80000000], dtype=np.uint32).view(np.float32)  # and 0.0, -0.0
    expected = ", ".join(float32_text(v) for v in vector)
    for _pass in range(2):  # the second pass reads the remembered texts
        line = format_row("kcp-13", RowResult(0, "x", vector))
        assert line == f'{{"id": "x", "schema": "kcp-13", "features": [{expected}]}}'
    assert "-0.0" in expected.split(", ")


def test_format_rows_writes_each_id_as_json_dumps_does() -> None:
    from contract.features.rows import RowResult, format_rows

    class Text(str):
        pass

    ids: list[object] = ["a", "é", "\ud800", 'q"\\\n\x00', "中文", 0, -7, 10**40, Text("sub"), 2**63]
    vector = np.array([0.5, -0.0], dtype=np.float32)
    lines = format_rows("rich-9-v1", [RowResult(i, row_id, vector) for i, row_id in enumerate(ids)])
    assert lines == [f'{{"id": {json.dumps(row_id)}, "schema": "rich-9-v1", "features": [0.5, -0.0]}}'
                     for row_id in ids]
    assert [format_row("rich-9-v1", RowResult(0, row_id, vector)) for row_id in ids] == lines
    with pytest.raises(ValueError, match="has no features"):
        format_rows("rich-9-v1", [RowResult(0, "x", vector), RowResult(1, "y", None, "bad")])
