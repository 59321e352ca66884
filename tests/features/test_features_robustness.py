"""Hostile input to the feature API and to ``extract`` without ``--output FILE``: a message, never a
traceback, a hang or a half-written file (review of 2026-11-29; each test names the defect it pins)."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import chess
import numpy as np
import pytest
from budget import share
from hypothesis import given, settings
from hypothesis import strategies as st

from contract.cli import main
from contract.core import registry
from contract.enrichment.formats.jsonl import MAX_LINE_BYTES
from contract.features import FenError, extract, extract_batch, extract_fen, extract_rows, parse_fen
from contract.features.dfen import QUOTE_LIMIT

from .conftest import golden_probes, golden_vectors

ROOT = Path(__file__).resolve().parents[2]
KINGS = "4k3/8/8/8/8/8/4r3/4K3 w - -"
# kcp-13 of KINGS for White, as the golden and the README print it (test_cli.py)
KINGS_KCP13 = ('{"id": "fen", "schema": "kcp-13", "features": [0.0, 0.0, 0.0, -1.0, 0.0, -5.0, 5.0, '
               '-13.0, -2000.0, 0.0, 0.4212963, 0.0, 0.0]}')


# -- parse_fen --------------------------------------------------------------------------------------
@pytest.mark.parametrize(("fen", "field"), [
    (f"{KINGS} {'1' * 5000} 1", "half-move clock"),  # was: ValueError from int() (4300-digit limit)
    (f"{KINGS} 0 {'9' * 5000}", "full-move number"),
    (f"{KINGS} 0 {'0' * 4999}2147483648", "full-move number"),
])
def test_a_counter_of_thousands_of_digits_is_a_fen_error(fen: str, field: str) -> None:
    with pytest.raises(FenError) as info:
        parse_fen(fen)
    assert info.value.field == field
    assert "must be between" in str(info.value)


def test_leading_zeros_of_any_length_still_read_as_the_number() -> None:
    position = parse_fen(f"{KINGS} {'0' * 5000}7 {'0' * 5000}2147483647")
    assert (position.halfmove, position.fullmove) == (7, 2147483647)  # Java parseInt's reading


def test_a_huge_fen_is_quoted_shortened_in_the_message_and_whole_in_text() -> None:
    placement = "k" * 100_000
    with pytest.raises(FenError) as info:
        parse_fen(placement + " w - -")
    message = str(info.value)
    assert len(message) < 300  # was 100,064 characters
    assert "(100,000 characters)" in message
    assert info.value.text == placement and info.value.field == "placement"
    with pytest.raises(FenError) as rank:
        parse_fen("1" * 70_000 + "/8/8/8/8/8/8/8 w - -")
    assert len(str(rank.value)) < 400 and "covers 70000 files" in str(rank.value)


def test_short_texts_are_quoted_whole() -> None:
    text = "x" * QUOTE_LIMIT
    with pytest.raises(FenError) as info:
        parse_fen(f"8/8/8/8/8/8/8/8 {text} - -")
    assert str(info.value) == f"bad FEN side {text!r}: expected 'w' or 'b'"


@pytest.mark.parametrize("fen", [
    KINGS.replace(" ", "\t"),
    KINGS.replace(" w ", "  w "),
    KINGS.replace(" ", "\n", 1),
])
def test_whitespace_other_than_single_spaces_is_named(fen: str) -> None:
    with pytest.raises(FenError, match="fields are separated by single spaces"):
        parse_fen(fen)


# -- extract / extract_fen / extract_batch ---------------------------------------------------------------
def test_extract_fen_takes_chess_colours_as_extract_does() -> None:
    """Was: ``extract_fen(..., side=chess.BLACK)`` refused as "bad FEN side 'False'"."""
    schema, _probe, fen, side, recorded = next(v for v in golden_vectors() if v[3] == "b")
    assert side == "b"
    black = extract_fen(schema, fen, chess.BLACK)  # type: ignore[arg-type]
    assert black.tobytes() == recorded.tobytes()
    white = next(v for v in golden_vectors() if v[3] == "w")
    vector = extract_fen(white[0], white[2], chess.WHITE)  # type: ignore[arg-type]
    assert vector.tobytes() == white[4].tobytes()
    with pytest.raises(FenError, match="bad FEN side '2': expected 'w' or 'b'"):
        extract_fen("kcp-13", KINGS, 2)  # type: ignore[arg-type]


@pytest.mark.parametrize("schema_id", sorted(registry.feature_schemas()))
def test_empty_batch_and_kingless_boards_have_the_registered_width(schema_id: str) -> None:
    width = registry.get(schema_id).width
    empty = extract_batch(schema_id, [])
    assert empty.shape == (0, width) and empty.dtype == np.float32
    for fen in ("8/8/8/8/8/8/8/8 w - -", "8/P7/8/8/8/8/p7/8 b KQkq a3h6 0 1 PNB",
                "P7/8/8/8/8/8/8/p7 w KQkq a1h8", "KKKKKKKK/KKKKKKKK/8/8/8/8/kkkkkkkk/kkkkkkkk b - -"):
        vector = extract_fen(schema_id, fen)
        assert vector.shape == (width,) and np.all(np.isfinite(vector))


# -- extract_rows ----------------------------------------------------------------------------------------
def test_row_messages_name_the_type_and_stay_short() -> None:
    results = list(extract_rows("kcp-13", [
        {"id": "a", "fen": 5},
        {"id": "b", "fen": KINGS, "side": ["w"]},
        {"id": ["x"] * 50_000, "fen": KINGS},
        list(range(50_000)),
        {"id": "ok", "fen": KINGS},
    ]))
    assert results[0].error == "'fen' must be a string, not 5"
    assert results[1].error == "bad side ['w']: expected 'w' or 'b'"
    assert results[2].error is not None and results[2].error.startswith("'id' must be a string or an integer")
    assert results[3].error is not None and results[3].error.startswith("row is not an object: [0, 1,")
    assert all(len(r.error or "") < 200 for r in results)
    assert results[4].ok


@pytest.mark.usefixtures("python_backend")
def test_an_extractor_bug_rejects_its_row_and_the_rest_go_on(monkeypatch: pytest.MonkeyPatch) -> None:
    real = extract

    def flaky(schema_id: str, position: Any, color: object, _rules: object = None) -> np.ndarray:
        if position.halfmove == 99:
            raise RuntimeError("boom")
        return real(schema_id, position, color)

    monkeypatch.setattr("contract.features.rows.extract_under", flaky)
    results = list(extract_rows("kcp-13", [{"id": 1, "fen": KINGS + " 99 1"}, {"id": 2, "fen": KINGS}]))
    assert results[0].error == "extraction failed: RuntimeError: boom"
    assert results[1].ok


# -- extract to stdout / --output FILE without the bulk path --------------------------------------------
def _stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


@pytest.mark.parametrize(("args", "message"), [
    (["--input", "{missing}"], "{missing}: no such input file"),
    (["--input", "{tmp}"], "{tmp}: is a directory, not an input file"),
    (["--fen", KINGS, "--output", "{tmp}"], "{tmp}: is a directory; the output must be a regular file or absent (to send rows to a device or a pipe, leave out --output and redirect stdout)"),
    (["--fen", KINGS, "--output", "{missing}/out.jsonl"], "{missing}: the output's directory does not exist"),
])
def test_unusable_paths_are_refused_with_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    """Were tracebacks (FileNotFoundError, IsADirectoryError)."""
    names = {"missing": str(tmp_path / "missing"), "tmp": str(tmp_path)}
    argv = ["extract", "--schema", "kcp-13", *(arg.format(**names) for arg in args)]
    assert main(argv) == 1
    assert capsys.readouterr().err == f"extract: {message.format(**names)}\n"


def test_a_missing_input_leaves_an_existing_output_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    output = tmp_path / "out.jsonl"
    output.write_text("previous\n")
    _stdin(monkeypatch, b"")
    assert main(["extract", "--schema", "kcp-13", "--input", str(tmp_path / "nope.jsonl")]) == 1
    assert main(["extract", "--schema", "kcp-13", "--fen", KINGS, "--output", str(output)]) == 1  # exists
    assert output.read_text() == "previous\n"
    assert main(["extract", "--schema", "kcp-13", "--fen", KINGS, "--output", str(output), "--overwrite"]) == 0
    assert output.read_text() == KINGS_KCP13 + "\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.jsonl"]  # no temporary file left
    capsys.readouterr()


@pytest.mark.usefixtures("python_backend")
def test_an_interrupted_run_keeps_the_previous_output_and_exits_130(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Was: the output truncated at once and left half-written, and a KeyboardInterrupt traceback."""
    output = tmp_path / "out.jsonl"
    output.write_text("previous\n")
    _stdin(monkeypatch, b"".join(json.dumps({"id": i, "fen": KINGS}).encode() + b"\n" for i in range(5)))
    real = extract
    calls = []

    def interrupted(schema_id: str, position: Any, color: object, _rules: object = None) -> np.ndarray:
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(schema_id, position, color)

    monkeypatch.setattr("contract.features.rows.extract_under", interrupted)
    assert main(["extract", "--schema", "kcp-13", "--input", "-", "--output", str(output), "--overwrite"]) == 130
    assert capsys.readouterr().err == f"extract: interrupted; {output} was not written\n"
    assert output.read_text() == "previous\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.jsonl"]


