"""Move generation against the engine's recorded suites (spec/domain.md §5, §6, §9)."""

from __future__ import annotations

import random

import pytest
from budget import share
from hypothesis import given, settings
from hypothesis import strategies as st

from contract.features import parse_fen
from contract.features.movegen import (
    count_piece_moves,
    generate_piece_moves,
    legal_moves,
    move_uci,
    perft,
    piece_moves,
)
from contract.features.play import random_game
from contract.features.position import KING, PAWN, PIECE_TYPES, ROOK

from .conftest import golden_probes, load_json

MOVEGEN = load_json("engine", "movegen_1_dice.json")
PERFT = load_json("engine", "perft_suite.json")


@pytest.mark.parametrize("case", MOVEGEN, ids=[c["title"] for c in MOVEGEN])
def test_movegen_one_die(case: dict) -> None:
    got = sorted(move_uci(m) for m in legal_moves(parse_fen(case["fen"])))
    assert got == sorted(case["expectedMoves"])


@pytest.mark.parametrize("case", PERFT, ids=[c["title"] for c in PERFT])
def test_perft_suite(case: dict) -> None:
    position = parse_fen(case["fen"])
    position = position.with_turn(position.turn, (case["diceRoll"],))
    assert perft(position, case["depth"]) == case["expectedNodes"]


@pytest.mark.parametrize(("fen", "expected"), [
    # spec/domain.md §6.1 / §6.3: the newest filter keeps first moves that lead to a king capture
    ("8/8/8/2k5/8/1N6/2P5/K7 w - - 0 1 NPP", "b3a5 b3c1 b3c5 b3d2 b3d4 c2c3 c2c4"),
    ("8/8/8/2k5/8/1N6/2P5/K7 w - - 0 1 PPN", "b3a5 b3c1 b3c5 b3d2 b3d4 c2c3 c2c4"),
    # king-capture lengths count towards maxLen in the filter
    ("5K2/8/8/5B2/2Rk4/1Q1p4/2P5/Bn6 w - - 0 1 PPP", "c2c3"),
    ("8/Pk6/8/8/1r2p3/5P2/8/2K5 w - - 0 1 PPB", "a7a8b f3e4 f3f4"),
])
def test_filter_examples(fen: str, expected: str) -> None:
    assert sorted(move_uci(m) for m in legal_moves(parse_fen(fen))) == sorted(expected.split())


def test_kiwipete_king_die_includes_both_castles() -> None:
    kiwipete = parse_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 K")
    assert sorted(move_uci(m) for m in piece_moves(kiwipete, KING)) == ["e1c1", "e1d1", "e1f1", "e1g1"]
    # castling needs the rook die too: with only K the filter keeps the plain king moves
    assert sorted(move_uci(m) for m in legal_moves(kiwipete)) == ["e1d1", "e1f1"]
    with_rook = parse_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 RK")
    assert {"e1g1", "e1c1"} <= {move_uci(m) for m in legal_moves(with_rook)}


def test_pawn_takes_king_on_last_rank_is_one_plain_capture() -> None:
    position = parse_fen("4k3/3P4/8/8/8/8/8/4K3 w - - 0 1 P")
    assert sorted(move_uci(m) for m in piece_moves(position, PAWN)) == [
        "d7d8b", "d7d8n", "d7d8q", "d7d8r", "d7e8"]


def test_promotion_order_is_q_r_b_n() -> None:
    position = parse_fen("8/3P4/8/8/8/8/8/k3K3 w - - 0 1 P")
    assert [move_uci(m) for m in piece_moves(position, PAWN)] == ["d7d8q", "d7d8r", "d7d8b", "d7d8n"]


def test_castling_needs_matching_placement() -> None:
    # rights present but the rook is not on h1: no castle (engine issue #594)
    position = parse_fen("4k3/8/8/8/8/8/8/4K1R1 w K - 0 1 K")
    assert "e1g1" not in {move_uci(m) for m in piece_moves(position, KING)}
    assert not [m for m in piece_moves(position, ROOK) if move_uci(m) == "e1g1"]


def _random_positions(seed: int, plies: int) -> list:
    start = golden_probes()[seed % 27]["fen"]
    return random_game(parse_fen(start), plies, random.Random(seed))


@settings(share(0.4))
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 30))
def test_bit_counting_mobility_equals_generation(seed: int, plies: int) -> None:
    for position in _random_positions(seed, plies)[-3:]:
        for colour in (True, False):
            own, opp = position.boards[colour], position.boards[not colour]
            counts = count_piece_moves(own, opp, colour, position.castling, position.ep)
            for ptype in PIECE_TYPES:
                moves = generate_piece_moves(own, opp, colour, ptype, position.castling, position.ep)
                assert counts[ptype] == len(moves)
