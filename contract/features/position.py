"""The dice-chess position: bitboards per colour and piece type, castling bits, an en-passant *set*.

Conventions (spec/domain.md §1, §2):

* squares are LERF indices (a1 = 0 … h8 = 63), as in python-chess;
* colours follow python-chess (``chess.WHITE`` is ``True`` = 1, ``chess.BLACK`` is ``False`` = 0), so
  ``boards[colour]`` can be indexed with the bool;
* piece types equal die faces (P 1, N 2, B 3, R 4, Q 5, K 6), which are also python-chess's numbers;
* castling rights are the engine's 4-bit value (K 1, Q 2, k 4, q 8); they are kept even when they
  contradict the placement (they then never produce a move);
* the en-passant field is a bitboard of any number of squares, on any rank;
* the dice pool is a tuple of faces in slot order (the parser stores them sorted).

A :class:`Position` is immutable. It carries a private cache so that extractors of several schemas run
on the same object share their blocks (mobility, capture probabilities, …).
"""

from __future__ import annotations

import operator
from typing import Any

import chess

PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = 1, 2, 3, 4, 5, 6
PIECE_TYPES = (PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING)
WHITE, BLACK = chess.WHITE, chess.BLACK

CASTLE_K, CASTLE_Q, CASTLE_k, CASTLE_q = 1, 2, 4, 8
CASTLE_LETTERS = {"K": CASTLE_K, "Q": CASTLE_Q, "k": CASTLE_k, "q": CASTLE_q}

PIECE_LETTERS = " pnbrqk"


def _empty_side() -> tuple[int, int, int, int, int, int, int]:
    return (0, 0, 0, 0, 0, 0, 0)


class Position:
    """One dice-chess state as the engine's ``GameState`` holds it (minus the Zobrist cache)."""

    __slots__ = ("_cache", "boards", "castling", "dice", "ep", "fullmove", "halfmove", "turn")

    boards: tuple[tuple[int, ...], tuple[int, ...]]
    turn: bool
    castling: int
    ep: int
    halfmove: int
    fullmove: int
    dice: tuple[int, ...]
    _cache: dict[Any, Any]

    def __init__(  # noqa: PLR0917
        self,
        boards: tuple[tuple[int, ...], tuple[int, ...]],
        turn: bool = WHITE,
        castling: int = 0,
        ep: int = 0,
        halfmove: int = 0,
        fullmove: int = 1,
        dice: tuple[int, ...] = (),
    ) -> None:
        if len(boards) != 2 or any(len(side) != 7 for side in boards):
            raise ValueError("boards must be two tuples of 7 bitboards (occupancy, P, N, B, R, Q, K)")
        # Integers of any integer type (numpy's included) are taken as Python ints, so the accelerator and the
        # reference compute the same thing from them; anything that is no integer is a TypeError here, the
        # README's promise for a position that is none (review 2026-12-04 L2).
        self.boards = (tuple(map(operator.index, boards[0])), tuple(map(operator.index, boards[1])))
        self.turn = bool(turn)
        self.castling = operator.index(castling)
        self.ep = operator.index(ep)
        self.halfmove = halfmove
        self.fullmove = fullmove
        self.dice = tuple(dice)
        self._cache = {}

    # -- construction ---------------------------------------------------------------------------
    @classmethod
    def from_pieces(  # noqa: PLR0917
        cls,
        pieces: dict[int, tuple[bool, int]],
        turn: bool = WHITE,
        castling: int = 0,
        ep: int = 0,
        halfmove: int = 0,
        fullmove: int = 1,
        dice: tuple[int, ...] = (),
    ) -> Position:
        """Build from ``{square: (colour, piece_type)}``."""
        sides = [list(_empty_side()), list(_empty_side())]
        for square, (colour, ptype) in pieces.items():
            bit = 1 << square
            sides[colour][ptype] |= bit
            sides[colour][0] |= bit
        return cls((tuple(sides[0]), tuple(sides[1])), turn, castling, ep, halfmove, fullmove, dice)

    # -- queries --------------------------------------------------------------------------------
    @property
    def occupied(self) -> int:
        return self.boards[0][0] | self.boards[1][0]

    def piece_at(self, square: int) -> tuple[bool, int] | None:
        """``(colour, piece_type)`` on ``square``, or ``None``."""
        bit = 1 << square
        for colour in (WHITE, BLACK):
            side = self.boards[colour]
            if side[0] & bit:
                for ptype in PIECE_TYPES:
                    if side[ptype] & bit:
                        return colour, ptype
        return None

    def pieces(self, colour: bool, ptype: int) -> int:
        return self.boards[colour][ptype]

    def cache(self) -> dict[Any, Any]:
        """Per-position memo shared by the extractors (never part of equality)."""
        return self._cache

    # -- value semantics ------------------------------------------------------------------------
    def _key(self) -> tuple[Any, ...]:
        return (self.boards, self.turn, self.castling, self.ep, self.halfmove, self.fullmove, self.dice)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"Position({to_fen(self)!r})"

    # -- symmetry -------------------------------------------------------------------------------
    def color_flip(self) -> Position:
        """Ranks mirrored (square ^ 56), colours swapped, side swapped, K<->k and Q<->q, EP mirrored.

        The engine's ``Symmetry.colorFlip``: dice (compacted), clocks and full-move number are kept.
        """
        flip = chess.flip_vertical
        white = tuple(flip(bb) for bb in self.boards[BLACK])
        black = tuple(flip(bb) for bb in self.boards[WHITE])
        castling = ((self.castling & 3) << 2) | ((self.castling >> 2) & 3)
        return Position((black, white), not self.turn, castling, flip(self.ep), self.halfmove,
                        self.fullmove, self.dice)

    def with_turn(self, turn: bool, dice: tuple[int, ...] = ()) -> Position:
        return Position(self.boards, turn, self.castling, self.ep, self.halfmove, self.fullmove, dice)


# -- DFEN text (contract.features.dfen re-exports it; parsing lives there) ----------------------------
def placement_text(position: Position) -> str:
    rows = []
    for rank in range(7, -1, -1):
        row = ""
        empty = 0
        for file in range(8):
            piece = position.piece_at(rank * 8 + file)
            if piece is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            letter = PIECE_LETTERS[piece[1]]
            row += letter.upper() if piece[0] else letter
        if empty:
            row += str(empty)
        rows.append(row)
    return "/".join(rows)


def castling_text(rights: int) -> str:
    text = "".join(letter for letter, bit in CASTLE_LETTERS.items() if rights & bit)
    return text or "-"


def ep_text(squares: int) -> str:
    if not squares:
        return "-"
    return "".join(chess.SQUARE_NAMES[sq] for sq in range(64) if squares >> sq & 1)


def to_fen(position: Position, fields: int | None = None) -> str:
    """DFEN text. ``fields`` = 4, 6 or 7; default 6, or 7 when the pool is non-empty."""
    if fields is None:
        fields = 7 if position.dice else 6
    parts = [placement_text(position), "w" if position.turn else "b", castling_text(position.castling),
             ep_text(position.ep)]
    if fields >= 6:
        parts += [str(position.halfmove), str(position.fullmove)]
    if fields >= 7 and position.dice:
        letters = "".join(PIECE_LETTERS[face] for face in sorted(position.dice))
        parts.append(letters.upper() if position.turn else letters)
    return " ".join(parts)
