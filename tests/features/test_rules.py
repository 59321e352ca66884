"""Rules per engine release (schema/engine-rules.json): the kit's answer under each rule set against the
recordings of engines that follow it (golden/recorded/engine-newest/, recorded by others)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from contract.core import resources
from contract.features import extract_fen, rules
from contract.recordings.enginelive import decode

EDGES = resources.golden_dir() / "recorded" / "engine-newest" / "edge-cases.jsonl"


def _edges() -> list[dict[str, object]]:
    rows = [json.loads(line) for line in EDGES.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [row for row in rows if not str(next(iter(row["newest"].values()))).startswith("PARSE-ERROR")]


def _bits(vector: np.ndarray) -> tuple[int, ...]:
    return tuple(int(v) for v in np.asarray(vector, dtype=np.float32).view(np.uint32))


@pytest.mark.parametrize("row", _edges(), ids=lambda row: str(row["label"]))
def test_newest_rules_equal_engine_newest_on_the_edge_positions(row: dict[str, object]) -> None:
    vectors = row["newest"]
    assert isinstance(vectors, dict)
    for schema, text in vectors.items():
        got = _bits(extract_fen(schema, str(row["fen"]), str(row["side"]), engine_version=rules.NEWEST_SOURCES))
        assert got == decode(text, schema), (row["label"], schema)


def test_default_rules_differ_from_engine_newest_where_the_rules_differ() -> None:
    differing = {str(row["label"]) for row in _edges()
                 if _bits(extract_fen("kcp-13", str(row["fen"]), str(row["side"])))
                 != decode(row["newest"]["kcp-13"], "kcp-13")}  # type: ignore[index]
    assert differing == {"edge ep-occupied-b", "edge ep-occupied-w", "edge ep-occupied-dice-b",
                         "edge two-kings-castle-w"}


def test_the_table_names_the_default_release_and_what_is_not_known() -> None:
    assert rules.default_release() == "0.12.0"
    release = rules.release(None)
    assert release.rules.describe() == "castling per-king, en passant onto-any"
    assert release.unknown == ("castling", "enPassant")
    assert rules.for_engine(rules.NEWEST_SOURCES).describe() == "castling per-side, en passant onto-empty"


def test_an_unknown_engine_version_is_refused_in_one_line() -> None:
    with pytest.raises(rules.UnknownEngineError, match=r"engine version .9\.9\.9."):
        rules.for_engine("9.9.9")


def test_the_row_paths_take_a_rule_set_resolved_once() -> None:
    """``extract_rows``/``extract_matrix`` (behind ``extract`` and ``enrich-shards``) under a rule set: the
    newest sources' recorded vectors with theirs, engine-live's (``kit``) without one."""
    from contract.features.rows import extract_matrix, extract_rows

    edges = _edges()
    rows = [{"id": str(row["label"]), "fen": str(row["fen"]), "side": str(row["side"])} for row in edges]
    newest = rules.for_engine(rules.NEWEST_SOURCES)
    for schema in ("kcp-13", "kcp-mobility-pawns-31-v1"):
        matrix, errors, _ids = extract_matrix(schema, rows, rules=newest)
        assert errors == [None] * len(rows)
        assert [_bits(vector) for vector in matrix] == [decode(row["newest"][schema], schema)  # type: ignore[index]
                                                       for row in edges]
        assert [_bits(result.features) for result in extract_rows(schema, rows, rules=newest)
                if result.features is not None] == [_bits(vector) for vector in matrix]
        default, _errors, _ids = extract_matrix(schema, rows)
        assert [_bits(vector) for vector in default] == [decode(row["kit"][schema], schema)  # type: ignore[index]
                                                        for row in edges]
