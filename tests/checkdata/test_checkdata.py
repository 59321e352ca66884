"""``check-data PACKAGE DATA...`` (issue 34 part 1): the kit's own enriched shards against the package that
eats them hold; another schema, an excluded engine release, one changed value do not, named; bad input is
one line; usage is exit 2. The recomputed bit patterns are compared with the engine's own recording."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pytest
from checkdata_data import EXAMPLE, check, enriched, live_positions, output_schema, pa, pq

from contract.cli import main
from contract.core.checktable import table_family
from contract.datacheck import DataVerdict, check_data
from contract.datacheck.run import chooser

jsonschema = pytest.importorskip("jsonschema")


def validate(document: object) -> None:
    jsonschema.Draft202012Validator(output_schema()).validate(document)


def test_the_kits_enriched_shards_hold_against_a_package_of_their_schema_and_range(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = enriched(tmp_path)
    code, _, err = check(capsys, EXAMPLE, out, "--recompute", "all")
    assert code == 0, err
    assert f"{out / 'part-0.parquet'}: ok (training, kcp-13, engine 0.12.0; 60 of 60 rows recomputed" in err
    code, text, _ = check(capsys, EXAMPLE, out, "--json")
    document = json.loads(text)
    validate(document)
    assert code == 0 and document["ok"] is True
    assert [f["recomputed"] for f in document["files"]] == [60, 60]


def test_shards_of_another_schema_are_refused_naming_the_file_and_both_schemas(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = enriched(tmp_path, "kcp-mobility-27-v1", count=20, shards=1)
    code, _, err = check(capsys, EXAMPLE, out)
    assert code == 1
    assert (f"check-data: {out / 'part-0.parquet'}: feature schema 'kcp-mobility-27-v1' is not the package's"
            " featureSchema 'kcp-13'") in err


def test_a_package_whose_range_excludes_the_shards_release_is_refused_naming_both(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = enriched(tmp_path, count=20, shards=1)
    package = tmp_path / "later"
    assert main(["package", "build", "--model", str(EXAMPLE / "model.onnx"), "--schema", "kcp-13",
                 "--role", "position-value", "--engine-compatibility", ">=0.13.0 <1.0.0", "--model-id", "later",
                 "--out", str(package)]) == 0
    code, text, _err = check(capsys, package, out, "--json")
    assert code == 1
    finding = json.loads(text)["files"][0]["findings"][0]
    assert finding["code"] == "data.engine.excluded" and finding["field"] == "/engineCompatibility"
    assert "engine release '0.12.0' is not admitted by the package's engineCompatibility '>=0.13.0 <1.0.0'" \
        in finding["message"]
    validate(json.loads(text))


def test_a_serving_release_other_than_the_shards_is_named(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    out = enriched(tmp_path, count=10, shards=1)
    package = tmp_path / "wide"
    assert main(["package", "build", "--model", str(EXAMPLE / "model.onnx"), "--schema", "kcp-13",
                 "--role", "position-value", "--engine-compatibility", ">=0.9.0 <1.0.0", "--model-id", "wide",
                 "--out", str(package)]) == 0
    code, _, err = check(capsys, package, out, "--engine-version", "0.9.3")
    assert code == 1
    assert "engine release '0.12.0' is not the serving release --engine-version 0.9.3" in err
    assert check(capsys, package, out, "--engine-version", "0.12.0")[0] == 0


def _change_one_value(source: Path, target: Path, row: int, column: str) -> tuple[str, str]:
    """Rewrite ``source`` with pyarrow, the value of ``row`` (0-based) in ``column`` moved one float32 step;
    the stored and the original bit patterns, as text."""
    table = pq.read_table(source)
    values = table.column(column).to_numpy().copy()
    original = values[row]
    values[row] = np.nextafter(original, np.float32(np.inf), dtype=np.float32)
    index = table.schema.get_field_index(column)
    table = table.set_column(index, table.schema.field(index), pa.array(values, pa.float32()))
    pq.write_table(table, target)
    return f"0x{int(values[row].view(np.uint32)):08x}", f"0x{int(original.view(np.uint32)):08x}"


def test_one_changed_value_is_named_by_file_row_column_and_both_bit_patterns(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = enriched(tmp_path, count=40, shards=1)
    changed = tmp_path / "changed"
    changed.mkdir()
    shard = changed / "part-0.parquet"
    stored, _ = _change_one_value(out / "part-0.parquet", shard, 22, "mobility_diff")
    # what the kit must recompute: the engine's own recorded answer for that position (row 22 of the shard)
    position = live_positions(40)[22]
    column = 7  # mobility_diff, the 8th kcp-13 column
    engine = f"0x{position.bits['kcp-13'][column]:08x}"
    assert engine != stored
    code, text, err = check(capsys, EXAMPLE, changed, "--recompute", "all")
    assert code == 1
    assert (f"check-data: {shard}: row 23 (game 's0g2' ply 4) column mobility_diff: stored {stored} (") in err
    assert f"recomputed {engine} (" in err
    code, text, _ = check(capsys, EXAMPLE, changed, "--recompute", "all", "--json")
    document = json.loads(text)
    validate(document)
    (finding,) = document["files"][0]["findings"]
    assert (finding["row"], finding["rowId"], finding["column"], finding["stored"], finding["recomputed"]) == \
        (23, "game 's0g2' ply 4", "mobility_diff", stored, engine)
    assert finding["code"] == "data.value.differs"


def test_the_function_returns_what_the_command_prints(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = enriched(tmp_path, count=30, shards=1)
    changed = tmp_path / "changed.parquet"
    _change_one_value(out / "part-0.parquet", changed, 3, "p_diff")
    verdict = check_data(EXAMPLE, [out, changed], recompute=None)
    assert isinstance(verdict, DataVerdict) and not verdict.ok
    assert [item.ok for item in verdict.files] == [True, False]
    _, text, _ = check(capsys, EXAMPLE, out, changed, "--recompute", "all", "--json")
    assert json.loads(text) == {"outputVersion": 1, **verdict.as_json()}


@pytest.mark.parametrize(("total", "wanted", "chosen"), [
    (10, 3, [0, 3, 6]), (10, 10, list(range(10))), (4, 1000, [0, 1, 2, 3]), (7, 2, [0, 3]), (5, 0, []),
])
def test_the_rows_recomputed_are_spread_evenly_and_do_not_depend_on_the_chunks(total: int, wanted: int,
                                                                             chosen: list[int]) -> None:
    choose = chooser(total, wanted)
    assert choose(0, total) == chosen
    for cut in range(total + 1):
        assert choose(0, cut) + choose(cut, total) == chosen


def test_every_code_check_data_names_is_a_check_of_the_data_family_and_every_check_is_named() -> None:
    import re

    from contract.core.resources import schema_dir

    root = Path(__file__).resolve().parents[2]
    source = "".join(path.read_text("utf-8") for path in [*(root / "contract" / "datacheck").glob("*.py"),
                                                           root / "contract" / "cli" / "check_data.py"])
    named = set(re.findall(r"""(?:finding|refusal|_usage)\(\s*"(data\.[A-Za-z.]+)\"""", source))
    table = {entry.code for entry in table_family("data")}
    assert named == table
    assert "data" in json.loads((schema_dir() / "check-table.json").read_text("utf-8"))["families"]


