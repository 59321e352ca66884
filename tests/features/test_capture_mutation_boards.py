"""Boards found by the mutation runs of issue 27: each kills a mutmut mutant of the fast capture search
(tests/mutation/, docs/testing.md) that the probes and the seeded runs of test_capture.py let survive.

Found by a hunt over random boards of several kinds (sparse boards, e.p. squares with their victims, the
capturing pawn one move away or a victim square holding another piece, castling rights with king and rook at
home, pawns on their start ranks, pawns about to promote, positions after random play): the fast search under
the mutant against the unmutated one, each difference then confirmed against the reference search; a few were
written by hand. The ids name the function the board's first mutant is in. The assertion is the one every
capture test makes: for both sides' kings and queens, the fast count equals the reference's.
"""

from __future__ import annotations

import pytest

from contract.features import parse_fen
from contract.features.capture import capture_count, capture_count_reference
from contract.features.position import KING, QUEEN

BOARDS = [
    pytest.param("Q7/5p2/4b3/3p1p2/1Q2RK2/7P/8/7b b - f3", id="after-first-0"),
    pytest.param("8/8/2k5/4B1nq/5P1P/8/5N2/8 w - h6", id="after-first-1"),
    pytest.param("8/1k5p/8/8/8/6K1/6P1/6P1 w - -", id="out-of-reach-2"),
    pytest.param("2p2B2/2pp1p2/8/8/8/1K3k2/8/8 b - -", id="out-of-reach-3"),
    pytest.param("8/8/6kN/3p1p2/3bPK2/8/6K1/8 b - f3", id="capture-mask-4"),
    pytest.param("rn2k1r1/p2p4/b5p1/1p1pp1B1/1P1nP3/P1QB3P/2PNKPP1/R2R4 w - - 0 12", id="approach-candidates-5"),
    pytest.param("8/8/8/4p3/8/8/1p1PQ2R/1q6 b - d3", id="two-left-6"),
    pytest.param("7R/6bP/3N4/5p2/7k/7K/8/8 w - f6", id="approach-candidates-7"),
    pytest.param("5p2/8/1K4k1/8/N7/8/3P3P/P7 b - -", id="out-of-reach-8"),
    pytest.param("8/8/3k4/8/8/8/4P3/4K3 w - - 1 2", id="out-of-reach-9"),
    pytest.param("1pp1p3/8/8/1q6/8/K7/P3P2P/6r1 w - -", id="approach-candidates-10"),
    pytest.param("r7/p3rkB1/q4P1p/np2p3/2Qp4/3PnbP1/PP2KP1P/1R3BR1 w - - 6 15", id="discoveries-11"),
    pytest.param("rn3r2/p6p/1pp2Bpn/k1b5/5Q2/PPPNKB1q/3P1P2/1RB2bNR w - - 3 11", id="discoveries-12"),
    pytest.param("8/8/2Q5/1pp4q/P1k5/8/8/8 w - c6", id="two-left-13"),
    pytest.param("8/8/1Q6/p1p5/1NKb4/8/8/8 b - c3", id="child-14"),
    pytest.param("3p4/8/1q6/1p3p2/5n2/4K3/6P1/8 b - -", id="approach-candidates-15"),
    pytest.param("1r6/3Q2q1/8/8/8/1p6/5N2/4K2R w K -", id="child-16"),
    pytest.param("1K6/4Q3/8/8/4rpK1/5b2/8/R7 b - g3", id="generic-17"),
    pytest.param("K7/R7/8/p3b3/8/2K4p/p5p1/8 b - -", id="destinations-18"),
    pytest.param("K7/8/q7/4B1q1/7P/6pp/3R4/8 w - g6", id="child-19"),
    pytest.param("8/p1b4p/8/7n/2p3Q1/8/b2k4/8 w - h6", id="approach-candidates-20"),
    pytest.param("8/8/8/2pPQq2/8/3r4/p4p2/2K5 w - c6", id="destinations-21"),
    pytest.param("1b6/8/5PK1/7n/5q2/8/6KB/1k6 b - -", id="approach-candidates-22"),
    pytest.param("5N2/6Q1/8/Rpp1k3/1P5q/8/4p3/8 w - b6", id="two-left-23"),
    pytest.param("1k6/8/8/5pk1/4P1P1/b5pR/8/3q4 w - g6", id="child-24"),
    pytest.param("6N1/7Q/8/1p1p1N1R/b1PK4/7b/8/8 b - d3", id="child-25"),
    pytest.param("rn1q2n1/pb1p2pr/1p1NkpB1/2p1p2Q/1P2P3/2N5/P1PPK1Pb/R1B1R3 w - - 1 9", id="approach-candidates-26"),
    pytest.param("2bk1b1r/p1rp2p1/6np/1pQ1p1N1/1P2Pp2/N2n2PP/PBP1qP2/R4B1R b - - 0 8", id="child-27"),
    pytest.param("2r2br1/pb2p1pp/1pkp3Q/1qp1Npn1/4P3/3K4/PPPPBPPP/1RB3NR b - - 10 8", id="child-28"),
    pytest.param("5k2/8/P7/6P1/8/8/8/8 w - -", id="approach-29"),
    pytest.param("K3k2r/8/8/8/7k/8/8/8 b k -", id="discoveries-30"),
    pytest.param("8/8/k7/8/8/8/N7/R3K3 w Q -", id="discoveries-31"),
    pytest.param("8/8/8/4q3/3n4/2n5/1P6/8 w - -", id="out-of-reach-32"),
    pytest.param("8/8/8/3qP3/8/8/8/R3K3 w Q d6", id="generic-33"),
    pytest.param("8/2k5/8/3q4/4P3/8/8/4K3 w - - 2 2", id="out-of-reach-34"),
    pytest.param("7k/8/8/P7/8/8/8/R2N4 w - -", id="capture-mask-35"),
    pytest.param("3q4/8/6P1/5P2/8/b7/8/8 w - -", id="child-36"),
    pytest.param("8/8/8/4p3/K3PPr1/8/8/8 b - e3", id="child-37"),
    pytest.param("8/8/8/2kpqR2/2P5/8/8/8 w - e6", id="child-38"),
    pytest.param("8/8/8/2BP4/8/8/8/2qB2Q1 w - c6", id="discoveries-39"),
    pytest.param("8/8/8/pP6/8/8/2n2p2/4K2R w K a6", id="direct-types-40"),
    pytest.param("8/8/8/Rq4nk/5P1P/8/8/8 w - h6", id="after-first-41"),
    pytest.param("8/8/8/Rpp3k1/1P6/5B2/8/8 w - b6", id="child-42"),
    pytest.param("8/8/8/4k1K1/5Pp1/2R1r3/8/8 b - f3", id="child-43"),
    pytest.param("8/8/7N/4k3/4Pp2/8/4Q3/q7 b - e3", id="child-44"),
    pytest.param("4k2r/8/7K/8/8/7p/3K1P2/8 b k -", id="child-45"),
    pytest.param("3q2k1/8/1P2b3/3r4/8/8/2k5/8 w - -", id="child-46"),
    pytest.param("3p4/6K1/5n2/3P4/3b4/3k4/8/8 w - -", id="two-left-47"),
    pytest.param("8/4R3/8/5p2/Q4PPr/8/3K4/8 b - f3", id="child-48"),
    pytest.param("8/3b4/5k2/Qpr5/1P3n2/8/8/8 w - b6", id="destinations-49"),
    pytest.param("4k2r/4Pq2/8/5k2/8/8/5Q2/7R b k -", id="two-left-50"),
    pytest.param("3r4/8/k7/6Q1/3PpQp1/8/8/8 b - d3f3", id="capture-mask-51"),
    pytest.param("k4Qq1/8/8/8/8/k7/5Q1P/4K2R w K -", id="destinations-52"),
    pytest.param("8/8/5p2/3Rnq1q/3P3N/8/8/1Q6 w - f6", id="capture-mask-53"),
    pytest.param("8/8/3n1Q2/3K4/3pnp2/r7/p7/8 b - e3", id="child-54"),
    pytest.param("8/8/2r5/6k1/1Kpb4/3n4/N1K5/8 b - b3", id="generic-55"),
    pytest.param("5pp1/6pp/1q6/8/P5K1/8/8/6P1 w - -", id="destinations-56"),
    pytest.param("4k3/4b3/3k3P/B2P1P2/8/8/8/6R1 w - -", id="approach-57"),
    pytest.param("q5pQ/7k/8/2k5/2r5/P6r/K7/8 w - -", id="discoveries-58"),
    pytest.param("8/8/n7/1K6/2q5/1N6/1R5B/3kK2R w K -", id="discoveries-59"),
    pytest.param("8/8/3q4/2kP2Rq/P1P3P1/2N5/8/8 w - c6", id="generic-60"),
    pytest.param("5bq1/5p2/8/6qQ/8/1p6/3P3P/3P4 w - h6", id="destinations-61"),
    pytest.param("r3k2r/8/2k5/4N3/1k1q1p2/Q7/4R3/8 b kq -", id="direct-types-62"),
    pytest.param("8/8/8/3pP1Q1/1k6/2K1R2K/5k2/R1p1KN2 w Q d6", id="child-63"),
    pytest.param("8/3Q1b2/5Q2/1q6/1ppPp1P1/B2r4/P7/8 b - d3g3a3", id="capture-mask-64"),
    pytest.param("8/3p4/1Q1k4/Pp1KQPqP/1R2P3/2k5/8/q7 w - d6b6g6", id="capture-mask-65"),
    pytest.param("6k1/2pb4/1p4p1/2P1r3/1pP1R2Q/1B5P/6R1/8 b - - 0 6", id="capture-mask-66"),
    pytest.param("r1N1kb1r/1pqp1ppp/8/8/1B2p3/1P1P3P/P1PnPPPR/RQ3BN1 b kq - 0 6", id="capture-mask-67"),
    pytest.param("3k1b1r/pr3pp1/1p1pn3/2p5/qP4P1/2PpQ2P/P2K1PBR/RNB3N1 b - - 7 11", id="capture-mask-68"),
    # castling queenside, then Rd1xh1 along the rank the king left: the only win with {K, R, R}, and no roll with
    # both a king and a rook die is won before the castling move is looked at (written by hand)
    pytest.param("k7/8/8/8/8/2PPPPP1/2PPPPP1/R3K2q w Q - 0 1", id="capture-mask-castle-69"),
    # exd6 e.p. opens the fifth rank, but the black knight on g5 still stands between the rook and the queen: the
    # one-die check after the e.p. capture must count every black piece as a blocker (written by hand)
    pytest.param("7k/8/8/R2pP1nq/8/8/8/K7 w - d6", id="after-first-70"),
    # Nxb4 takes one of two black kings; the other, on e8, still keeps d7xe8 from promoting (a pawn that takes a
    # king on the last rank stays a pawn), so no queen from e8 reaches g6 (written by hand)
    pytest.param("3rk3/3P4/6q1/8/1k6/3N4/8/8 w - - 0 1", id="child-71"),
    # the knight leaves f4, then f2-f4 (a double push through the square it left) and fxe5: the only win with
    # {N, P, P}; the pawn two ranks behind the emptied square must be re-examined (written by hand)
    pytest.param("8/8/8/4q3/5N2/8/5P2/8 w - - 0 1", id="approach-candidates-72"),
]


@pytest.mark.parametrize("fen", BOARDS)
def test_a_board_found_by_the_mutation_runs_agrees_with_the_reference(fen: str) -> None:
    position = parse_fen(fen)
    for defender in (True, False):
        for target in (KING, QUEEN):
            assert capture_count(position, defender, target) == capture_count_reference(position, defender, target), \
                (fen, defender, target)