def test_a_closed_stdout_ends_the_run_quietly(capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Was: ``extract … | head -1`` printed a BrokenPipeError traceback."""

    class ClosedPipe(io.StringIO):
        def write(self, text: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

    _stdin(monkeypatch, json.dumps({"id": 1, "fen": KINGS}).encode() + b"\n")
    monkeypatch.setattr(sys, "stdout", ClosedPipe())
    assert main(["extract", "--schema", "kcp-13", "--input", "-"]) == 1
    assert capsys.readouterr().err == ""


def test_stdin_lines_read_as_the_bulk_path_reads_them(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Was: text-mode stdin (a UnicodeDecodeError traceback on a non-UTF-8 byte, ``\\r`` as a line end,
    a different BOM message) and whole over-long lines in memory. Now the same lines, numbers and
    messages as the rejects file of ``--input FILE --output FILE``."""
    good = json.dumps({"id": "good", "fen": KINGS}).encode()
    data = b"\n".join([
        b"\xef\xbb\xbf" + good,
        good.replace(b"good", b"crlf") + b"\r",
        b"",
        b'{"id":"latin1","fen":"\xe9"}',
        good.replace(b"good", b"cr1") + b"\r" + good.replace(b"good", b"cr2"),
        b'{"id":"long","fen":"' + b"k" * MAX_LINE_BYTES + b'"}',
        b'{"id":"lone\\ud800","fen":"x"}',
        good,
    ]) + b"\n"
    _stdin(monkeypatch, data)
    assert main(["extract", "--schema", "kcp-13", "--input", "-"]) == 1
    captured = capsys.readouterr()
    assert [json.loads(line)["id"] for line in captured.out.splitlines()] == ["crlf", "good"]
    source = tmp_path / "in.jsonl"
    source.write_bytes(data)
    assert main(["extract", "--schema", "kcp-13", "--input", str(source), "--output",
                 str(tmp_path / "out.jsonl"), "--quiet"]) == 1
    capsys.readouterr()
    rejects = [json.loads(line) for line in (tmp_path / "out.jsonl.rejects.jsonl").read_text().splitlines()]
    assert [r["line"] for r in rejects] == [1, 4, 5, 6, 7]
    idents = ["" if r["id"] is None else f" (id {r['id']!r})" for r in rejects]
    expected = [f"extract: line {r['line']}{ident}: {r['error']}" for r, ident in zip(rejects, idents, strict=True)]
    assert captured.err.splitlines() == expected
    assert rejects[0]["error"] == "not valid JSON: starts with a UTF-8 byte-order mark"
    assert rejects[1]["error"] == "not valid JSON: not UTF-8 text (byte 22)"
    assert rejects[3]["error"] == f"line longer than {MAX_LINE_BYTES} bytes (not read)"


def test_parquet_streams_to_stdout_and_fen_rows_to_a_parquet_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Was a usage error ("stdout is JSONL", "Parquet needs --input FILE.parquet"): one pipeline now
    serves every pairing of JSONL and Parquet, streams included."""
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    source = tmp_path / "games.parquet"
    pq.write_table(pa.table({"id": ["k", "bad"], "fen": [KINGS, "nonsense"]}), source)
    assert main(["extract", "--schema", "kcp-13", "--input", str(source)]) == 1
    captured = capsys.readouterr()
    assert captured.out == KINGS_KCP13.replace('"fen"', '"k"') + "\n"
    assert captured.err.startswith("extract: row 2 (id 'bad'): ")
    output = tmp_path / "out.parquet"
    assert main(["extract", "--schema", "kcp-13", "--fen", KINGS, "--output", str(output)]) == 0
    table = pq.read_table(output)
    assert table.column("id").to_pylist() == ["fen"]
    assert table.column("features").to_pylist() == [
        [float(np.float32(value)) for value in json.loads(KINGS_KCP13)["features"]]]


def test_compressed_input_is_refused_as_a_whole(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Was: one "not valid JSON" line per line of gzip bytes."""
    source = tmp_path / "rows.jsonl.gz"
    source.write_bytes(b"\x1f\x8b\x08\x00" + bytes(range(200)) * 20)
    assert main(["extract", "--schema", "kcp-13", "--input", str(source)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"extract: {source}: not JSONL text: this is gzip-compressed (decompress it first")
    assert err.count("\n") == 1


def test_output_dash_is_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["extract", "--schema", "kcp-13", "--fen", KINGS, "--output", "-"]) == 0
    assert capsys.readouterr().out == KINGS_KCP13 + "\n"


def test_ctrl_c_on_a_stdout_run_prints_one_line_and_exits_130(tmp_path: Path) -> None:
    """A real SIGINT to ``python -m contract extract --input FILE`` (was: a KeyboardInterrupt traceback)."""
    probes = golden_probes()
    source = tmp_path / "rows.jsonl"
    source.write_text("".join(json.dumps({"id": i, "fen": probes[i % len(probes)]["fen"]}) + "\n"
                              for i in range(20_000)))
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "contract", "extract", "--schema", "kcp-13", "--input",
                             str(source)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=ROOT)
    assert proc.stdout is not None
    proc.stdout.readline()  # extraction has started
    time.sleep(0.2)
    proc.send_signal(signal.SIGINT)
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert err.decode() == "extract: interrupted\n"


