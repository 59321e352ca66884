"""Capture counts at the edges of what three micro-moves can reach, counted by hand from spec/domain.md §7
(ordered rolls of 3d6 out of 216; a die face names the piece type that moves: P N B R Q K; a sequence of
pseudo-legal micro-moves, one die each, that lands on a target wins the roll).

Each board sits on one side of a boundary of the fast search's shortcut (``_out_of_reach``: three king
steps, three knight jumps, three pawn moves, four from the start rank) or needs a discovered line. The
count written beside each board is worked out by hand in its comment; both the fast count and the
reference search must give it, so a change to either that moves a boundary is seen.
"""

from __future__ import annotations

import pytest

from contract.features import parse_fen
from contract.features.capture import capture_count, capture_count_reference
from contract.features.position import KING, QUEEN

WHITE, BLACK = True, False

# (FEN, defender, target type, winning ordered rolls): the attacker is the other colour
BOARDS = [
    # white king a1, black queen d4: three king steps (a1-b2-c3xd4) need K K K
    pytest.param("7k/8/8/8/3q4/8/8/K7 w - -", BLACK, QUEEN, 1, id="king-three-steps"),
    # two steps (a1-b2xc3): any roll with two or more K: 3*5 + 1
    pytest.param("7k/8/8/8/8/2q5/8/K7 w - -", BLACK, QUEEN, 16, id="king-two-steps"),
    # four steps: out of reach
    pytest.param("7k/8/8/8/4q3/8/8/K7 w - -", BLACK, QUEEN, 0, id="king-four-steps"),
    # the same for the black king against the white king: h8 to e5 is three steps
    pytest.param("7k/8/8/4K3/8/8/8/8 w - -", WHITE, KING, 1, id="black-king-three-steps"),
    pytest.param("7k/8/8/8/3K4/8/8/8 w - -", WHITE, KING, 0, id="black-king-four-steps"),
    # knight a1 (king h1 far away): d5 is three jumps away (a1-c2-e3xd5), N N N
    pytest.param("7k/8/8/3q4/8/8/8/N6K w - -", BLACK, QUEEN, 1, id="knight-three-jumps"),
    # c5 is two jumps (a1-b3xc5): two or more N
    pytest.param("7k/8/8/2q5/8/8/8/N6K w - -", BLACK, QUEEN, 16, id="knight-two-jumps"),
    # h8 is six jumps from a1: out of reach (the black king is elsewhere)
    pytest.param("k6q/8/8/8/8/8/8/N6K w - -", BLACK, QUEEN, 0, id="knight-far"),
    # white pawn c3, not on its start rank: c3xd4, d4xe5, e5xf6 takes the queen three ranks up and three
    # files aside, P P P (the black pawns are what it captures on the way)
    pytest.param("7k/8/5q2/4p3/3p4/2P5/8/K7 w - -", BLACK, QUEEN, 1, id="pawn-three-ranks-three-files"),
    # from its start rank a pawn reaches four ranks up: e2-e4, e4-e5, e5xd6, P P P
    pytest.param("7k/8/3q4/8/8/8/4P3/K7 w - -", BLACK, QUEEN, 1, id="pawn-start-four-ranks"),
    # a pawn off its start rank (e3) reaches three ranks up (e3-e4, e4-e5, e5xd6: P P P) but not four (d7)
    pytest.param("7k/8/3q4/8/8/4P3/8/K7 w - -", BLACK, QUEEN, 1, id="pawn-e3-three-ranks"),
    pytest.param("7k/3q4/8/8/8/4P3/8/K7 w - -", BLACK, QUEEN, 0, id="pawn-e3-four-ranks"),
    # and from the start rank not five (e2 against d7)
    pytest.param("7k/3q4/8/8/8/8/4P3/K7 w - -", BLACK, QUEEN, 0, id="pawn-start-five-ranks"),
    # four files aside is out of reach even three ranks up (c3 against g6 over d4, e5, f6 is four moves)
    pytest.param("7k/8/6q1/4pp2/3p4/2P5/8/K7 w - -", BLACK, QUEEN, 0, id="pawn-four-files"),
    # one rank ahead and one file aside is a direct capture: any roll with a P (216 - 5**3), kings four away
    pytest.param("K6k/8/8/8/4q3/3P4/8/8 w - -", BLACK, QUEEN, 91, id="pawn-one-rank"),
    pytest.param("8/8/4p3/3Q4/8/8/8/k6K w - -", WHITE, QUEEN, 91, id="black-pawn-one-rank"),
    # black pawn e7 against a white queen on d3: e7-e5, e5-e4, e4xd3, P P P
    pytest.param("k7/4p3/8/8/8/3Q4/8/7K w - -", WHITE, QUEEN, 1, id="black-pawn-start-four-ranks"),
    # black pawn c6 (not its start rank): c6xd5, d5xe4, e4xf3
    pytest.param("k7/8/2p5/3P4/4P3/5Q2/8/7K w - -", WHITE, QUEEN, 1, id="black-pawn-three-and-three"),
    # a discovery: the white king on a4 is the only piece between the rook a1 and the queen a8; a K die
    # steps it off the file and an R die takes (any roll with both K and R: 216 - 2*125 + 64 = 30), or
    # the rook goes round alone (a1-b1, b1-b8, b8xa8: R R R): 31
    pytest.param("q6k/8/8/8/K7/8/8/R7 w - -", BLACK, QUEEN, 31, id="discovery-king-off-the-file"),
    # two blockers (king a4, knight a2): both must leave before the rook takes, K N R in any order (6
    # ordered rolls); the rook going round (R R R) is the only other way (the knight is four jumps from a8,
    # the king four steps): 7
    pytest.param("q6k/8/8/8/K7/8/N7/R7 w - -", BLACK, QUEEN, 7, id="discovery-two-blockers"),
    # an approach a first move opens: the pawn h2 is the first piece on the black king h1's file; h2-h4 opens
    # it, the rook a3 (which does not attack h2) steps to h3 and takes, P R R. The other order fails (a rook
    # on h3 blocks the double push), the rook never attacks h1 after one move of its own (a2 blocks the
    # a-file, h2 the h-file), so R R R (a3-b3, b3-b1, b1xh1) is the only other way; every other roll with
    # fewer than two R or a K/N/B/Q beside R R moves nothing useful: 1 + 3 = 4
    pytest.param("K7/8/8/8/8/R7/P6P/7k w - -", BLACK, KING, 4, id="approach-through-an-opened-file"),
    # the same mirrored for Black (h7-h5, a6-h6, h6xh8)
    pytest.param("7K/p6p/r7/8/8/8/8/k7 w - -", WHITE, KING, 4, id="black-approach-through-an-opened-file"),
    # every piece type attacks the queen e5 at once (king d5, pawn d4, knight f3, bishop h8, rook e1, queen
    # h5): every roll holds a face that captures directly, 216 of 216 (the search may stop at its first level)
    pytest.param("k6B/8/8/3Kq2Q/3P4/5N2/8/4R3 w - -", BLACK, QUEEN, 216, id="every-roll-direct"),
    # the same without the rook: only R R R moves nothing, 216 - 1; with the rook on a1 instead, R R R wins
    # too (a1-e1, e1xe5), 216 again, though not every roll directly
    pytest.param("k6B/8/8/3Kq2Q/3P4/5N2/8/8 w - -", BLACK, QUEEN, 215, id="every-roll-but-rrr"),
    pytest.param("k6B/8/8/3Kq2Q/3P4/5N2/8/R7 w - -", BLACK, QUEEN, 216, id="every-roll-rook-two-moves"),
    # the last roll needs all three dice: a rook on h2 (the pawn g2 closes rank 2, the knight f3 rank 3) attacks
    # e5 from no square one move away (h1, h3, h4), so R R R wins only by h2-h4, h4-e4, e4xe5 (or h2-h1, h1-e1,
    # e1xe5): 215 + 1 = 216, found only after a first move
    pytest.param("k6B/8/8/3Kq2Q/3P4/5N2/6PR/8 w - -", BLACK, QUEEN, 216, id="every-roll-rook-three-moves"),
]


@pytest.mark.parametrize(("fen", "defender", "target", "expected"), BOARDS)
def test_a_capture_at_the_edge_of_three_moves_is_counted_as_the_rules_say(fen: str, defender: bool, target: int,
                                                                          expected: int) -> None:
    position = parse_fen(fen)
    assert capture_count_reference(position, defender, target) == expected
    assert capture_count(position, defender, target) == expected
