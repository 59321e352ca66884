"""The capture probability: the chance that one fresh 3d6 turn captures a target piece (spec/domain.md §7).

``capture_count(position, defender, target_type)`` is the number of ordered rolls (0..216) with which
``not defender``, moving from this board with that roll, can land a micro-move on a square holding
one of ``defender``'s pieces of ``target_type`` (king or queen). Probability = count / 216.

Two implementations, which the tests hold equal:

* :func:`capture_count_reference` is the engine's algorithm transcribed: for each of the 56 sorted
  rolls, a depth-first search over pseudo-legal micro-move sequences paid with those dice.
* :func:`capture_count` is the fast one. A roll succeeds iff some sequence of micro-moves whose
  *consumed dice* form a sub-multiset of the roll ends on a target (the per-roll search explores
  exactly the sequences it can pay for). So the search is run once over sequences, not once per roll,
  and each winning sequence marks every roll containing its dice (a 56-bit mask). Work whose rolls are
  all marked already is skipped (it cannot change the answer). The last two plies are answered with
  attack geometry instead of generating and playing moves; the cases that geometry does not cover
  (en passant, castling, a target square emptied by en passant) go through the plain search.

Why the geometry is exact, for a node with two dice left whose target squares all hold defender pieces:
a second move lands on a target iff its piece attacks the target after the first move. The first move
(origin ``s``, destination ``d``) changes occupancy only at ``s`` (emptied) and ``d`` (filled): filling
a square never opens a line, so a piece other than the mover attacks a target afterwards only if it
already did (then one die would have sufficed: that roll is already marked) or if ``s`` was the only
blocker on a slider's line to it (a *discovery*). The mover itself attacks from ``d`` with its new
type if ``d`` is in that type's reverse attack set computed with ``s`` emptied (an *approach*).

The same argument, one level up, limits what a root move's child re-examines (:func:`_child`): only
pieces that gain a destination through the emptied origin can approach with dice the root's own check
did not already win with, and discoveries change only if the move touched a target's rays. Finally,
:func:`_out_of_reach` answers 0 without a search when no piece can get near a target in three moves.
See docs/performance.md for the measurements behind each step.
"""

from __future__ import annotations

from collections.abc import Sequence

import chess

from contract.features.movegen import (
    CASTLE_KS,
    CASTLE_QS,
    DIAG_ATTACKS,
    DIAG_MASKS,
    EN_PASSANT,
    FILE_ATTACKS,
    FILE_MASKS,
    FULL,
    KING_ATTACKS,
    KNIGHT_ATTACKS,
    PAWN_ATTACKS,
    PROMO_PIECE,
    RANK_ATTACKS,
    RANK_MASKS,
    generate_piece_moves,
    make_move,
    squares,
)
from contract.features.position import BISHOP, KING, KNIGHT, PAWN, PIECE_TYPES, QUEEN, ROOK, Position

TOTAL_ROLLS = 216


def _rolls() -> list[tuple[tuple[int, int, int], int]]:
    rolls = []
    for d1 in range(1, 7):
        for d2 in range(d1, 7):
            for d3 in range(d2, 7):
                distinct = len({d1, d2, d3})
                rolls.append(((d1, d2, d3), {1: 1, 2: 3, 3: 6}[distinct]))
    return rolls


ROLLS = _rolls()  # the 56 sorted multisets with their weights (DiceRolls.weighted)
ALL_ROLLS = (1 << len(ROLLS)) - 1

# A multiset of at most three dice is packed as 2-bit counts per face: key += DIE[face] per die.
DIE = (0, 1, 4, 16, 64, 256, 1024)


def _key(dice: Sequence[int]) -> int:
    return sum(DIE[d] for d in dice)


def _contains(roll: Sequence[int], dice: Sequence[int]) -> bool:
    pool = list(roll)
    for d in dice:
        if d not in pool:
            return False
        pool.remove(d)
    return True


def _roll_masks() -> dict[int, int]:
    masks: dict[int, int] = {}
    subsets: set[tuple[int, ...]] = {()}
    for roll, _w in ROLLS:
        for a in range(4):
            for combo in _combinations(roll, a):
                subsets.add(combo)
    for sub in subsets:
        mask = 0
        for i, (roll, _w) in enumerate(ROLLS):
            if _contains(roll, sub):
                mask |= 1 << i
        masks[_key(sub)] = mask
    return masks


