"""``check-data`` on extract outputs, on bad input (one line, never a traceback) and bad arguments (exit 2)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from checkdata_data import EXAMPLE, check, enriched, live_positions, pa, pq

from contract.cli import main


def _extract_inputs(tmp: Path, count: int = 20) -> tuple[Path, Path]:
    positions = live_positions(count)
    table = pa.table({"id": [f"r{i}" for i in range(count)], "fen": [p.fen for p in positions],
                      "side": [p.side for p in positions]})
    parquet = tmp / "in.parquet"
    pq.write_table(table, parquet)
    lines = tmp / "in.jsonl"
    lines.write_text("".join(json.dumps({"id": i, "fen": p.fen, "side": p.side}) + "\n"
                             for i, p in enumerate(positions)), "utf-8")
    return parquet, lines


def test_extract_outputs_hold_and_a_jsonl_without_fens_is_checked_up_to_its_columns(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    parquet, lines = _extract_inputs(tmp_path)
    out = tmp_path / "ex"
    out.mkdir()
    assert main(["extract", "--schema", "kcp-13", "--input", str(parquet), "--output", str(out / "a.parquet"),
                 "--quiet"]) == 0
    assert main(["extract", "--schema", "kcp-13", "--input", str(lines), "--output", str(out / "b.jsonl"),
                 "--quiet"]) == 0
    code, _, err = check(capsys, EXAMPLE, out / "a.parquet", "--recompute", "all")
    assert code == 0, err
    assert "a.parquet: ok (parquet, kcp-13, engine 0.12.0, none stated; 20 of 20 rows recomputed" in err
    code, _, err = check(capsys, EXAMPLE, out)  # the directory: its rejects files and sidecar are not data
    assert code == 1
    assert f"{out / 'b.jsonl'}: no 'fen' column: its rows cannot be recomputed" in err
    assert "rejects" not in err
    assert check(capsys, EXAMPLE, out, "--recompute", "0")[0] == 0
    # the user kept the FENs beside extract's lines: the rows are recomputed from them
    joined = tmp_path / "joined.jsonl"
    fens = [json.loads(line) for line in lines.read_text("utf-8").splitlines()]
    rows = [json.loads(line) for line in (out / "b.jsonl").read_text("utf-8").splitlines()]
    joined.write_text("".join(json.dumps({**row, "fen": fen["fen"], "side": fen["side"]}) + "\n"
                              for row, fen in zip(rows, fens, strict=True)), "utf-8")
    code, _, err = check(capsys, EXAMPLE, joined, "--recompute", "all")
    assert code == 0, err
    rows[5]["features"][2] = "0.1"  # not a number
    joined.write_text("".join(json.dumps({**row, "fen": fen["fen"], "side": fen["side"]}) + "\n"
                              for row, fen in zip(rows, fens, strict=True)), "utf-8")
    code, _, err = check(capsys, EXAMPLE, joined, "--recompute", "all")
    assert code == 1
    assert "row 6 (id 5): 'features'[2] = '0.1' is not a number within float32's range" in err


@pytest.mark.parametrize(("name", "content", "message"), [
    ("cut.parquet", None, "cannot be read: not a readable Parquet file"),
    ("text.parquet", b"not parquet at all", "cannot be read: not a readable Parquet file"),
    ("zipped.jsonl", gzip.compress(b'{"id": 1}\n'), "cannot be read: not JSONL: gzip-compressed"),
    ("words.jsonl", b"hello\n", "cannot be read: not JSONL: line 1 holds no JSON object"),
    ("badfen.jsonl", b'{"id": 1, "schema": "kcp-13", "fen": "nonsense", "features": [0,0,0,0,0,0,0,0,0,0,0,0,0]}\n',
     "row 1 (id 1): the FEN cannot be recomputed: bad FEN 'nonsense'"),
    ("plain.parquet", "plain", "names no feature schema (no feature_schema or dicechess.enrichment metadata"),
])
def test_bad_input_is_one_line_naming_the_file_never_a_traceback(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, content: bytes | str | None,
        message: str) -> None:
    path = tmp_path / name
    if content is None:
        shard = enriched(tmp_path, count=10, shards=1) / "part-0.parquet"
        path.write_bytes(shard.read_bytes()[:2000])
    elif content == "plain":
        pq.write_table(pa.table({"fen": ["x"]}), path)
    else:
        assert isinstance(content, bytes)
        path.write_bytes(content)
    code, _, err = check(capsys, EXAMPLE, path)
    assert code == 1
    assert f"check-data: {path}: {message}" in err
    assert "Traceback" not in err
    assert len([line for line in err.splitlines() if str(path) in line]) == 1


def test_a_fen_that_does_not_parse_in_a_shard_is_named_by_game_and_ply(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shard = enriched(tmp_path, count=12, shards=1) / "part-0.parquet"
    table = pq.read_table(shard)
    fens = table.column("fen").to_pylist()
    fens[10] = "8/8/8/8 w - -"
    bad = tmp_path / "bad.parquet"
    pq.write_table(table.set_column(2, table.schema.field(2), pa.array(fens, pa.string())), bad)
    code, _, err = check(capsys, EXAMPLE, bad, "--recompute", "all")
    assert code == 1
    assert f"{bad}: row 11 (game 's0g1' ply 1): the FEN cannot be recomputed: bad FEN" in err


@pytest.mark.parametrize("arguments", [
    ["{example}", "{tmp}/nothere.parquet"],
    ["{tmp}", "{tmp}"],
    ["{example}", "{tmp}/empty"],
    ["{example}", "{example}/manifest.json"],
    ["{example}", "{tmp}", "--recompute", "-3"],
    ["{example}", "{tmp}", "--recompute", "some"],
    ["{example}", "{tmp}", "--jobs", "0"],
    ["{example}", "{tmp}", "--engine-version", "9.9.9"],
    ["{example}", "{tmp}/spark"],
])
def test_usage_errors_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], arguments: list[str]) -> None:
    (tmp_path / "empty").mkdir()
    (tmp_path / "x.parquet").write_bytes(b"")
    (tmp_path / "spark" / "part.parquet").mkdir(parents=True)  # a directory named like a shard
    code, _, err = check(capsys, *(a.format(example=EXAMPLE, tmp=tmp_path) for a in arguments))
    assert code == 2
    assert "Traceback" not in err and err.strip()


def test_a_refused_run_prints_its_json_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from checkdata_data import output_schema
    jsonschema = pytest.importorskip("jsonschema")
    code, text, _ = check(capsys, tmp_path, tmp_path, "--json")
    assert code == 2
    document = json.loads(text)
    jsonschema.Draft202012Validator(output_schema()).validate(document)
    assert document["code"] == "data.package.refused" and document["ok"] is False


@pytest.mark.slow
def test_two_jobs_give_the_verdict_of_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = enriched(tmp_path, count=15, shards=3)
    one = json.loads(check(capsys, EXAMPLE, out, "--json")[1])
    two = json.loads(check(capsys, EXAMPLE, out, "--json", "--jobs", "2")[1])
    assert one == two and one["ok"] is True


def test_an_entry_named_like_a_shard_that_is_no_file_is_named_not_skipped(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = enriched(tmp_path, count=5, shards=1)
    (out / "part-9.parquet").mkdir()  # Spark writes a directory of part files under a shard's name
    code, _, err = check(capsys, EXAMPLE, out)
    assert code == 2
    assert f"check-data: {out / 'part-9.parquet'}: not a regular file (DATA names data files" in err


def test_text_cells_that_are_not_utf8_in_an_extract_output_are_named_never_a_traceback(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    parquet, _ = _extract_inputs(tmp_path, count=6)
    table = pq.read_table(parquet)
    for column, row in (("fen", 2), ("id", 4)):
        values = [text.encode() for text in table.column(column).to_pylist()]
        values[row] = b"\xff" + values[row]
        index = table.schema.get_field_index(column)
        table = table.set_column(index, table.schema.field(index), pa.array(values, pa.binary()).view(pa.string()))
    raw = tmp_path / "raw.parquet"
    pq.write_table(table, raw)
    out = tmp_path / "out.parquet"
    assert main(["extract", "--schema", "kcp-13", "--input", str(raw), "--output", str(out), "--quiet"]) == 1
    enriched_rows = pq.read_table(out)  # extract rejected both rows; plant such cells, as a foreign writer might
    assert check(capsys, EXAMPLE, out, "--recompute", "all")[0] == 0
    for column, row, byte in (("fen", 0, b"\xfe"), ("id", 2, b"\xfd")):
        values = [text.encode() for text in enriched_rows.column(column).to_pylist()]
        values[row] = byte + values[row]
        index = enriched_rows.schema.get_field_index(column)
        enriched_rows = enriched_rows.set_column(index, enriched_rows.schema.field(index),
                                                 pa.array(values, pa.binary()).view(pa.string()))
    bad = tmp_path / "bad.parquet"
    pq.write_table(enriched_rows, bad)
    code, _, err = check(capsys, EXAMPLE, bad, "--recompute", "all")
    assert code == 1
    assert f"{bad}: row 1 (id 'r0'): fen is not UTF-8 (byte 0xfe at offset 0" in err
    assert "row 3" not in err  # an id that is not UTF-8 only names its row (its values are recomputed)
    assert "Traceback" not in err
