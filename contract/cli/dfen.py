"""The one sentence a command's ``--help`` says about DFEN, the position text the feature commands read
(``extract --fen``, the ``fen`` of ``extract --input`` rows and of the raw training shards). Only text: no
parsing here (``contract.features.dfen`` parses). The help names no file of the checkout (a wheel has no
docs/); the checkout's docs/features.md has the longer DFEN section."""

from __future__ import annotations

from typing import Final

DFEN_EXAMPLE: Final = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1 pnb"
DFEN_HELP: Final = (
    "DFEN is dice-chess FEN: FEN's placement, side to move, castling and en passant fields (several en passant"
    " squares may be listed), the optional half-move and full-move clocks, then an optional seventh field, the"
    " dice pool (1 to 3 of the letters pnbrqk, printed uppercase when White moves), e.g. '" + DFEN_EXAMPLE + "'."
)

__all__ = ["DFEN_EXAMPLE", "DFEN_HELP"]
