"""The quantities the feature schemas are made of (spec/features.md §2-§8), each computed once per
position and colour and memoised on the :class:`Position` so that several schemas share them.

Every function returns Python ints (exact); the extractors convert to float32 in one place.
"""

from __future__ import annotations

import chess

from contract.features.capture import capture_count
from contract.features.movegen import count_piece_moves, is_attacked, squares
from contract.features.position import KING, PAWN, PIECE_TYPES, QUEEN, Position
from contract.features.rules import RuleSet

KING_EXPOSURE_PENALTY = 2000


def _file_span(file: int) -> int:
    span = chess.BB_FILES[file]
    if file > 0:
        span |= chess.BB_FILES[file - 1]
    if file < 7:
        span |= chess.BB_FILES[file + 1]
    return span


def _ahead(square: int, colour: bool) -> int:
    rank = square >> 3
    mask = 0
    for r in range(8):
        if (r > rank) if colour else (r < rank):
            mask |= chess.BB_RANKS[r]
    return mask


# PASSED_SPAN[colour][square]: squares on the same and adjacent files strictly ahead of a pawn.
PASSED_SPAN = [[_file_span(sq & 7) & _ahead(sq, colour) for sq in range(64)] for colour in (False, True)]


def material(position: Position, colour: bool) -> list[int]:
    """material-7-v1: five count differences, material difference, total material."""
    own = position.boards[colour]
    opp = position.boards[not colour]
    p = own[1].bit_count() - opp[1].bit_count()
    n = own[2].bit_count() - opp[2].bit_count()
    b = own[3].bit_count() - opp[3].bit_count()
    r = own[4].bit_count() - opp[4].bit_count()
    q = own[5].bit_count() - opp[5].bit_count()
    total = (own[1] | opp[1]).bit_count() + 3 * (own[2] | opp[2] | own[3] | opp[3]).bit_count() \
        + 5 * (own[4] | opp[4]).bit_count() + 9 * (own[5] | opp[5]).bit_count()
    return [p, n, b, r, q, p + 3 * n + 3 * b + 5 * r + 9 * q, total]


def moves_per_type(position: Position, colour: bool, rules: RuleSet | None = None) -> list[int]:
    """Pseudo-legal move counts ``[_, P, N, B, R, Q, K]`` of ``colour`` (castling in the king's count),
    under ``rules`` (``None`` = the kit's default release)."""
    cache = position.cache()
    key = ("moves", colour, None if rules is None else rules.id)
    counts = cache.get(key)
    if counts is None:
        counts = count_piece_moves(position.boards[colour], position.boards[not colour], colour,
                                   position.castling, position.ep, rules)
        cache[key] = counts
    return counts


def mobility(position: Position, colour: bool, rules: RuleSet | None = None) -> int:
    return sum(moves_per_type(position, colour, rules))


def king_safety(position: Position, colour: bool) -> int:
    """KS(c): -2000 if any king of ``colour`` is attacked by the other colour, else 0."""
    occupied = position.occupied
    enemy = position.boards[not colour]
    for square in squares(position.boards[colour][KING]):
        if is_attacked(enemy, not colour, square, occupied):
            return -KING_EXPOSURE_PENALTY
    return 0


def capture_rolls(position: Position, defender: bool, target_type: int) -> int:
    """Ordered rolls (of 216) with which ``not defender`` captures a ``defender`` king/queen, memoised."""
    cache = position.cache()
    key = ("capture", defender, target_type)
    count = cache.get(key)
    if count is None:
        count = capture_count(position, defender, target_type)
        cache[key] = count
    return count


def capture_block(position: Position, colour: bool) -> list[int]:
    """Roll counts for king attack, king danger, queen attack, queen danger (kcp-13 columns 9-12)."""
    return [capture_rolls(position, not colour, KING), capture_rolls(position, colour, KING),
            capture_rolls(position, not colour, QUEEN), capture_rolls(position, colour, QUEEN)]


def piece_diversity(position: Position, colour: bool) -> int:
    side = position.boards[colour]
    return sum(1 for t in range(1, 6) if side[t])


def passed_pawns(position: Position, colour: bool) -> tuple[int, int]:
    """(number of passed pawns, advancement of the most advanced one or 0)."""
    enemy_pawns = position.boards[not colour][PAWN]
    spans = PASSED_SPAN[colour]
    count = best = 0
    for square in squares(position.boards[colour][PAWN]):
        if not spans[square] & enemy_pawns:
            count += 1
            advance = (square >> 3) if colour else 7 - (square >> 3)
            best = max(best, advance)
    return count, best


def raw_board_indices(position: Position, colour: bool) -> list[int]:
    """Indices set to 1.0 in raw-board-768-v1: plane x 64 + square seen from ``colour``."""
    flip = 0 if colour else 56
    out: list[int] = []
    for plane_base, side_colour in ((0, colour), (6, not colour)):
        side = position.boards[side_colour]
        for ptype in PIECE_TYPES:
            base = (plane_base + ptype - 1) * 64
            out.extend(base + (sq ^ flip) for sq in squares(side[ptype]))
    return out