def test_a_shard_whose_ruleset_the_training_reader_refuses_is_refused(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    # seen live: the training repository's read_enriched_shard refuses ruleset 'other' (docs/check-data.md)
    shard = enriched(tmp_path, count=10, shards=1) / "part-0.parquet"
    table = pq.read_table(shard)
    bad = tmp_path / "ruleset.parquet"
    pq.write_table(table.replace_schema_metadata({**table.schema.metadata, b"ruleset": b"other"}), bad)
    code, _, err = check(capsys, EXAMPLE, bad)
    assert code == 1
    assert f"{bad}: its ruleset metadata is 'other', an enriched shard's is 'standard-dicechess-v1'" in err


# What the training repository's own reader (read_enriched_shard(path, "kcp-13", "0.12.0"), fortemate/dicechess-training
# src/dicechess_training/schema.py @ 0fcf5d72, run live on 2026-12-04, docs/check-data.md) said of each variant of a
# kit-enriched shard: True accepts, False refuses. check-data must say the same; the double
# (tests/enrichment/training_reader.py) too, for the rules it implements (DOUBLE_COVERS).
LIVE_READER = {"kit": True, "float64": False, "swapped": False, "other-schema": False, "ruleset": False,
               "dropped": False, "ply-int64": False, "base-order": True, "lower-dice": True, "bad-dice": False,
               "result": False, "negative-ply": False, "nan": False, "inf-unsampled": False, "large-string": False,
               "game-id-not-utf8": True, "fen-not-utf8": False, "metadata-not-utf8": False}
DOUBLE_COVERS = {"kit", "float64", "swapped", "other-schema", "ruleset", "dropped", "ply-int64", "nan",
                 "inf-unsampled", "large-string", "metadata-not-utf8"}


def _variant(table: pa.Table, variant: str) -> pa.Table:
    names, meta = table.schema.names, table.schema.metadata

    def cell(column: str, row: int, value: object) -> pa.Table:
        index = table.schema.get_field_index(column)
        values = table.column(column).to_pylist()
        values[row] = value
        return table.set_column(index, table.schema.field(index), pa.array(values, table.schema.field(index).type))

    def not_utf8(column: str, row: int) -> pa.Table:
        index = table.schema.get_field_index(column)
        values = [text.encode() for text in table.column(column).to_pylist()]
        values[row] = b"\xff" + values[row]
        return table.set_column(index, table.schema.field(index), pa.array(values, pa.binary()).view(pa.string()))

    changes = {
        "kit": lambda: table,
        "float64": lambda: table.set_column(6, pa.field("p_diff", pa.float64()), table.column("p_diff").cast(pa.float64())),
        "swapped": lambda: table.select([*names[:6], names[7], names[6], *names[8:]]),
        "other-schema": lambda: table.replace_schema_metadata({**meta, b"feature_schema": b"kcp-mobility-27-v1"}),
        "ruleset": lambda: table.replace_schema_metadata({**meta, b"ruleset": b"other"}),
        "dropped": lambda: table.drop(["queen_capture_danger"]),
        "ply-int64": lambda: table.set_column(1, pa.field("ply", pa.int64()), table.column("ply").cast(pa.int64())),
        "base-order": lambda: table.select(["ply", "game_id", *names[2:]]),
        "lower-dice": lambda: cell("dice", 5, "pnk"),
        "bad-dice": lambda: cell("dice", 5, "PNX"),
        "result": lambda: cell("result", 7, 0.25),
        "negative-ply": lambda: cell("ply", 8, -1),
        "nan": lambda: cell("p_diff", 3, float("nan")),
        "inf-unsampled": lambda: cell("p_diff", 11, float("inf")),
        "game-id-not-utf8": lambda: not_utf8("game_id", 4),
        "metadata-not-utf8": lambda: table.replace_schema_metadata({**meta, b"producer\xff": b"x\xfe"}),
        "fen-not-utf8": lambda: not_utf8("fen", 6),
        "large-string": lambda: table.set_column(0, pa.field("game_id", pa.large_string()),
                                                 table.column("game_id").cast(pa.large_string())),
    }
    return changes[variant]()


@pytest.mark.parametrize("variant", sorted(LIVE_READER))
def test_check_data_accepts_exactly_what_the_training_reader_accepted_live(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], variant: str) -> None:
    from training_reader import read_enriched

    from contract.core import registry

    shard = enriched(tmp_path, count=12, shards=1) / "part-0.parquet"
    path = tmp_path / f"{variant}.parquet"
    pq.write_table(_variant(pq.read_table(shard), variant), path)
    recompute = "1" if variant == "inf-unsampled" else "all"  # a value outside the sample is still seen
    code, _, err = check(capsys, EXAMPLE, path, "--recompute", recompute, "--engine-version", "0.12.0")
    assert (code == 0) == LIVE_READER[variant], err
    if variant in DOUBLE_COVERS:
        try:
            read_enriched(path, "kcp-13", registry.get("kcp-13").columns, "0.12.0")
            accepted = True
        except ValueError:
            accepted = False
        assert accepted == LIVE_READER[variant]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_progress_bar_is_drawn_on_a_terminal_only(tmp_path: Path) -> None:
    out = enriched(tmp_path, count=10, shards=2)
    terminal, pipe = _Terminal(), io.StringIO()
    assert check_data(EXAMPLE, [out], progress=terminal).ok
    assert check_data(EXAMPLE, [out], progress=pipe).ok
    assert "check-data: [" in terminal.getvalue() and "100.0%" in terminal.getvalue()
    assert pipe.getvalue() == ""