def _combinations(roll: Sequence[int], n: int) -> list[tuple[int, ...]]:
    import itertools

    return [tuple(c) for c in itertools.combinations(roll, n)]


# ROLL_MASK[key]: the rolls (bit i = ROLLS[i]) that contain the dice multiset ``key``. Keys of
# multisets of more than three dice are absent (no roll contains them).
ROLL_MASK = _roll_masks()


def _weights_by_byte() -> list[list[int]]:
    """For each byte of a roll mask and each value of that byte, how many ordered rolls it stands for."""
    tables = []
    for byte in range(7):
        table = []
        for value in range(256):
            total = 0
            for bit in range(8):
                idx = byte * 8 + bit
                if value >> bit & 1 and idx < len(ROLLS):
                    total += ROLLS[idx][1]
            table.append(total)
        tables.append(table)
    return tables


_WEIGHT_BY_BYTE = _weights_by_byte()


def mask_weight(mask: int) -> int:
    """Number of ordered rolls (out of 216) in a 56-bit mask of sorted rolls."""
    total = 0
    for table in _WEIGHT_BY_BYTE:
        total += table[mask & 255]
        mask >>= 8
    return total


# ---------------------------------------------------------------------------------------------
# Reference: the engine's per-roll search, transcribed (spec §7.2). Used by the tests.
# ---------------------------------------------------------------------------------------------
def _reference_dfs(own: list[int], opp: list[int], colour: bool, castling: int, ep: int, pool: list[int],  # noqa: PLR0917
                   budget: int, targets: int) -> bool:
    if not pool or budget <= 0:
        return False
    seen: list[int] = []
    for die in pool:
        if die in seen:
            continue
        seen.append(die)
        for move in generate_piece_moves(own, opp, colour, die, castling, ep):
            if targets >> (move & 63) & 1:
                return True
            flag = move >> 12
            rest = list(pool)
            if flag in (CASTLE_KS, CASTLE_QS):
                if KING not in rest or ROOK not in rest:
                    continue
                rest.remove(KING)
                rest.remove(ROOK)
                consumed = 2
            else:
                rest.remove(die)
                consumed = 1
            own2, opp2, castling2, ep2, _ = make_move(own, opp, colour, castling, ep, move)
            if _reference_dfs(own2, opp2, colour, castling2, ep2, rest, budget - consumed, targets):
                return True
    return False


def capture_count_reference(position: Position, defender: bool, target_type: int) -> int:
    """The engine's algorithm, roll by roll, without shortcuts. Slow; the oracle for the tests."""
    targets = position.boards[defender][target_type]
    if not targets:
        return 0
    attacker = not defender
    own, opp = list(position.boards[attacker]), list(position.boards[defender])
    total = 0
    for roll, weight in ROLLS:
        if _reference_dfs(own, opp, attacker, position.castling, position.ep, list(roll), 3, targets):
            total += weight
    return total


# ---------------------------------------------------------------------------------------------
# Plain sequence search (no geometry): marks the rolls of every winning sequence from a node.
# Used where the geometric levels do not apply: after a first move that removed a target (en passant
# onto a king or queen standing behind the square), with one or two dice left.
# ---------------------------------------------------------------------------------------------
def _generic(own: list[int], opp: list[int], colour: bool, castling: int, ep: int, targets: int,  # noqa: PLR0917
             dice_left: int, prefix: int, covered: int) -> int:
    """``dice_left`` is 1 or 2: castling would spend both (K and R) and captures nothing, so it is not
    searched, and a second move is followed only by one last die."""
    for ptype in PIECE_TYPES:
        if not own[ptype]:
            continue
        key = prefix + DIE[ptype]
        if not ROLL_MASK.get(key, 0) & ~covered:
            # Every roll that could pay a move of this type here is already a success.
            continue
        for move in generate_piece_moves(own, opp, colour, ptype, castling, ep):
            if targets >> (move & 63) & 1:
                covered |= ROLL_MASK[key]
            elif dice_left == 2 and move >> 12 not in (CASTLE_KS, CASTLE_QS):
                own2, opp2, castling2, ep2, _ = make_move(own, opp, colour, castling, ep, move)
                covered = _generic(own2, opp2, colour, castling2, ep2, targets, 1, key, covered)
    return covered


