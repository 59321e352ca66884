"""DFEN parsing (spec/domain.md §2): what is accepted, what is refused and how the refusal reads."""

from __future__ import annotations

import chess
import pytest
from budget import share
from hypothesis import given, settings
from hypothesis import strategies as st

from contract.features import FenError, Position, parse_fen, to_fen, twin_fen
from contract.features.position import CASTLE_K, KING, PAWN, QUEEN, CASTLE_q

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"


def test_start_position() -> None:
    position = parse_fen(START)
    assert isinstance(position, Position)
    assert position.turn is chess.WHITE
    assert position.castling == 15 and position.ep == 0
    assert (position.halfmove, position.fullmove, position.dice) == (0, 1, ())
    assert position.boards[chess.WHITE][PAWN] == chess.BB_RANK_2
    assert position.boards[chess.BLACK][KING] == chess.BB_E8
    assert to_fen(position) == START + " 0 1"
    assert to_fen(position, 4) == START


@pytest.mark.parametrize(("fen", "printed"), [
    ("8/8/8/8/8/8/8/4K2k b Kq e6c3 5 9 qbP", "8/8/8/8/8/8/8/4K2k b Kq c3e6 5 9 pbq"),
    ("8/8/8/8/8/8/8/4K2k w qK h3a6 0 1 -", "8/8/8/8/8/8/8/4K2k w Kq h3a6 0 1"),
    ("8/8/8/8/8/8/8/8/ w - - 127 2147483647", "8/8/8/8/8/8/8/8 w - - 127 2147483647"),
    ("08/8/8/8/8/8/8/8 w - - 007 1", "8/8/8/8/8/8/8/8 w - - 7 1"),
    ("KKKK4/8/8/8/8/8/8/P6p w KQkq a1", "KKKK4/8/8/8/8/8/8/P6p w KQkq a1 0 1"),
    (START + "  ", START + " 0 1"),  # trailing empty fields are dropped (Java split)
])
def test_accepted_and_normalised(fen: str, printed: str) -> None:
    assert to_fen(parse_fen(fen)) == printed


def test_fields() -> None:
    position = parse_fen("r3k2r/8/8/8/8/8/8/R3K2R b Kq a3c6 12 40 RKN")
    assert position.castling == CASTLE_K | CASTLE_q
    assert position.ep == chess.BB_A3 | chess.BB_C6
    assert (position.halfmove, position.fullmove) == (12, 40)
    assert position.dice == (2, 4, 6)
    assert position.turn is chess.BLACK
    assert parse_fen("4k3/8/8/8/8/8/8/3QK3 w - -").boards[chess.WHITE][QUEEN] == chess.BB_D1


@pytest.mark.parametrize(("fen", "field", "text"), [
    ("", "fen", ""),
    ("8/8/8/8/8/8/8/8 w -", "fen", "8/8/8/8/8/8/8/8 w -"),
    ("8/8/8/8/8/8/8/8 w - - 0 1 P x", "fen", "8/8/8/8/8/8/8/8 w - - 0 1 P x"),
    ("8/8/8/8/8/8/8/8 x - -", "side", "x"),
    ("8/8/8/8/8/8/8/8 W - -", "side", "W"),
    ("8/8/8/8/8/8/8/8 w KK -", "castling", "KK"),
    ("8/8/8/8/8/8/8/8 w KQkqK -", "castling", "KQkqK"),
    ("8/8/8/8/8/8/8/8 w A -", "castling", "A"),
    ("8/8/8/8/8/8/8/8 w K- -", "castling", "K-"),
    ("8/8/8/8/8/8/8/8 w  - -", "castling", ""),
    ("8/8/8/8/8/8/8/8 w - e", "en-passant", "e"),
    ("8/8/8/8/8/8/8/8 w - e9", "en-passant", "e9"),
    ("8/8/8/8/8/8/8/8 w - e3e3", "en-passant", "e3e3"),
    ("8/8/8/8/8/8/8/8 w - - 128 1", "half-move clock", "128"),
    ("8/8/8/8/8/8/8/8 w - - -1 1", "half-move clock", "-1"),
    ("8/8/8/8/8/8/8/8 w - - PNB", "half-move clock", "PNB"),
    ("8/8/8/8/8/8/8/8 w - - 0 0", "full-move number", "0"),
    ("8/8/8/8/8/8/8/8 w - - 0 2147483648", "full-move number", "2147483648"),
    ("8/8/8/8/8/8/8/8 w - - 0 1 PNBR", "dice", "PNBR"),
    ("8/8/8/8/8/8/8/8 w - - 0 1 PX", "dice", "PX"),
    ("8/8/8/8/8/8/8 w - -", "placement", "8/8/8/8/8/8/8"),
    ("8/8/8/8/8/8/8/8/8 w - -", "placement", "8/8/8/8/8/8/8/8/8"),
    ("8/8/8/8/8/8/8/7 w - -", "placement", "8/8/8/8/8/8/8/7"),
    ("8/8/8/8/8/8/8/9 w - -", "placement", "8/8/8/8/8/8/8/9"),
    ("8/8/8/8/8/8/8/8K w - -", "placement", "8/8/8/8/8/8/8/8K"),
    ("8/8/8/8/8/8/8/7X w - -", "placement", "8/8/8/8/8/8/8/7X"),
    ("8/8//8/8/8/8/8 w - -", "placement", "8/8//8/8/8/8/8"),
])
def test_refusals_name_field_and_text(fen: str, field: str, text: str) -> None:
    with pytest.raises(FenError) as info:
        parse_fen(fen)
    assert isinstance(info.value, ValueError)
    assert info.value.field == field
    assert info.value.text == text
    # the part is named, except the whole text (d610a92: "bad FEN '': ...", not "bad FEN fen '': ...")
    named = "" if field == "fen" else f"{field} "
    assert str(info.value).startswith(f"bad FEN {named}{text!r}: ")


def test_not_a_string() -> None:
    with pytest.raises(FenError):
        parse_fen(None)  # type: ignore[arg-type]


@settings(share(3))
@given(st.text(alphabet="pnbrqkPNBRQK12345678/ -wbKQkqabcdefgh0129", max_size=60))
def test_arbitrary_text_parses_or_raises_fen_error(text: str) -> None:
    try:
        position = parse_fen(text)
    except FenError:
        return
    assert parse_fen(to_fen(position)) == position


def test_twin_fen_keeps_field_count_and_recases_dice() -> None:
    assert twin_fen("4k3/8/8/8/8/8/4r3/4K3 w - -") == "4k3/4R3/8/8/8/8/8/4K3 b - -"
    assert twin_fen("r3k3/8/8/3pP3/8/8/8/4K2R w Kq d6 3 7 PPN") == "4k2r/8/8/8/3Pp3/8/8/R3K3 b Qk d3 3 7 ppn"
    with pytest.raises(FenError):
        twin_fen("not a fen")
