"""Pseudo-legal dice-chess move generation, make-move, attack tests, the legal-move filter and perft.

Everything follows spec/domain.md §5-§6 and §9. Bitboards are python ints; attack tables are
python-chess's (``chess.BB_*``), which have the same geometry as the engine's.

A move is the engine's 16-bit encoding: destination in bits 0-5, origin in bits 6-11, flag in
bits 12-15 (0 quiet, 1 double push, 2 king-side castle, 3 queen-side castle, 4 capture,
5 en passant, 8-11 promotion to N/B/R/Q, 12-15 promotion-capture to N/B/R/Q).

Low-level functions take one side's boards as a 7-item sequence ``(occupancy, P, N, B, R, Q, K)``:
``own`` is the moving colour's, ``opp`` the other colour's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import chess

if TYPE_CHECKING:
    from contract.features.rules import RuleSet
from contract.features.position import (
    BISHOP,
    CASTLE_K,
    CASTLE_Q,
    KING,
    KNIGHT,
    PAWN,
    PIECE_TYPES,
    QUEEN,
    ROOK,
    WHITE,
    CASTLE_k,
    CASTLE_q,
    Position,
)

QUIET, DOUBLE_PUSH, CASTLE_KS, CASTLE_QS, CAPTURE, EN_PASSANT = 0, 1, 2, 3, 4, 5
PROMO_N, PROMO_B, PROMO_R, PROMO_Q = 8, 9, 10, 11
PROMO_FLAGS = (PROMO_Q, PROMO_R, PROMO_B, PROMO_N)  # the engine's emission order
PROMO_PIECE = {8: KNIGHT, 9: BISHOP, 10: ROOK, 11: QUEEN, 12: KNIGHT, 13: BISHOP, 14: ROOK, 15: QUEEN}

KNIGHT_ATTACKS = chess.BB_KNIGHT_ATTACKS
KING_ATTACKS = chess.BB_KING_ATTACKS
PAWN_ATTACKS = chess.BB_PAWN_ATTACKS  # [colour][square]
DIAG_MASKS, DIAG_ATTACKS = chess.BB_DIAG_MASKS, chess.BB_DIAG_ATTACKS
FILE_MASKS, FILE_ATTACKS = chess.BB_FILE_MASKS, chess.BB_FILE_ATTACKS
RANK_MASKS, RANK_ATTACKS = chess.BB_RANK_MASKS, chess.BB_RANK_ATTACKS

BB_RANK_1, BB_RANK_3, BB_RANK_6, BB_RANK_8 = chess.BB_RANK_1, chess.BB_RANK_3, chess.BB_RANK_6, chess.BB_RANK_8
BB_FILE_A, BB_FILE_H = chess.BB_FILE_A, chess.BB_FILE_H
FULL = (1 << 64) - 1

E1, E8 = 4, 60
# Castling per colour: (right bit, king square, rook square, squares that must be empty,
#                       king destination, rook destination, flag), king side first.
CASTLES = {
    WHITE: ((CASTLE_K, 4, 7, (1 << 5) | (1 << 6), 6, 5, CASTLE_KS),
            (CASTLE_Q, 4, 0, (1 << 1) | (1 << 2) | (1 << 3), 2, 3, CASTLE_QS)),
    chess.BLACK: ((CASTLE_k, 60, 63, (1 << 61) | (1 << 62), 62, 61, CASTLE_KS),
                  (CASTLE_q, 60, 56, (1 << 57) | (1 << 58) | (1 << 59), 58, 59, CASTLE_QS)),
}
RIGHTS_OF = {WHITE: CASTLE_K | CASTLE_Q, chess.BLACK: CASTLE_k | CASTLE_q}
# A rook leaving / being captured on a corner square clears that corner's right.
CORNER_RIGHT = {0: CASTLE_Q, 7: CASTLE_K, 56: CASTLE_q, 63: CASTLE_k}
OWN_CORNERS = {WHITE: {0: CASTLE_Q, 7: CASTLE_K}, chess.BLACK: {56: CASTLE_q, 63: CASTLE_k}}


def bishop_attacks(square: int, occupied: int) -> int:
    return DIAG_ATTACKS[square][occupied & DIAG_MASKS[square]]


def rook_attacks(square: int, occupied: int) -> int:
    return RANK_ATTACKS[square][occupied & RANK_MASKS[square]] | FILE_ATTACKS[square][occupied & FILE_MASKS[square]]


def queen_attacks(square: int, occupied: int) -> int:
    return bishop_attacks(square, occupied) | rook_attacks(square, occupied)


def squares(bb: int) -> list[int]:
    """Set bits in ascending order (the engine's bit-scan order)."""
    out = []
    while bb:
        low = bb & -bb
        out.append(low.bit_length() - 1)
        bb ^= low
    return out


def encode(frm: int, to: int, flag: int) -> int:
    return to | (frm << 6) | (flag << 12)


def move_uci(move: int) -> str:
    flag = move >> 12
    text = chess.SQUARE_NAMES[(move >> 6) & 63] + chess.SQUARE_NAMES[move & 63]
    if flag & 8:
        text += " nbrq"[(flag & 3) + 1]
    return text


# -- attack tests (spec §5.4) ------------------------------------------------------------------
def is_attacked(side: Sequence[int], colour: bool, square: int, occupied: int) -> bool:
    """``isSquareAttacked`` as a boolean: does any piece of ``colour`` (boards ``side``) attack it?"""
    if PAWN_ATTACKS[not colour][square] & side[PAWN] or KNIGHT_ATTACKS[square] & side[KNIGHT]:
        return True
    if bishop_attacks(square, occupied) & (side[BISHOP] | side[QUEEN]):
        return True
    if rook_attacks(square, occupied) & (side[ROOK] | side[QUEEN]):
        return True
    return bool(KING_ATTACKS[square] & side[KING])


# -- generation (spec §5.1) --------------------------------------------------------------------
def _pawn_moves(own: Sequence[int], opp: Sequence[int], colour: bool, ep: int, out: list[int],  # noqa: PLR0917
                ep_onto_any: bool = True) -> None:
    occupied = own[0] | opp[0]
    enemy = opp[0]
    enemy_kings = opp[KING]
    if colour:
        push, east, west, last, double_rank, ep_rank = 8, 9, 7, BB_RANK_8, BB_RANK_3, BB_RANK_6
    else:
        push, east, west, last, double_rank, ep_rank = -8, -7, -9, BB_RANK_1, BB_RANK_6, BB_RANK_3
    ep_squares = squares(ep & ep_rank if ep_onto_any else ep & ep_rank & ~occupied)
    for frm in squares(own[PAWN]):
        to = frm + push
        if 0 <= to < 64 and not occupied >> to & 1:
            if last >> to & 1:
                for flag in PROMO_FLAGS:
                    out.append(to | (frm << 6) | (flag << 12))
            else:
                out.append(to | (frm << 6))
                if double_rank >> to & 1:
                    to2 = to + push
                    if not occupied >> to2 & 1:
                        out.append(to2 | (frm << 6) | (DOUBLE_PUSH << 12))
        file = frm & 7
        for delta, ok in ((east, file != 7), (west, file != 0)):
            to = frm + delta
            if ok and 0 <= to < 64 and enemy >> to & 1:
                if last >> to & 1 and not enemy_kings >> to & 1:
                    for flag in PROMO_FLAGS:
                        out.append(to | (frm << 6) | ((flag | 4) << 12))
                else:
                    out.append(to | (frm << 6) | (CAPTURE << 12))
        if ep_squares:
            targets = PAWN_ATTACKS[colour][frm]
            for to in ep_squares:
                if targets >> to & 1:
                    out.append(to | (frm << 6) | (EN_PASSANT << 12))


def _castle_moves(own: Sequence[int], occupied: int, colour: bool, castling: int, out: list[int]) -> None:
    for right, king_sq, rook_sq, between, king_to, _rook_to, flag in CASTLES[colour]:
        if (castling & right and own[KING] >> king_sq & 1 and own[ROOK] >> rook_sq & 1
                and not occupied & between):
            out.append(king_to | (king_sq << 6) | (flag << 12))


def generate_piece_moves(own: Sequence[int], opp: Sequence[int], colour: bool, ptype: int,  # noqa: PLR0917
                         castling: int, ep: int, rules: RuleSet | None = None) -> list[int]:
    """``generatePieceMoves``: the pseudo-legal moves of ``colour``'s pieces of ``ptype``, engine order,
    under ``rules`` (:mod:`contract.features.rules`; ``None`` = the kit's default release)."""
    out: list[int] = []
    if ptype == PAWN:
        _pawn_moves(own, opp, colour, ep, out, rules is None or rules.ep_onto_any)
        return out
    occupied = own[0] | opp[0]
    not_own = ~own[0]
    enemy = opp[0]
    for frm in squares(own[ptype]):
        if ptype == KNIGHT:
            targets = KNIGHT_ATTACKS[frm]
        elif ptype == BISHOP:
            targets = bishop_attacks(frm, occupied)
        elif ptype == ROOK:
            targets = rook_attacks(frm, occupied)
        elif ptype == QUEEN:
            targets = queen_attacks(frm, occupied)
        else:
            targets = KING_ATTACKS[frm]
        targets &= not_own
        base = frm << 6
        while targets:
            low = targets & -targets
            to = low.bit_length() - 1
            targets ^= low
            out.append(to | base | (CAPTURE << 12) if enemy & low else to | base)
        if ptype == KING and (rules is None or rules.castle_per_king):
            _castle_moves(own, occupied, colour, castling, out)
    if ptype == KING and rules is not None and not rules.castle_per_king:
        _castle_moves(own, occupied, colour, castling, out)  # castling once per side, after the king loop
    return out


def generate_all_moves(own: Sequence[int], opp: Sequence[int], colour: bool, castling: int, ep: int,  # noqa: PLR0917
                       rules: RuleSet | None = None) -> list[int]:
    """``generateAllMoves``: P, N, B, R, Q, K moves regardless of dice, castling included."""
    out: list[int] = []
    for ptype in PIECE_TYPES:
        out += generate_piece_moves(own, opp, colour, ptype, castling, ep, rules)
    return out


def count_piece_moves(own: Sequence[int], opp: Sequence[int], colour: bool, castling: int, ep: int,  # noqa: PLR0917
                      rules: RuleSet | None = None) -> list[int]:
    """Number of pseudo-legal moves per piece type ``[_, P, N, B, R, Q, K]`` (mobility), by bit counting,
    under ``rules`` (``None`` = the kit's default release).

    Equal to ``len(generate_piece_moves(...))`` for each type (tested)."""
    occupied = own[0] | opp[0]
    empty = ~occupied & FULL
    enemy = opp[0]
    not_own = ~own[0] & FULL
    counts = [0, 0, 0, 0, 0, 0, 0]
    pawns = own[PAWN]
    if pawns:
        if colour:
            single = (pawns << 8) & empty
            double = ((single & BB_RANK_3) << 8) & empty
            east = ((pawns & ~BB_FILE_H) << 9) & enemy
            west = ((pawns & ~BB_FILE_A) << 7) & enemy
            last, ep_rank = BB_RANK_8, BB_RANK_6
        else:
            single = (pawns >> 8) & empty
            double = ((single & BB_RANK_6) >> 8) & empty
            east = ((pawns & ~BB_FILE_H) >> 7) & enemy
            west = ((pawns & ~BB_FILE_A) >> 9) & enemy
            last, ep_rank = BB_RANK_1, BB_RANK_3
        single &= FULL
        east &= FULL
        west &= FULL
        n = (single & ~last).bit_count() + 4 * (single & last).bit_count() + double.bit_count()
        kings_last = opp[KING] & last
        for caps in (east, west):
            n += (caps & ~last).bit_count() + (caps & kings_last).bit_count()
            n += 4 * (caps & last & ~kings_last).bit_count()
        eps = ep & ep_rank if rules is None or rules.ep_onto_any else ep & ep_rank & ~occupied
        while eps:
            low = eps & -eps
            n += (PAWN_ATTACKS[not colour][low.bit_length() - 1] & pawns).bit_count()
            eps ^= low
        counts[PAWN] = n
    for frm in squares(own[KNIGHT]):
        counts[KNIGHT] += (KNIGHT_ATTACKS[frm] & not_own).bit_count()
    for frm in squares(own[BISHOP]):
        counts[BISHOP] += (bishop_attacks(frm, occupied) & not_own).bit_count()
    for frm in squares(own[ROOK]):
        counts[ROOK] += (rook_attacks(frm, occupied) & not_own).bit_count()
    for frm in squares(own[QUEEN]):
        counts[QUEEN] += (queen_attacks(frm, occupied) & not_own).bit_count()
    kings = squares(own[KING])
    if kings:
        castles: list[int] = []
        _castle_moves(own, occupied, colour, castling, castles)
        per_king = len(castles) if rules is None or rules.castle_per_king else 0
        for frm in kings:
            counts[KING] += (KING_ATTACKS[frm] & not_own).bit_count() + per_king
        counts[KING] += len(castles) - per_king  # once per side under the per-side rule
    return counts


# -- make-move (spec §5.6) ---------------------------------------------------------------------
def make_move(own: Sequence[int], opp: Sequence[int], colour: bool, castling: int, ep: int, move: int,  # noqa: PLR0917
              rules: RuleSet | None = None) -> tuple[list[int], list[int], int, int, bool]:
    """Apply ``move`` for ``colour``. Returns ``(own', opp', castling', ep', reset_clock)``. Under the
    ``onto-empty`` en-passant rule only an en-passant capture drops the target square it lands on.

    ``reset_clock`` is true for a pawn move or any capture (en passant included)."""
    own2 = list(own)
    opp2 = list(opp)
    frm = (move >> 6) & 63
    to = move & 63
    flag = move >> 12
    from_bit = 1 << frm
    to_bit = 1 << to
    mover = 0
    for ptype in PIECE_TYPES:
        if own2[ptype] & from_bit:
            mover = ptype
            break
    own2[mover] ^= from_bit
    own2[0] ^= from_bit
    captured = 0
    if flag != EN_PASSANT and opp2[0] & to_bit:
        for ptype in PIECE_TYPES:
            if opp2[ptype] & to_bit:
                captured = ptype
                opp2[ptype] ^= to_bit
                break
        opp2[0] ^= to_bit
    placed = PROMO_PIECE[flag] if flag & 8 else mover
    own2[placed] |= to_bit
    own2[0] |= to_bit
    behind = -8 if colour else 8
    if flag == EN_PASSANT:
        victim = 1 << (to + behind)
        for side in (own2, opp2):
            if side[0] & victim:
                for ptype in PIECE_TYPES:
                    if side[ptype] & victim:
                        side[ptype] ^= victim
                side[0] ^= victim
    elif flag in (CASTLE_KS, CASTLE_QS):
        for _right, _king_sq, rook_sq, _between, king_to, rook_to, castle_flag in CASTLES[colour]:
            if castle_flag == flag and king_to == to:
                own2[ROOK] ^= (1 << rook_sq) | (1 << rook_to)
                own2[0] ^= (1 << rook_sq) | (1 << rook_to)
    # en-passant set (squares off the board, from pawns on a back rank of a malformed FEN, are no-ops)
    if rules is None or rules.ep_onto_any or flag == EN_PASSANT:
        ep &= ~to_bit
    if mover == PAWN and flag != DOUBLE_PUSH and 0 <= frm + behind < 64:
        ep &= ~(1 << (frm + behind))
    if captured == PAWN and 0 <= to - behind < 64:
        ep &= ~(1 << (to - behind))
    if flag == DOUBLE_PUSH:
        ep |= 1 << (to + behind)
    # castling rights
    if captured == ROOK and to in CORNER_RIGHT:
        castling &= ~CORNER_RIGHT[to]
    elif captured == KING:
        castling &= ~RIGHTS_OF[not colour]
    if mover == KING:
        castling &= ~RIGHTS_OF[colour]
    elif mover == ROOK and frm in OWN_CORNERS[colour]:
        castling &= ~OWN_CORNERS[colour][frm]
    reset = mover == PAWN or captured != 0 or flag == EN_PASSANT
    return own2, opp2, castling, ep, reset


# -- position-level helpers ---------------------------------------------------------------------
def _sides(position: Position, colour: bool) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return position.boards[colour], position.boards[not colour]


def piece_moves(position: Position, ptype: int, colour: bool | None = None) -> list[int]:
    colour = position.turn if colour is None else colour
    own, opp = _sides(position, colour)
    return generate_piece_moves(own, opp, colour, ptype, position.castling, position.ep)


def generate_moves(position: Position) -> list[int]:
    """``generateMoves``: per distinct die in slot order, the moves of that piece type."""
    out: list[int] = []
    seen: set[int] = set()
    for die in position.dice:
        if die not in seen:
            seen.add(die)
            out += piece_moves(position, die)
    return out


def all_moves(position: Position, colour: bool | None = None) -> list[int]:
    colour = position.turn if colour is None else colour
    own, opp = _sides(position, colour)
    return generate_all_moves(own, opp, colour, position.castling, position.ep)


def dice_after(position: Position, move: int) -> tuple[int, ...] | None:
    """``diceAfter``: the pool left after paying for ``move``, or ``None`` if it cannot be paid."""
    pool = list(position.dice)
    flag = move >> 12
    if flag in (CASTLE_KS, CASTLE_QS):
        needed = [KING, ROOK]
    else:
        piece = position.piece_at((move >> 6) & 63)
        if piece is None:
            return None
        needed = [piece[1]]
    for die in needed:
        if die not in pool:
            return None
        pool.remove(die)
    return tuple(pool)


def apply_move(position: Position, move: int, dice: tuple[int, ...] = ()) -> Position:
    """``makeMove``: same active colour, the given pool (default empty), clocks per spec §5.6."""
    colour = position.turn
    own, opp, castling, ep, reset = make_move(position.boards[colour], position.boards[not colour], colour,
                                              position.castling, position.ep, move)
    boards = (tuple(opp), tuple(own)) if colour else (tuple(own), tuple(opp))
    halfmove = 0 if reset else min(position.halfmove + 1, 127)
    return Position(boards, colour, castling, ep, halfmove, position.fullmove, dice)


def end_turn(position: Position) -> Position:
    """``endTurn``: flip the side, bump the full-move number after Black, clear dice, expire EP targets
    belonging to the side now about to move (rank 3 for White, rank 6 for Black)."""
    nxt = not position.turn
    fullmove = position.fullmove + (1 if position.turn == chess.BLACK else 0)
    ep = position.ep & ~(BB_RANK_3 if nxt else BB_RANK_6)
    return Position(position.boards, nxt, position.castling, ep, position.halfmove, fullmove, ())


def captures_king(position: Position, move: int) -> bool:
    return bool(position.boards[not position.turn][KING] >> (move & 63) & 1)


# -- legal first micro-moves (spec §6.1) ---------------------------------------------------------
def _root_depth(position: Position, move: int) -> tuple[int, bool]:
    if captures_king(position, move):
        return 1, True
    pool = dice_after(position, move)
    if pool is None:
        return 0, False
    consumed = 2 if (move >> 12) in (CASTLE_KS, CASTLE_QS) else 1
    if not pool:
        return consumed, False  # nothing left to pay for a continuation
    depth, king = _best(apply_move(position, move, pool))
    return consumed + depth, king


def _best(position: Position) -> tuple[int, bool]:
    if not position.dice:
        return 0, False
    depth, king = 0, False
    for move in generate_moves(position):
        d, k = _root_depth(position, move)
        depth = max(depth, d)
        king = king or k
    return depth, king


def legal_moves(position: Position) -> list[int]:
    """``LegalMovesFilter.filterMaximalMoves``: the legal first micro-moves under the maximum rule."""
    if not position.dice:
        return []
    moves = generate_moves(position)
    if not moves:
        return []
    results = [_root_depth(position, move) for move in moves]
    max_len = max(depth for depth, _ in results)
    if max_len == 0:
        return []
    return [move for move, (depth, king) in zip(moves, results, strict=True) if king or depth == max_len]


def perft(position: Position, depth: int) -> int:
    """``Perft.countNodes``: pseudo-legal moves per ply, the same pool re-installed for each side."""
    moves = generate_moves(position) if position.dice else all_moves(position)
    if depth <= 1:
        return len(moves)
    total = 0
    for move in moves:
        child = end_turn(apply_move(position, move))
        total += perft(child.with_turn(child.turn, position.dice), depth - 1)
    return total