# ---------------------------------------------------------------------------------------------
# Fast search.
# ---------------------------------------------------------------------------------------------
_BETWEEN = [[chess.between(a, b) for b in range(64)] for a in range(64)]
_RANK_2, _RANK_7 = chess.BB_RANK_2, chess.BB_RANK_7


def _direct_types(own: Sequence[int], colour: bool, targets: int, occupied: int) -> int:
    """Bitmask (bit t) of the attacker's piece types attacking any target square."""
    types = 0
    pawns, knights, bishops, rooks, queens, kings = own[1], own[2], own[3], own[4], own[5], own[6]
    enemy_pawn_attacks = PAWN_ATTACKS[not colour]
    t = targets
    while t:
        low = t & -t
        x = low.bit_length() - 1
        t ^= low
        if enemy_pawn_attacks[x] & pawns:
            types |= 2
        if KNIGHT_ATTACKS[x] & knights:
            types |= 4
        diag = DIAG_ATTACKS[x][occupied & DIAG_MASKS[x]]
        if diag & bishops:
            types |= 8
        line = RANK_ATTACKS[x][occupied & RANK_MASKS[x]] | FILE_ATTACKS[x][occupied & FILE_MASKS[x]]
        if line & rooks:
            types |= 16
        if (diag | line) & queens:
            types |= 32
        if KING_ATTACKS[x] & kings:
            types |= 64
    return types


def _mark_types(types: int, prefix: int, covered: int) -> int:
    for ptype in PIECE_TYPES:
        if types >> ptype & 1:
            covered |= ROLL_MASK.get(prefix + DIE[ptype], 0)
    return covered


def _reverse_sets(targets: int, occupied: int) -> tuple[int, int]:
    """Squares from which a bishop / a rook would attack some target, with this occupancy."""
    diag = line = 0
    t = targets
    while t:
        low = t & -t
        x = low.bit_length() - 1
        t ^= low
        diag |= DIAG_ATTACKS[x][occupied & DIAG_MASKS[x]]
        line |= RANK_ATTACKS[x][occupied & RANK_MASKS[x]] | FILE_ATTACKS[x][occupied & FILE_MASKS[x]]
    return diag, line


def _destinations(ptype: int, s: int, colour: bool, occupied: int, not_own: int, enemy: int) -> int:  # noqa: PLR0917
    """Squares a piece of ``ptype`` on ``s`` can move to: no castling, no en passant."""
    if ptype == PAWN:
        dests = 0
        to = s + 8 if colour else s - 8
        if 0 <= to < 64 and not occupied >> to & 1:
            dests = 1 << to
            if (_RANK_2 if colour else _RANK_7) >> s & 1:
                to2 = to + 8 if colour else to - 8
                if not occupied >> to2 & 1:
                    dests |= 1 << to2
        return dests | (PAWN_ATTACKS[colour][s] & enemy)
    if ptype == KNIGHT:
        return KNIGHT_ATTACKS[s] & not_own
    if ptype == KING:
        return KING_ATTACKS[s] & not_own
    dests = 0
    if ptype != ROOK:
        dests = DIAG_ATTACKS[s][occupied & DIAG_MASKS[s]]
    if ptype != BISHOP:
        dests |= RANK_ATTACKS[s][occupied & RANK_MASKS[s]] | FILE_ATTACKS[s][occupied & FILE_MASKS[s]]
    return dests & not_own


