"""Random legal dice-chess play, for property tests and corpus generation.

A turn rolls three dice and plays first micro-moves chosen uniformly from
:func:`~contract.features.movegen.legal_moves` (the engine's maximum-rule filter), re-filtering after
each micro-move with the dice left, until the pool is spent, no legal move remains, or a king is
captured; then the turn ends (:func:`~contract.features.movegen.end_turn`).
"""

from __future__ import annotations

import random

from contract.features.movegen import apply_move, captures_king, dice_after, end_turn, legal_moves
from contract.features.position import KING, Position


def random_turn(position: Position, rng: random.Random) -> tuple[Position, bool]:
    """Play one random legal turn from ``position`` (its pool is replaced by a fresh roll).

    Returns ``(next position, game over)``; game over means a king was captured (no end-turn then)."""
    state = position.with_turn(position.turn, tuple(sorted(rng.randint(1, 6) for _ in range(3))))
    while state.dice:
        moves = legal_moves(state)
        if not moves:
            break
        move = rng.choice(moves)
        pool = dice_after(state, move)
        if captures_king(state, move):
            return apply_move(state, move, ()), True
        state = apply_move(state, move, pool or ())
    return end_turn(state), False


def random_game(position: Position, turns: int, rng: random.Random) -> list[Position]:
    """The positions after each of up to ``turns`` random turns (stops at a king capture or no kings)."""
    out = []
    for _ in range(turns):
        if not position.boards[0][KING] or not position.boards[1][KING]:
            break
        position, over = random_turn(position, rng)
        out.append(position)
        if over:
            break
    return out
