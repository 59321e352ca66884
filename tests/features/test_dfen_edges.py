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


@pytest.mark.parametrize(("fen", "message"), [
    ("8/8/8/8/8/8/8/8 w - - 0 1 p  x", "bad FEN '8/8/8/8/8/8/8/8 w - - 0 1 p  x': expected 4 to 7 space-separated"
     " fields, found 9; fields are separated by single spaces (this text has tabs, newlines or runs of spaces)"),
    ("8/8/8/8/8/8/8/8\tw - -", "bad FEN '8/8/8/8/8/8/8/8\\tw - -': expected 4 to 7 space-separated fields,"
     " found 3; fields are separated by single spaces (this text has tabs, newlines or runs of spaces)"),
    ("8/8/8/8/8/8/8/8 w - - 0 1 p x", "bad FEN '8/8/8/8/8/8/8/8 w - - 0 1 p x': expected 4 to 7 space-separated"
     " fields, found 8"),
    (" 8/8/8 ", "bad FEN ' 8/8/8 ': expected 4 to 7 space-separated fields, found 2"),
    ("8/8/8/8/8/8/8/8  w - -", "bad FEN side '': expected 'w' or 'b'; fields are separated by single spaces"),
])
def test_the_whitespace_hint_appears_exactly_when_the_spacing_is_odd(fen: str, message: str) -> None:
    assert str(error(fen)) == message


@pytest.mark.parametrize(("side", "text"), [("x", "x"), (1, "1"), (None, "None"), ("W", "W")])
def test_a_side_that_is_not_w_or_b_names_what_was_given(side: object, text: str) -> None:
    from contract.features.dfen import side_from_text

    with pytest.raises(FenError) as caught:
        side_from_text(side)
    assert (caught.value.field, caught.value.text, caught.value.reason) == ("side", text, "expected 'w' or 'b'")


def test_printing_field_counts_and_squares() -> None:
    from contract.features.dfen import ep_text, to_fen

    assert to_fen(parse_fen(f"{EMPTY} w - - 3 9 pn")) == f"{EMPTY} w - - 3 9 PN"
    assert to_fen(parse_fen(f"{EMPTY} b - -")) == f"{EMPTY} b - - 0 1"
    assert to_fen(parse_fen(f"{EMPTY} b - - 3 9 pn"), 6) == f"{EMPTY} b - - 3 9"
    assert to_fen(parse_fen(f"{EMPTY} b - - 3 9 pn"), 4) == f"{EMPTY} b - -"
    assert ep_text(0) == "-" and ep_text(1 << 63 | 1 << 16) == "a3h8"


def test_quote_of_a_non_string_keeps_exactly_80_characters() -> None:
    eighty = ["a" * 76]  # repr is exactly 80 characters
    assert len(repr(eighty)) == 80 and quote(eighty) == repr(eighty)
    assert quote(["a" * 77]) == repr(["a" * 77])[:80] + "… (81 characters)"


@pytest.mark.parametrize(("fen", "twin"), [
    (f"{EMPTY} w - -", f"{EMPTY} b - -"),
    (f"{EMPTY} w - - 0", f"{EMPTY} b - - 0 1"),
    (f"{EMPTY} w - - 0 1", f"{EMPTY} b - - 0 1"),
    (f"{EMPTY} w - - 0 1 PN", f"{EMPTY} b - - 0 1 pn"),
    (f"{EMPTY} w - - 0 1 -", f"{EMPTY} b - - 0 1"),
])
def test_the_twin_keeps_the_number_of_fields(fen: str, twin: str) -> None:
    from contract.features.dfen import twin_fen

    assert twin_fen(fen) == twin


def test_the_twin_of_something_that_is_not_text_is_a_fen_error() -> None:
    from contract.features.dfen import twin_fen

    with pytest.raises(FenError) as caught:
        twin_fen(5)  # type: ignore[arg-type]
    assert str(caught.value) == "bad FEN '5': expected a string"


@pytest.mark.parametrize(("fen", "message"), [
    (f"{EMPTY} w - A3", "bad FEN en-passant 'A3': 'A3' is not a square a1..h8"),
    (f"{EMPTY} w - - x 1", "bad FEN half-move clock 'x': expected ASCII digits"),
    (f"{EMPTY} w - - 0 \u0661", "bad FEN full-move number '\u0661': expected ASCII digits"),
])
def test_squares_and_counters_refused_in_full(fen: str, message: str) -> None:
    assert str(error(fen)) == message