def _discoveries(own: Sequence[int], colour: bool, targets: int, occupied: int, not_own: int, enemy: int,  # noqa: PLR0917
                 prefix: int, covered: int) -> int:
    """Mark ``prefix`` + {blocker, slider} for every own piece standing alone between a target and an own
    slider on that line that can move off the segment (the slider then captures)."""
    own_occ = own[0]
    diag_sliders = own[BISHOP] | own[QUEEN]
    line_sliders = own[ROOK] | own[QUEEN]
    if not diag_sliders | line_sliders:
        return covered
    mask_of = ROLL_MASK.get
    t = targets
    while t:
        low = t & -t
        x = low.bit_length() - 1
        t ^= low
        diag = DIAG_ATTACKS[x][occupied & DIAG_MASKS[x]]
        line = RANK_ATTACKS[x][occupied & RANK_MASKS[x]] | FILE_ATTACKS[x][occupied & FILE_MASKS[x]]
        for ray_blockers, is_diag in ((diag & own_occ if diag_sliders else 0, True),
                                      (line & own_occ if line_sliders else 0, False)):
            bb = ray_blockers
            while bb:
                bl = bb & -bb
                b = bl.bit_length() - 1
                bb ^= bl
                occ2 = occupied ^ bl
                if is_diag:
                    behind = DIAG_ATTACKS[x][occ2 & DIAG_MASKS[x]] & ~diag & diag_sliders
                else:
                    behind = (RANK_ATTACKS[x][occ2 & RANK_MASKS[x]] | FILE_ATTACKS[x][occ2 & FILE_MASKS[x]]) \
                        & ~line & line_sliders
                if not behind:
                    continue
                slider = behind.bit_length() - 1
                slider_type = QUEEN if own[QUEEN] & behind else (BISHOP if is_diag else ROOK)
                btype = next(p for p in PIECE_TYPES if own[p] & bl)
                key = prefix + DIE[btype] + DIE[slider_type]
                if not mask_of(key, 0) & ~covered:
                    continue
                if _destinations(btype, b, colour, occupied, not_own, enemy) & ~(_BETWEEN[x][slider] | low):
                    covered |= mask_of(key, 0)
    return covered


def _approach(own: Sequence[int], colour: bool, targets: int, occupied: int, not_own: int, enemy: int,  # noqa: PLR0917
              promotable: int, pieces_mask: int, reverse: tuple[int, int, int, int, int], prefix: int,
              covered: int) -> int:
    """Mark ``prefix`` + {t, t} (or {P, promoted type}) for every piece in ``pieces_mask`` with a move to a
    square from which it, with its type after the move, attacks a target."""
    mask_of = ROLL_MASK.get
    rev_pawn, rev_knight, rev_king, rev_diag, rev_line = reverse
    visible = rev_diag | rev_line
    for ptype in PIECE_TYPES:
        pieces = own[ptype] & pieces_mask
        if not pieces:
            continue
        first_key = prefix + DIE[ptype]
        if not mask_of(first_key, 0) & ~covered:
            continue
        same = mask_of(first_key + DIE[ptype], 0)
        if ptype != PAWN and not same & ~covered:
            continue
        if ptype == KNIGHT:
            reach = rev_knight
        elif ptype == KING:
            reach = rev_king
        elif ptype == PAWN:
            reach = rev_pawn
        else:
            reach = -1
        while pieces:
            sbit = pieces & -pieces
            s = sbit.bit_length() - 1
            pieces ^= sbit
            dests = _destinations(ptype, s, colour, occupied, not_own, enemy)
            if not dests:
                continue
            promo = dests & promotable if ptype == PAWN else 0
            if reach == -1 or promo:
                # a slider's line from its destination may pass through the square it leaves
                if visible & sbit:
                    diag_s, line_s = _reverse_sets(targets, occupied & ~sbit)
                else:
                    diag_s, line_s = rev_diag, rev_line
            if ptype == PAWN:
                if dests & ~promo & reach and same & ~covered:
                    covered |= same
                if promo:
                    for new_type, new_reach in ((KNIGHT, rev_knight), (BISHOP, diag_s), (ROOK, line_s),
                                                (QUEEN, diag_s | line_s)):
                        if promo & new_reach:
                            covered |= mask_of(first_key + DIE[new_type], 0)
                continue
            if reach == -1:
                reach_s = diag_s if ptype == BISHOP else line_s if ptype == ROOK else diag_s | line_s
            else:
                reach_s = reach
            if dests & reach_s:
                covered |= same
                break
        if covered == ALL_ROLLS:
            return covered
    return covered


def _reverse_all(targets: int, colour: bool, occupied: int) -> tuple[int, int, int, int, int]:
    """Reverse attack sets (pawn, knight, king, diagonal slider, line slider) of the targets."""
    rev_pawn = rev_knight = rev_king = 0
    enemy_pawn_attacks = PAWN_ATTACKS[not colour]
    t = targets
    while t:
        low = t & -t
        x = low.bit_length() - 1
        t ^= low
        rev_pawn |= enemy_pawn_attacks[x]
        rev_knight |= KNIGHT_ATTACKS[x]
        rev_king |= KING_ATTACKS[x]
    rev_diag, rev_line = _reverse_sets(targets, occupied)
    return rev_pawn, rev_knight, rev_king, rev_diag, rev_line


