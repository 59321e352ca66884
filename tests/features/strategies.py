"""Hypothesis strategies: DFEN strings the parser accepts, including boards no game reaches."""

from __future__ import annotations

from hypothesis import strategies as st

PIECES = "PNBRQKpnbrqk"
FILES = "abcdefgh"


@st.composite
def dfen_strings(draw: st.DrawFn, max_pieces: int = 16, pieces: str = PIECES + "KkQqKkQq") -> str:
    n = draw(st.integers(0, max_pieces))
    squares = draw(st.lists(st.integers(0, 63), min_size=n, max_size=n, unique=True))
    # by default biased towards kings and queens so the capture columns have targets
    letters = draw(st.lists(st.sampled_from(pieces), min_size=n, max_size=n))
    board = {sq: letter for sq, letter in zip(squares, letters, strict=True)}
    rows = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for file in range(8):
            letter = board.get(rank * 8 + file)
            if letter is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += letter
        rows.append(row + (str(empty) if empty else ""))
    side = draw(st.sampled_from("wb"))
    castling = "".join(draw(st.permutations("KQkq"))[: draw(st.integers(0, 4))]) or "-"
    ep_squares = draw(st.lists(st.sampled_from([f + r for f in FILES for r in "123456"]), max_size=3,
                               unique=True))
    ep = "".join(ep_squares) or "-"
    fen = f"{'/'.join(rows)} {side} {castling} {ep}"
    if draw(st.booleans()):
        dice = draw(st.text(alphabet="pnbrqkPNBRQK", min_size=0, max_size=3)) or "-"
        fen += f" {draw(st.integers(0, 127))} {draw(st.integers(1, 500))} {dice}"
    return fen
