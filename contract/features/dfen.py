"""DFEN, the dice-chess FEN dialect (spec/domain.md §2): parse, print, and the colour-flipped twin.

``<placement> <colour> <castling> <ep> [<halfmove> [<fullmove> [<dice>]]]``. Fields are split on single
spaces with Java ``String.split`` semantics (consecutive spaces make empty fields, trailing empty fields
are dropped), as the engine's parser does. Every refusal is a :class:`FenError` naming the field and
the offending text (quoted in full in ``.text``, shortened in the message when it is longer than
:data:`QUOTE_LIMIT` characters, so one pasted megabyte does not become a megabyte of log); nothing
half-parsed is ever returned.
"""

from __future__ import annotations

import chess

from contract.core.errors import ContractError
from contract.features.position import (
    CASTLE_LETTERS,
    PIECE_LETTERS,
    Position,
    castling_text,
    ep_text,
    placement_text,
    to_fen,
)

__all__ = ["castling_text", "ep_text", "parse_fen", "placement_text", "side_from_text", "to_fen", "twin_fen"]
_CASTLE_BITS = CASTLE_LETTERS
_DICE_FACES = {letter: face for face, letter in enumerate(PIECE_LETTERS) if face}
_MAX_HALFMOVE = 127
_MAX_FULLMOVE = 2_147_483_647
_DIGITS = frozenset("0123456789")
_WHITESPACE_HINT = "; fields are separated by single spaces"
QUOTE_LIMIT = 80  # characters of offending text quoted in a message before it is shortened


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``repr`` of ``value`` for a message, shortened past ``limit`` characters with its full length.

    ``quote("8/8")`` is ``'8/8'``; a 100,000-character string becomes its first ``limit`` characters
    quoted, then ``… (100,000 characters)``.
    """
    if isinstance(value, str):
        if len(value) <= limit:
            return repr(value)
        return f"{value[:limit]!r}… ({len(value):,} characters)"
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text):,} characters)"


class FenError(ContractError, ValueError):
    """A DFEN string the engine would refuse. ``field`` names the part; ``text`` is what was there."""

    def __init__(self, field: str, text: str, reason: str) -> None:
        self.field = field
        self.text = text
        self.reason = reason
        part = "" if field == "fen" else f"{field} "  # the whole text is not a part of itself
        super().__init__(f"bad FEN {part}{quote(text)}: {reason}")


def _java_split(text: str, sep: str) -> list[str]:
    parts = text.split(sep)
    while parts and parts[-1] == "":
        parts.pop()
    return parts


def _parse_square(text: str) -> int | None:
    if len(text) == 2 and "a" <= text[0] <= "h" and "1" <= text[1] <= "8":
        return (ord(text[1]) - 49) * 8 + (ord(text[0]) - 97)
    return None


def _parse_castling(text: str) -> int:
    if not 1 <= len(text) <= 4:
        raise FenError("castling", text, "expected '-' or 1 to 4 letters from KQkq")
    if text == "-":
        return 0
    rights = 0
    for char in text:
        bit = _CASTLE_BITS.get(char)
        if bit is None:
            raise FenError("castling", text, f"{char!r} is not one of K, Q, k, q")
        if rights & bit:
            raise FenError("castling", text, f"{char!r} appears twice")
        rights |= bit
    return rights


def _parse_ep(text: str) -> int:
    if text == "-":
        return 0
    if not text or len(text) % 2:
        raise FenError("en-passant", text, "expected '-' or squares written back to back, e.g. 'e3' or 'a3c6'")
    squares = 0
    for i in range(0, len(text), 2):
        square = _parse_square(text[i:i + 2])
        if square is None:
            raise FenError("en-passant", text, f"{text[i:i + 2]!r} is not a square a1..h8")
        if squares >> square & 1:
            raise FenError("en-passant", text, f"square {text[i:i + 2]!r} appears twice")
        squares |= 1 << square
    return squares


def _parse_counter(field: str, text: str, low: int, high: int) -> int:
    if not text or not set(text) <= _DIGITS:
        raise FenError(field, text, "expected ASCII digits")
    significant = text.lstrip("0")  # leading zeros are accepted (Java parseInt); never int() 5000 digits
    if len(significant) > len(str(high)):
        raise FenError(field, text, f"must be between {low} and {high}")
    value = int(significant or "0")
    if not low <= value <= high:
        raise FenError(field, text, f"must be between {low} and {high}")
    return value


def _parse_dice(text: str) -> tuple[int, ...]:
    if text == "-":
        return ()
    if not 1 <= len(text) <= 3:
        raise FenError("dice", text, "expected '-' or 1 to 3 letters from pnbrqk")
    faces = []
    for char in text:
        face = _DICE_FACES.get(char.lower())
        if face is None:
            raise FenError("dice", text, f"{char!r} is not a die letter (p n b r q k)")
        faces.append(face)
    return tuple(sorted(faces))


def _parse_placement(text: str) -> dict[int, tuple[bool, int]]:
    ranks = _java_split(text, "/")
    if len(ranks) != 8:
        raise FenError("placement", text, f"expected 8 ranks separated by '/', found {len(ranks)}")
    pieces: dict[int, tuple[bool, int]] = {}
    for index, rank_text in enumerate(ranks):
        rank = 7 - index
        file = 0
        for char in rank_text:
            if char in _DIGITS:
                file += ord(char) - 48
                continue
            ptype = PIECE_LETTERS.find(char.lower())
            if ptype <= 0:
                raise FenError("placement", text, f"{char!r} in rank {rank + 1} is neither a piece letter nor a digit")
            if file >= 8:
                raise FenError("placement", text, f"rank {rank + 1} ({quote(rank_text, 20)}) has more than 8 files")
            pieces[rank * 8 + file] = (char.isupper(), ptype)
            file += 1
        if file != 8:
            raise FenError("placement", text, f"rank {rank + 1} ({quote(rank_text, 20)}) covers {file} files, not 8")
    return pieces


def _whitespace_hint(fen: str) -> str:
    """A hint when the text holds whitespace other than single spaces (a tab, a newline, two spaces)."""
    if "  " in fen.strip(" ") or any(char.isspace() and char != " " for char in fen):
        return _WHITESPACE_HINT + " (this text has tabs, newlines or runs of spaces)"
    return ""


def parse_fen(fen: str) -> Position:
    """Parse a DFEN string (4 to 7 fields) into a :class:`Position`; raise :class:`FenError` if malformed."""
    if not isinstance(fen, str):
        raise FenError("fen", repr(fen), "expected a string")
    fields = _java_split(fen, " ")
    if not 4 <= len(fields) <= 7:
        raise FenError("fen", fen, f"expected 4 to 7 space-separated fields, found {len(fields)}"
                       + _whitespace_hint(fen))
    colour_text = fields[1]
    if colour_text not in ("w", "b"):
        raise FenError("side", colour_text, "expected 'w' or 'b'" + (_WHITESPACE_HINT if not colour_text else ""))
    castling = _parse_castling(fields[2])
    ep = _parse_ep(fields[3])
    halfmove = _parse_counter("half-move clock", fields[4], 0, _MAX_HALFMOVE) if len(fields) > 4 else 0
    fullmove = _parse_counter("full-move number", fields[5], 1, _MAX_FULLMOVE) if len(fields) > 5 else 1
    dice = _parse_dice(fields[6]) if len(fields) > 6 else ()
    pieces = _parse_placement(fields[0])
    return Position.from_pieces(pieces, colour_text == "w", castling, ep, halfmove, fullmove, dice)


def side_from_text(side: object) -> bool:
    """``'w'`` -> ``chess.WHITE``, ``'b'`` -> ``chess.BLACK``; anything else is a :class:`FenError`.

    ``chess.WHITE``/``chess.BLACK`` themselves are returned as they are: ``extract`` takes either form,
    and ``extract_fen(..., side=chess.BLACK)`` must not be refused as "bad side 'False'"."""
    if side == "w":
        return chess.WHITE
    if side == "b":
        return chess.BLACK
    if isinstance(side, bool):
        return side
    raise FenError("side", side if isinstance(side, str) else repr(side), "expected 'w' or 'b'")


def twin_fen(fen: str) -> str:
    """The colour-flipped, rank-mirrored twin of ``fen`` with the side to move swapped.

    Extracting the twin for the other colour gives the identical vector (mover canonical features).
    The number of fields is kept (4, 6 or 7); the dice letters are re-cased for the new side.
    """
    position = parse_fen(fen)  # refuses what is not a DFEN string
    # 7 writes the counters, and the dice only when there are some: a 5- or 6-field text has none
    return to_fen(position.color_flip(), 4 if len(_java_split(fen, " ")) == 4 else 7)