def _two_left(own: list[int], opp: list[int], colour: bool, castling: int, ep: int, targets: int,  # noqa: PLR0917
              prefix: int, covered: int, reverse: tuple[int, int, int, int, int] | None = None) -> int:
    """Mark the rolls won from this node with at most two more dice (all targets occupied here).

    A win with one die is a direct capture. A win with two dice is a first move followed by a capture:
    either by the moved piece (an *approach*), by a slider the first move uncovered (a *discovery*),
    or after an en-passant capture (played out: its victim square is a second square emptied)."""
    occupied = own[0] | opp[0]
    covered = _mark_types(_direct_types(own, colour, targets, occupied), prefix, covered)
    if covered == ALL_ROLLS:
        return covered
    not_own = ~own[0] & FULL
    enemy = opp[0]
    covered = _discoveries(own, colour, targets, occupied, not_own, enemy, prefix, covered)
    ep_rank = chess.BB_RANK_6 if colour else chess.BB_RANK_3
    first_key = prefix + DIE[PAWN]
    if ep & ep_rank and own[PAWN] and ROLL_MASK.get(first_key, 0) & ~covered:
        own_pawn_attacks = PAWN_ATTACKS[colour]
        for s in squares(own[PAWN]):
            for to in squares(own_pawn_attacks[s] & ep & ep_rank):
                move = to | (s << 6) | (EN_PASSANT << 12)
                covered = _after_first(own, opp, colour, castling, ep, targets, move, first_key, covered)
    promotable = (chess.BB_RANK_8 if colour else chess.BB_RANK_1) & ~opp[KING]
    if reverse is None:
        reverse = _reverse_all(targets, colour, occupied)
    return _approach(own, colour, targets, occupied, not_own, enemy, promotable, FULL, reverse, prefix, covered)


def _after_first(own: list[int], opp: list[int], colour: bool, castling: int, ep: int, targets: int,  # noqa: PLR0917
                 move: int, key: int, covered: int) -> int:
    """Play ``move`` (paid by the dice in ``key``) and mark what one more die wins from there."""
    own2, opp2, castling2, ep2, _ = make_move(own, opp, colour, castling, ep, move)
    if targets & ~opp2[0]:
        return _generic(own2, opp2, colour, castling2, ep2, targets, 1, key, covered)
    return _mark_types(_direct_types(own2, colour, targets, own2[0] | opp2[0]), key, covered)


def _approach_candidates(own: Sequence[int], colour: bool, occupied: int, visible: int, s: int) -> int:
    """The pieces other than the mover whose approach after a first move from ``s`` can win with dice
    that the parent's approach check did not already win with (the mover, on its destination, is a
    candidate too; the caller adds it).

    After the move the board differs only at ``s`` (emptied) and ``d`` (filled, which only removes
    options). A piece other than the mover gains a destination only through ``s``: a slider or leaper
    that attacked ``s``, or a pawn pushing into or through it. A reverse attack set grows only if ``s``
    was seen from a target, and then only for sliders and promotions."""
    sbit = 1 << s
    cands = (KNIGHT_ATTACKS[s] & own[KNIGHT]) | (KING_ATTACKS[s] & own[KING])
    cands |= DIAG_ATTACKS[s][occupied & DIAG_MASKS[s]] & (own[BISHOP] | own[QUEEN])
    cands |= (RANK_ATTACKS[s][occupied & RANK_MASKS[s]] | FILE_ATTACKS[s][occupied & FILE_MASKS[s]]) \
        & (own[ROOK] | own[QUEEN])
    pawns = own[PAWN]
    if colour:
        cands |= ((sbit >> 8) | (sbit >> 16)) & pawns
    else:
        cands |= ((sbit << 8) | (sbit << 16)) & pawns & FULL
    if visible & sbit:
        cands |= own[BISHOP] | own[ROOK] | own[QUEEN] | (pawns & (_RANK_7 if colour else _RANK_2))
    return cands


