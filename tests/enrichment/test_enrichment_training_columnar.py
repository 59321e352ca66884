"""The raw rules judged column-wise (issue 37, part 1): a chunk of a raw shard is built from its columns only
when the columnar checks vouch for every row, and then the rows are exactly those the row-by-row rules give.

The row-by-row path (:func:`contract.enrichment.formats.training._row`, whose messages the other enrichment
tests hold to the training reader's rules) judges every row here too; each case below is a row that breaks one
rule, or one that looks odd and breaks none (lower-case dice, a 4-field FEN, runs of spaces, whitespace other
than spaces), alone and among good rows. Hypothesis adds rows drawn from the characters those rules read.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from contract.enrichment.formats import training

pa = pytest.importorskip("pyarrow")

GOOD = ("g1", 3, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", "PNB", "b", 0.5)

CASES: dict[str, tuple[Any, ...]] = {
    "good": GOOD,
    "four-field fen": ("g1", 3, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3", "PNB", "b", 0.5),
    "spaces between fields": ("g1", 3, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR  b  KQkq e3", "PNB", "b", 0.5),
    "tab before the colour": ("g1", 3, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR\tw KQkq e3 0 1", "PNB", "b",
                              0.5),
    "no-break space": ("g1", 3, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR\u00a0w KQkq e3", "PNB", "b", 0.5),
    "non-ASCII letter, four fields": ("g1", 3, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQ\u00e9kq e3", "PNB",
                                      "b", 0.5),
    "side mismatch": ("g1", 3, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1", "PNB", "b", 0.5),
    "one-field fen": ("g1", 3, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR", "PNB", "b", 0.5),
    "blank fen": ("g1", 3, " \u2003 ", "PNB", "b", 0.5),
    "empty fen": ("g1", 3, "", "PNB", "b", 0.5),
    "negative ply": ("g1", -1, GOOD[2], "PNB", "b", 0.5),
    "side x": ("g1", 3, GOOD[2], "PNB", "x", 0.5),
    "result 0.25": ("g1", 3, GOOD[2], "PNB", "b", 0.25),
    "result -0.0": ("g1", 3, GOOD[2], "PNB", "b", -0.0),
    "result nan": ("g1", 3, GOOD[2], "PNB", "b", float("nan")),
    "lower-case dice": ("g1", 3, GOOD[2], "pnb", "b", 1.0),
    "sharp s dice": ("g1", 3, GOOD[2], "P\u00df", "b", 1.0),
    "four dice": ("g1", 3, GOOD[2], "PNBR", "b", 1.0),
    "dice X": ("g1", 3, GOOD[2], "PNX", "b", 1.0),
    "null game": (None, 3, GOOD[2], "PNB", "b", 0.0),
    "null fen": ("g1", 3, None, "PNB", "b", 0.0),
    "null result": ("g1", 3, GOOD[2], "PNB", "b", None),
}


def _table(rows: list[tuple[Any, ...]]) -> Any:
    columns = list(zip(*rows, strict=True)) if rows else [()] * len(training.BASE_COLUMNS)
    return pa.table([pa.array(list(values), type=field.type) for values, field in
                     zip(columns, training.base_schema(), strict=True)], schema=training.base_schema())


def _row_by_row(rows: list[tuple[Any, ...]]) -> list[object]:
    return [training._row(index, row) for index, row in enumerate(rows)]


def _decoded(rows: list[tuple[Any, ...]]) -> list[object]:
    return list(training.decode(_table(rows), 0).rows)


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("where", ["alone", "among good rows"])
def test_each_case_decodes_as_the_row_rules_judge_it(case: str, where: str) -> None:
    rows = [CASES[case]] if where == "alone" else [GOOD, GOOD, CASES[case], GOOD]
    assert _decoded(rows) == _row_by_row(rows)


def test_a_chunk_of_good_rows_is_built_column_wise() -> None:
    rows = [GOOD, CASES["four-field fen"], CASES["spaces between fields"]]
    assert training._plain_rows(_table(rows)) == _row_by_row(rows)
    assert training._plain_rows(_table(rows))[1] == {  # type: ignore[index]
        "id": 1, "fen": CASES["four-field fen"][2] + " 0 1", "side": "b"}


@pytest.mark.parametrize("case", ["side mismatch", "blank fen", "negative ply", "sharp s dice", "result nan",
                                  "no-break space", "null fen"])
def test_a_chunk_with_a_row_the_columns_cannot_vouch_for_is_judged_row_by_row(case: str) -> None:
    assert training._plain_rows(_table([GOOD, CASES[case]])) is None


def test_text_that_is_not_utf8_is_judged_row_by_row() -> None:
    good = _table([GOOD])
    fen = good.column("fen").chunk(0)
    raw = pa.py_buffer(b"\xff" + GOOD[2].encode()[1:])
    bad = pa.Array.from_buffers(pa.string(), 1, [None, fen.buffers()[1], raw])
    table = good.set_column(2, "fen", bad)
    assert training._plain_rows(table) is None
    (row,) = training.decode(table, 0).rows
    assert "fen is not UTF-8" in str(row)


_TEXT = st.lists(st.sampled_from([*"rnbqkpRNBQKP/12345678 wb-KQkq\t\u00a0\u2003", "e3", "0 1", " w ", " b ", "\u00e9"]),
                max_size=24).map("".join)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(["g1", "g2"]), st.integers(-2, 5), _TEXT,
                          st.text(alphabet="PNBRQKpnbx\u00df", max_size=4), st.sampled_from(["w", "b", "W", ""]),
                          st.sampled_from([0.0, 0.5, 1.0, -0.0, 0.25, float("nan")])),
                min_size=1, max_size=6))
def test_drawn_rows_decode_as_the_row_rules_judge_them(rows: list[tuple[Any, ...]]) -> None:
    decoded, expected = _decoded(rows), _row_by_row(rows)
    assert [repr(row) for row in decoded] == [repr(row) for row in expected]  # repr: a NaN result compares unequal