def test_id_goes_with_fen_as_side_does(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Was: ``--id`` silently ignored with ``--input``."""
    assert main(["extract", "--schema", "kcp-13", "--input", str(tmp_path / "rows.jsonl"), "--id", "x"]) == 2
    assert capsys.readouterr().err == "extract: --id goes with --fen (rows carry their own 'id')\n"
    assert main(["extract", "--schema", "kcp-13", "--fen", KINGS, "--id", "7"]) == 0
    assert json.loads(capsys.readouterr().out)["id"] == "7"


def test_bench_refusals_go_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    """Was: printed on stdout, where a ``bench --json`` consumer reads the report."""
    assert main(["bench", "--schema", "nope", "--repeat", "1"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("bench: unknown featureSchema 'nope'; known schemas: kcp-13")
    assert main(["bench", "--repeat", "0"]) == 2
    assert capsys.readouterr().err == "bench: --repeat must be at least 1\n"


# -- properties: any text, any JSON value -----------------------------------------------------------------
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=4), children, max_size=3),
    max_leaves=8,
)
ROW_VALUES = JSON_VALUES | st.fixed_dictionaries(
    {"id": JSON_VALUES, "fen": st.one_of(JSON_VALUES, st.sampled_from([KINGS, KINGS + " 0 1 pnb", "8/8 w - -"]))},
    optional={"side": JSON_VALUES | st.sampled_from(["w", "b"])},
)


@settings(share(2))
@given(st.text(max_size=80))
def test_any_text_parses_or_raises_a_short_fen_error(text: str) -> None:
    try:
        parse_fen(text)
    except FenError as exc:
        assert len(str(exc)) < 400


@settings(share(2))
@given(st.lists(ROW_VALUES, max_size=4))
def test_any_json_rows_give_one_result_each_and_never_raise(rows: list[object]) -> None:
    results = list(extract_rows("rich-9-v1", rows))
    assert [r.index for r in results] == list(range(len(rows)))
    for result in results:
        assert (result.features is None) == (result.error is not None)
        if result.features is not None:
            assert result.features.shape == (9,) and result.features.dtype == np.float32


def test_a_closed_stdin_is_refused(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Was: ``AttributeError: 'NoneType' object has no attribute 'buffer'`` when started with ``<&-``."""
    monkeypatch.setattr(sys, "stdin", None)
    assert main(["extract", "--schema", "kcp-13", "--input", "-"]) == 1
    assert capsys.readouterr().err == "extract: stdin is closed: nothing to read for --input -\n"


def test_extract_refuses_what_is_not_a_position_with_a_pointer_to_extract_fen() -> None:
    import chess
    import pytest

    from contract.features import extract, extract_batch, parse_fen

    fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"
    with pytest.raises(TypeError, match=r"not str \(use extract_fen for a FEN string\)$"):
        extract("kcp-13", fen, chess.WHITE)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^extract_batch: item 1 must be a \(position, color\) pair, not Position$"):
        extract_batch("kcp-13", [(parse_fen(fen), chess.WHITE), parse_fen(fen)])  # type: ignore[list-item]


def test_a_refused_rows_id_cannot_drive_the_terminal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The stream path's reject lines go through the kit's console escaping like every other printer."""
    source = tmp_path / "rows.jsonl"
    source.write_text(json.dumps({"id": "\x1b[2Kfake\r", "fen": "bad"}) + "\n", encoding="utf-8")
    assert main(["extract", "--schema", "kcp-13", "--input", str(source)]) == 1
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\r" not in err
    assert err.startswith("extract: line 1 (id '\\x1b[2Kfake\\r'): ")


class _Text(str):
    pass


_CELLS = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.sampled_from(["w", "b", "x"]),
                   st.text(max_size=5), st.builds(_Text, st.sampled_from(["w", "b", "k"])), st.lists(st.integers(),
                                                                                                    max_size=2))


@settings(max_examples=400, deadline=None)
@given(row=st.dictionaries(st.sampled_from(["id", "fen", "side", "other"]), _CELLS, max_size=4))
def test_a_plain_dict_row_is_checked_as_any_mapping_is(row: dict[str, Any]) -> None:
    """``_row_error`` answers a plain ``dict`` with look-ups only; any other mapping takes the full checks,
    which define the answer (the same tuple, message included)."""
    from types import MappingProxyType

    from contract.features.rows import _row_error

    assert _row_error(row) == _row_error(MappingProxyType(row))


def test_a_hand_made_position_of_numpy_integers_is_the_position_of_ints() -> None:
    """Review 2026-12-04 L2: boards, castling and en passant of numpy integer types are taken as the same ints (the
    reference raised OverflowError or AttributeError on them, the accelerator answered); what is no integer at all
    is the TypeError the README promises."""
    from contract.features.position import Position

    good = parse_fen("r3k2r/pppq1ppp/8/3Pp3/8/8/PPPQ1PPP/R3K2R w KQkq e6")
    numpy_boards = tuple(tuple(np.uint64(b) for b in side) for side in good.boards)
    hand = Position(numpy_boards, True, np.int64(good.castling), np.uint64(good.ep))  # type: ignore[arg-type]
    assert all(type(b) is int for side in hand.boards for b in side)
    for schema in registry.schema_ids():
        assert extract(schema, hand, True).tobytes() == extract(schema, good, True).tobytes(), schema
    with pytest.raises(TypeError):
        Position(((1.5,) * 7, (0,) * 7))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Position(good.boards, True, "KQkq", good.ep)  # type: ignore[arg-type]
