"""DFEN refusals in full: the field, the text as written, the reason (the kit's message design, docs/features)."""

from __future__ import annotations

import pytest

from contract.features import FenError, parse_fen

EMPTY = "8/8/8/8/8/8/8/8"


@pytest.mark.parametrize(("fen", "message"), [
    ("X  X", "bad FEN 'X  X': expected 4 to 7 space-separated fields, found 3; fields are separated by single "
             "spaces (this text has tabs, newlines or runs of spaces)"),
    (f"{EMPTY} w - e", "bad FEN en-passant 'e': expected '-' or squares written back to back, e.g. 'e3' or 'a3c6'"),
    (f"{EMPTY} w - e3c", "bad FEN en-passant 'e3c': expected '-' or squares written back to back, e.g. 'e3' or "
                         "'a3c6'"),
    (f"{EMPTY} w - _3", "bad FEN en-passant '_3': '_3' is not a square a1..h8"),
    (f"{EMPTY} w - z9e3", "bad FEN en-passant 'z9e3': 'z9' is not a square a1..h8"),
    (f"{EMPTY} w - a3a3c6", "bad FEN en-passant 'a3a3c6': square 'a3' appears twice"),
    (f"{EMPTY} w KQkqK -", "bad FEN castling 'KQkqK': expected '-' or 1 to 4 letters from KQkq"),
    (f"{EMPTY} w KX -", "bad FEN castling 'KX': 'X' is not one of K, Q, k, q"),
    (f"{EMPTY} w KqK -", "bad FEN castling 'KqK': 'K' appears twice"),  # '_' sorts after 'a'..'h'
    (f"{EMPTY} w - Y3", "bad FEN en-passant 'Y3': 'Y3' is not a square a1..h8"),
    (f"{EMPTY} w - - 99999999999", "bad FEN half-move clock '99999999999': must be between 0 and 127"),
    (f"{EMPTY} w - - 128", "bad FEN half-move clock '128': must be between 0 and 127"),
    (f"{EMPTY} w - - 0 0", "bad FEN full-move number '0': must be between 1 and 2147483647"),
    (f"{EMPTY} w - - 0 2147483648", "bad FEN full-move number '2147483648': must be between 1 and 2147483647"),
    ("pppppppppppppppppppppppp/8/8/8/8/8/8/8 w - -",
     "bad FEN placement 'pppppppppppppppppppppppp/8/8/8/8/8/8/8': rank 8 ('pppppppppppppppppppp'… (24 characters)) "
     "has more than 8 files"),
    ("0000000000000000000000007/8/8/8/8/8/8/8 w - -",
     "bad FEN placement '0000000000000000000000007/8/8/8/8/8/8/8': rank 8 ('00000000000000000000'… (25 characters)) "
     "covers 7 files, not 8"),
])
def test_a_refusal_names_the_field_the_text_and_the_reason(fen: str, message: str) -> None:
    with pytest.raises(FenError) as caught:
        parse_fen(fen)
    assert str(caught.value) == message


def test_a_counter_may_use_every_digit() -> None:
    assert parse_fen(f"{EMPTY} w - - 0 1234567890").fullmove == 1234567890
    assert parse_fen(f"{EMPTY} w - - 0000000000127 1").halfmove == 127  # leading zeros, as Java's parseInt
