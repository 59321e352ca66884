"""The tables capture.py builds once at import, rebuilt by their builders and checked against independent
enumerations (itertools over the 216 ordered rolls; python-chess's knight moves).

Built at import, the tables are what the golden vectors exercise; calling the builders here is what lets
a bug in a builder be seen by itself (and lets mutation testing reach them).
"""

from __future__ import annotations

import itertools
from collections import Counter

import chess

from contract.features import capture

ORDERED = list(itertools.product(range(1, 7), repeat=3))


def test_rolls_are_the_56_sorted_multisets_weighted_by_their_orderings() -> None:
    counted = Counter(tuple(sorted(r)) for r in ORDERED)
    assert capture._rolls() == sorted(counted.items())
    assert sum(w for _, w in capture._rolls()) == capture.TOTAL_ROLLS == len(ORDERED)


def _contains(roll: tuple[int, ...], dice: tuple[int, ...]) -> bool:
    return not Counter(dice) - Counter(roll)


def test_roll_masks_name_the_rolls_that_hold_each_multiset_of_up_to_three_dice() -> None:
    masks = capture._roll_masks()
    rolls = [roll for roll, _ in capture.ROLLS]
    multisets = {tuple(sorted(c)) for n in range(4) for c in itertools.combinations_with_replacement(range(1, 7), n)}
    assert len(masks) == len(multisets)  # every multiset of 0-3 dice has its key, no two share one
    for dice in multisets:
        expected = sum(1 << i for i, roll in enumerate(rolls) if _contains(roll, dice))
        assert masks[sum(capture.DIE[d] for d in dice)] == expected, dice
    assert masks[0] == capture.ALL_ROLLS  # no dice: every roll


def test_contains_counts_repeated_dice() -> None:
    assert capture._contains((2, 2, 5), (2, 2))
    assert not capture._contains((2, 3, 5), (2, 2))
    assert capture._contains((1, 4, 6), ())
    assert not capture._contains((1, 4, 6), (1, 4, 6, 6))


def test_weights_by_byte_sum_the_orderings_of_the_rolls_in_each_byte_of_a_mask() -> None:
    tables = capture._weights_by_byte()
    weights = [w for _, w in capture.ROLLS]
    assert len(tables) == 7 and all(len(t) == 256 for t in tables)
    for byte, table in enumerate(tables):
        for value in range(256):
            bits = [byte * 8 + b for b in range(8) if value >> b & 1]
            assert table[value] == sum(weights[i] for i in bits if i < len(weights)), (byte, value)


def test_mask_weight_counts_ordered_rolls() -> None:
    rolls = [roll for roll, _ in capture.ROLLS]
    with_a_six = sum(1 << i for i, roll in enumerate(rolls) if 6 in roll)
    assert capture.mask_weight(with_a_six) == sum(1 for r in ORDERED if 6 in r) == 91
    assert capture.mask_weight(capture.ALL_ROLLS) == 216
    assert capture.mask_weight(0) == 0


def _knight_distance(a: int, b: int) -> int:
    """Breadth-first over python-chess's knight moves: an enumeration of its own."""
    seen, frontier, steps = {a}, {a}, 0
    while b not in frontier:
        frontier = {t for s in frontier for t in chess.SquareSet(chess.BB_KNIGHT_ATTACKS[s])} - seen
        seen |= frontier
        steps += 1
    return steps


def test_knight_distances_are_the_fewest_knight_moves_between_two_squares() -> None:
    table = capture._knight_distances()
    assert [[_knight_distance(a, b) for b in range(64)] for a in range(64)] == table
    assert table[chess.A1][chess.H8] == 6 and table[chess.A1][chess.B2] == 4