def _xray2(targets: int, occupied: int) -> int:
    """Squares on the targets' rays up to and including the second piece met (or the edge)."""
    out = 0
    t = targets
    while t:
        low = t & -t
        x = low.bit_length() - 1
        t ^= low
        diag = DIAG_ATTACKS[x][occupied & DIAG_MASKS[x]]
        line = RANK_ATTACKS[x][occupied & RANK_MASKS[x]] | FILE_ATTACKS[x][occupied & FILE_MASKS[x]]
        occ2 = occupied & ~(diag | line)
        out |= diag | line | DIAG_ATTACKS[x][occ2 & DIAG_MASKS[x]]
        out |= RANK_ATTACKS[x][occ2 & RANK_MASKS[x]] | FILE_ATTACKS[x][occ2 & FILE_MASKS[x]]
    return out


def _child(own: list[int], opp: list[int], colour: bool, castling: int, ep: int, targets: int,  # noqa: PLR0917
           root: tuple[int, int, int, tuple[int, int, int, int, int]], move: int, ptype: int, key: int,
           cands: int, covered: int) -> int:
    """Mark the rolls won by a plain first move (not castling, not en passant, not onto a target)
    followed by at most two more dice.

    Relative to the root's own two-dice check (already done), only what the move changed can add a
    win: a direct capture after it is an approach or a discovery the root already credited, so it is
    not re-examined; approaches are checked for :func:`_approach_candidates`; discoveries only if the
    move touched a target's rays up to the second piece or freed a piece that stood on them; en passant
    (whose victim square is one more change) is played out in full."""
    _occupied, visible, xray2, reverse = root
    s = (move >> 6) & 63
    d = move & 63
    flag = move >> 12
    sbit = 1 << s
    dbit = 1 << d
    new_type = PROMO_PIECE[flag] if flag & 8 else ptype
    own2 = list(own)
    own2[ptype] ^= sbit
    own2[new_type] |= dbit
    own2[0] = (own[0] ^ sbit) | dbit
    captured = 0
    if opp[0] & dbit:
        opp2 = list(opp)
        opp2[0] ^= dbit
        for p in PIECE_TYPES:
            if opp2[p] & dbit:
                opp2[p] ^= dbit
                captured = p
                break
    else:
        opp2 = opp
    occ2 = own2[0] | opp2[0]
    changed = sbit | dbit
    ep_rank = chess.BB_RANK_6 if colour else chess.BB_RANK_3
    usable_ep = ep & ep_rank & ~dbit
    if usable_ep:
        behind = -8 if colour else 8
        if ptype == PAWN and 0 <= s + behind < 64:
            usable_ep &= ~(1 << (s + behind))
        if captured == PAWN and 0 <= d - behind < 64:
            usable_ep &= ~(1 << (d - behind))
        pawn_reach = 0
        for p_sq in squares(own2[PAWN]):
            pawn_reach |= PAWN_ATTACKS[colour][p_sq]
        if usable_ep & pawn_reach and ROLL_MASK.get(key + DIE[PAWN], 0) & ~covered:
            full_own, full_opp, castling2, ep2, _ = make_move(own, opp, colour, castling, ep, move)
            return _two_left(full_own, full_opp, colour, castling2, ep2, targets, key, covered)
    not_own = ~own2[0] & FULL
    enemy = opp2[0]
    cands = (cands | dbit) & own2[0]
    if changed & xray2 or cands & xray2:
        covered = _discoveries(own2, colour, targets, occ2, not_own, enemy, key, covered)
    child_reverse = reverse
    if changed & visible:
        rev_diag, rev_line = _reverse_sets(targets, occ2)
        child_reverse = (reverse[0], reverse[1], reverse[2], rev_diag, rev_line)
    promotable = (chess.BB_RANK_8 if colour else chess.BB_RANK_1) & ~opp2[KING]
    return _approach(own2, colour, targets, occ2, not_own, enemy, promotable, cands, child_reverse,
                     key, covered)


def _knight_distances() -> list[list[int]]:
    table = []
    for a in range(64):
        dist = [99] * 64
        dist[a] = 0
        frontier = [a]
        while frontier:
            nxt = []
            for sq in frontier:
                for to in squares(KNIGHT_ATTACKS[sq]):
                    if dist[to] == 99:
                        dist[to] = dist[sq] + 1
                        nxt.append(to)
            frontier = nxt
        table.append(dist)
    return table


