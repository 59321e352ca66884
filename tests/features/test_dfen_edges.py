"""DFEN refusals in full (issue 16): the quote limit at 80 characters, die letters, rank counts.

Each case was a surviving mutant of ``contract.features.dfen``; every assertion pins the field, the
reason and the whole message.
"""

from __future__ import annotations

import pytest

from contract.features.dfen import QUOTE_LIMIT, FenError, parse_fen, quote

EMPTY = "8/8/8/8/8/8/8/8"


def error(fen: str) -> FenError:
    with pytest.raises(FenError) as caught:
        parse_fen(fen)
    return caught.value


def test_quote_keeps_80_characters_and_shortens_81() -> None:
    assert QUOTE_LIMIT == 80
    assert quote("a" * 80) == repr("a" * 80)
    assert quote("a" * 81) == repr("a" * 80) + "… (81 characters)"
    assert quote("b" * 100_000) == repr("b" * 80) + "… (100,000 characters)"
    assert quote("abc", 2) == "'ab'… (3 characters)"
    assert quote(["x"] * 3) == "['x', 'x', 'x']"
    assert quote(list(range(40))) == repr(list(range(40)))[:80] + f"… ({len(repr(list(range(40)))):,} characters)"


@pytest.mark.parametrize(("dice", "bad"), [("x", "x"), ("pz", "z"), ("pn1", "1"), ("P-", "-")])
def test_a_die_that_is_not_a_die_letter(dice: str, bad: str) -> None:
    caught = error(f"{EMPTY} w - - 0 1 {dice}")
    assert (caught.field, caught.text, caught.reason) == ("dice", dice, f"{bad!r} is not a die letter (p n b r q k)")
    assert str(caught) == f"bad FEN dice {dice!r}: {bad!r} is not a die letter (p n b r q k)"


def test_four_dice_are_too_many() -> None:
    caught = error(f"{EMPTY} w - - 0 1 pnbr")
    assert (caught.field, caught.text, caught.reason) == ("dice", "pnbr", "expected '-' or 1 to 3 letters from pnbrqk")


@pytest.mark.parametrize(("placement", "found"), [
    ("8/8/8/8/8/8/8", 7), ("8/8/8/8/8/8/8/8/8", 9), ("8", 1), ("/8/8/8/8/8/8/8/8", 9),
])
def test_a_placement_with_the_wrong_number_of_ranks(placement: str, found: int) -> None:
    caught = error(f"{placement} w - -")
    assert (caught.field, caught.text) == ("placement", placement)
    assert caught.reason == f"expected 8 ranks separated by '/', found {found}"
    assert str(caught) == f"bad FEN placement {placement!r}: expected 8 ranks separated by '/', found {found}"


@pytest.mark.parametrize(("rank", "reason"), [
    ("7", "rank 8 ('7') covers 7 files, not 8"),
    ("9", "rank 8 ('9') covers 9 files, not 8"),
    ("8p", "rank 8 ('8p') has more than 8 files"),
    ("pppppppp1", "rank 8 ('pppppppp1') covers 9 files, not 8"),
    ("x7", "'x' in rank 8 is neither a piece letter nor a digit"),
])
def test_a_rank_that_does_not_cover_eight_files(rank: str, reason: str) -> None:
    placement = rank + EMPTY[1:]
    caught = error(f"{placement} w - -")
    assert (caught.field, caught.reason) == ("placement", reason)
