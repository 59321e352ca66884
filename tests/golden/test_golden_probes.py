"""The probe list: recorded probes kept as recorded, a twin for every probe, full column coverage, and a
probe for every rule of spec/domain.md §12 that a dice-free feature can observe."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from golden_testkit import RECORDED, ROOT

from contract.core.registry import feature_schemas

PROBES = ROOT / "golden" / "probes.json"
VECTORS = ROOT / "golden" / "vectors"
RECORDED_KCP13 = RECORDED / "kcp-13.engine-0.12.0.json"


def _load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def _probes() -> list[dict[str, Any]]:
    probes: list[dict[str, Any]] = _load(PROBES)["probes"]
    return probes


def _vectors(schema: str) -> dict[str, list[float]]:
    return {p["id"]: p["features"] for p in _load(VECTORS / f"{schema}.json")["probes"]}


def _column(schema: str, probe: str, column: str) -> float:
    corpus = _load(VECTORS / f"{schema}.json")
    index = corpus["columns"].index(column)
    return float(next(p["features"][index] for p in corpus["probes"] if p["id"] == probe))


def _mirror_fen(fen: str) -> str:
    """The twin as spec/features.md §12 words it, written here independently of the kit."""
    fields = fen.split(" ")
    placement = "/".join(reversed(fields[0].split("/"))).swapcase()
    side = "b" if fields[1] == "w" else "w"
    castling = fields[2] if fields[2] == "-" else "".join(c for c in "KQkq" if c.swapcase() in fields[2])
    ep = "-"
    if fields[3] != "-":
        squares = [fields[3][i] + str(9 - int(fields[3][i + 1])) for i in range(0, len(fields[3]), 2)]
        ep = "".join(sorted(squares, key=lambda s: (s[1], s[0])))
    rest = fields[4:6]
    if len(fields) == 7:  # dice: sorted by face (P N B R Q K), upper case when White is to move
        dice = "".join(sorted(fields[6].lower(), key="pnbrqk".index))
        rest.append(dice.upper() if side == "w" else dice)
    return " ".join([placement, side, castling, ep, *rest])


def test_the_recorded_probes_come_first_exactly_as_recorded() -> None:
    recorded = _load(RECORDED_KCP13)["probes"]
    ours = _probes()[:len(recorded)]
    assert recorded
    for mine, theirs in zip(ours, recorded, strict=True):
        assert {k: mine[k] for k in ("id", "fen", "side", "tags", "note")} == \
            {k: theirs[k] for k in ("id", "fen", "side", "tags", "note")}


def test_ids_are_unique_and_every_probe_has_exactly_one_twin() -> None:
    probes = _probes()
    by_id = {p["id"]: p for p in probes}
    assert len(by_id) == len(probes)
    originals = [p for p in probes if not p["id"].endswith("-twin")]
    twins = [p for p in probes if p["id"].endswith("-twin")]
    assert len(twins) == len(originals)
    for original in originals:
        twin = by_id[original["id"] + "-twin"]
        assert twin["twinOf"] == original["id"]
        assert twin["fen"] == _mirror_fen(original["fen"])
        assert twin["side"] != original["side"]
        assert "twin" in twin["tags"]


def test_the_twin_oracle_reproduces_the_nine_recorded_twins() -> None:
    recorded = {p["id"]: p for p in _load(RECORDED_KCP13)["probes"]}
    twins = [i for i in recorded if i.endswith("-twin")]
    assert len(twins) == 9
    for twin in twins:
        assert _mirror_fen(recorded[twin.removesuffix("-twin")]["fen"]) == recorded[twin]["fen"]


@pytest.mark.parametrize("schema", sorted(feature_schemas()))
def test_a_twin_has_the_identical_vector(schema: str) -> None:
    vectors = _vectors(schema)
    for probe_id, vector in vectors.items():
        if probe_id.endswith("-twin"):
            assert vector == vectors[probe_id.removesuffix("-twin")], probe_id


@pytest.mark.parametrize("schema", sorted(feature_schemas()))
def test_every_column_is_non_zero_on_some_probe(schema: str) -> None:
    corpus = _load(VECTORS / f"{schema}.json")
    assert corpus["columns"] == list(feature_schemas()[schema].columns)
    assert len(corpus["probes"]) == len(_probes())
    silent = [c for i, c in enumerate(corpus["columns"]) if all(p["features"][i] == 0.0 for p in corpus["probes"])]
    assert silent == []


# spec/domain.md §12 (and the list) -> probes that exercise it.
RULE_PROBES = {
    "castling on both sides": ["castling-both-sides-w", "castle-king-side-only-b"],
    "rights not matching placement never castle (#594)": ["castling-rights-misplaced-w"],
    "castling in the capture search needs King and Rook dice": [
        "castle-then-king-capture-w", "castle-then-king-capture-no-right-w"],
    "en passant with several targets": ["ep-two-targets-w", "ep-both-ranks-w"],
    "en passant without a victim": ["ep-no-victim-w"],
    "en passant removes whatever stands behind": ["ep-behind-is-king-w"],
    "promotion and under-promotion, on push and capture": [
        "passed-pawn-w", "promotion-captures-w", "underpromotion-knight-w", "black-promotion-b"],
    "a pawn captures a king on the last rank": ["pawn-takes-king-last-rank-w"],
    "no king": ["no-king-own-w", "no-kings-w"],
    "two kings": ["two-kings-castle-w", "two-kings-attacked-w"],
    "blocked pawns": ["blocked-pawns-w"],
    "passed pawns of both colours": ["passed-pawns-both-w", "passed-pawns-doubled-b"],
    "pawns on the back ranks (malformed)": ["pawn-on-last-rank-w", "pawn-on-first-rank-w"],
    "features ignore the dice": ["start-w-dice"],
}


@pytest.mark.parametrize("rule", sorted(RULE_PROBES))
def test_every_edge_case_rule_has_a_probe_and_its_twin(rule: str) -> None:
    ids = {p["id"] for p in _probes()}
    for probe in RULE_PROBES[rule]:
        assert probe in ids and probe + "-twin" in ids, (rule, probe)


def test_rule_probes_show_what_the_spec_says() -> None:
    p31 = "kcp-mobility-pawns-31-v1"
    vectors = _vectors(p31)
    # castling rights contradicting placement change nothing (features.md §1.5, domain.md §12)
    assert vectors["castling-rights-misplaced-w"] == vectors["castling-rights-none-w"]
    # the dice pool is never used (features.md §1.3)
    assert vectors["start-w-dice"] == vectors["start-w"]
    # features.md §1.3: exd6 e.p., d7, dxe8 -> 1/216
    assert _column("kcp-13", "ep-king-capture-w", "king_capture_attack") == pytest.approx(1 / 216, abs=1e-9)
    # features.md §3: both kings attacked -> 0
    assert _column("rich-9-v1", "both-kings-attacked-w", "king_safety_diff") == 0.0
    # features.md §9: a White pawn on rank 8 is passed with advancement 7
    assert _column(p31, "pawn-on-last-rank-w", "own_passed_max_rank") == 7.0
    # features.md §9: a pawn on its own back rank pushes once, with no double push
    assert _column(p31, "pawn-on-first-rank-w", "own_moves_p") == 1.0
    # §1.5: push and two captures onto the last rank, four promotions each
    assert _column(p31, "promotion-captures-w", "own_moves_p") == 12.0
    # §1.5: capturing a king on the last rank is one plain capture, the push four promotions
    assert _column(p31, "pawn-takes-king-last-rank-w", "own_moves_p") == 5.0
    # §9: a castle is generated once per king: K a1 (3) + K e1 (5) + castle twice
    assert _column(p31, "two-kings-castle-w", "own_moves_k") == 10.0
    # castling both sides: 2 king steps + 2 castles for each colour
    assert _column(p31, "castling-both-sides-w", "own_moves_k") == 4.0
    assert _column(p31, "castling-both-sides-w", "opp_moves_k") == 4.0
    # two en-passant targets: d5 pushes, takes c6 and e6; f5 pushes, takes e6
    assert _column(p31, "ep-two-targets-w", "own_moves_p") == 5.0
    # passed pawns of both colours, five ranks advanced each
    assert [_column(p31, "passed-pawns-both-w", c) for c in
            ("own_passed_pawns", "opp_passed_pawns", "own_passed_max_rank", "opp_passed_max_rank")] == \
        [1.0, 1.0, 5.0, 5.0]
    # features.md §5.1: castling (K and R dice) is a micro-move and moves the king for a later K die.
    # King on b2: rolls with two R dice (3*5 + 1 = 16) win by Ra2, Rxb2; K,K,K (1) by three king steps;
    # K,K,R (3) only by O-O-O then Kc1xb2, which needs the right.
    assert _column("kcp-13", "castle-then-king-capture-w", "king_capture_attack") == \
        pytest.approx(20 / 216, abs=1e-8)
    assert _column("kcp-13", "castle-then-king-capture-no-right-w", "king_capture_attack") == \
        pytest.approx(17 / 216, abs=1e-8)
    # no own king: no king safety penalty and nothing to capture
    assert _column("kcp-13", "no-king-own-w", "king_capture_danger") == 0.0