_KNIGHT_DISTANCE = _knight_distances()
# Pawns that might promote within two moves (and capture with the new piece on the third).
_PROMOTION_ZONE = {True: chess.BB_RANK_5 | chess.BB_RANK_6 | chess.BB_RANK_7 | chess.BB_RANK_8,
                   False: chess.BB_RANK_1 | chess.BB_RANK_2 | chess.BB_RANK_3 | chess.BB_RANK_4}


def _out_of_reach(own: Sequence[int], colour: bool, targets: int) -> bool:
    """True if no sequence of three micro-moves can capture on ``targets`` (a sound, cheap test).

    Without sliders (and without pawns close enough to promote into one) no move opens a line for
    another piece, so each king, knight or pawn must reach a capture by its own moves: within three king
    steps, three knight jumps, or three pawn moves (at most four ranks forward from the start rank or
    from behind it, three otherwise, and three files aside)."""
    if own[BISHOP] | own[ROOK] | own[QUEEN] | (own[PAWN] & _PROMOTION_ZONE[colour]):
        return False
    for x in squares(targets):
        xr, xf = x >> 3, x & 7
        for k in squares(own[KING]):
            if max(abs((k >> 3) - xr), abs((k & 7) - xf)) <= 3:
                return False
        for n in squares(own[KNIGHT]):
            if _KNIGHT_DISTANCE[n][x] <= 3:
                return False
        for p in squares(own[PAWN]):
            ahead = xr - (p >> 3) if colour else (p >> 3) - xr
            # from the start rank, or from behind it (a pawn on its own back rank steps onto the start
            # rank, then double-pushes): four ranks within three moves
            start = (p >> 3) <= 1 if colour else (p >> 3) >= 6
            if 1 <= ahead <= (4 if start else 3) and abs((p & 7) - xf) <= 3:
                return False
    return True


def capture_mask(own: list[int], opp: list[int], colour: bool, castling: int, ep: int, targets: int) -> int:  # noqa: PLR0917
    """The 56-bit mask of sorted rolls with which ``colour`` (boards ``own``) captures on ``targets``."""
    if not targets or _out_of_reach(own, colour, targets):
        return 0
    occupied = own[0] | opp[0]
    reverse = _reverse_all(targets, colour, occupied)
    covered = _two_left(own, opp, colour, castling, ep, targets, 0, 0, reverse)
    if covered == ALL_ROLLS:
        return covered
    mask_of = ROLL_MASK.get
    castle_key = DIE[KING] + DIE[ROOK]
    visible = reverse[3] | reverse[4]
    root = (occupied, visible, _xray2(targets, occupied), reverse)
    cands_from: dict[int, int] = {}
    for ptype in PIECE_TYPES:
        if not own[ptype]:
            continue
        key = DIE[ptype]
        if not mask_of(key, 0) & ~covered:
            continue
        for move in generate_piece_moves(own, opp, colour, ptype, castling, ep):
            if targets >> (move & 63) & 1:
                continue  # a direct capture: already marked
            flag = move >> 12
            if flag in (CASTLE_KS, CASTLE_QS):
                if mask_of(castle_key, 0) & ~covered:
                    covered = _after_first(own, opp, colour, castling, ep, targets, move, castle_key, covered)
                continue
            if not mask_of(key, 0) & ~covered:
                break
            if flag == EN_PASSANT:
                own2, opp2, castling2, ep2, _ = make_move(own, opp, colour, castling, ep, move)
                if targets & ~opp2[0]:
                    covered = _generic(own2, opp2, colour, castling2, ep2, targets, 2, key, covered)
                else:
                    covered = _two_left(own2, opp2, colour, castling2, ep2, targets, key, covered)
            else:
                origin = (move >> 6) & 63
                cands = cands_from.get(origin)
                if cands is None:
                    cands = cands_from[origin] = _approach_candidates(own, colour, occupied, visible, origin)
                covered = _child(own, opp, colour, castling, ep, targets, root, move, ptype, key, cands, covered)
            if covered == ALL_ROLLS:
                return covered
    return covered


def capture_count(position: Position, defender: bool, target_type: int) -> int:
    """Ordered rolls (of 216) with which ``not defender`` captures one of ``defender``'s ``target_type``."""
    targets = position.boards[defender][target_type]
    if not targets:
        return 0
    attacker = not defender
    mask = capture_mask(list(position.boards[attacker]), list(position.boards[defender]), attacker,
                        position.castling, position.ep, targets)
    return mask_weight(mask)
