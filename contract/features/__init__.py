"""Dice-chess positions, move generation and the seven feature extractors, bit-exact with the engine.

Public API::

    from contract.features import parse_fen, FenError, Position, extract, extract_batch, extract_fen
    pos = parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -")
    vec = extract("kcp-13", pos, chess.WHITE)            # numpy float32 [13]
    mat = extract_batch("kcp-13", [(pos, chess.WHITE)])  # numpy float32 [1, 13]
    vec = extract_fen("kcp-13", fen, side=None)          # side 'w'/'b', None = the FEN's side to move
    twin_fen(fen)                                         # colour-flipped, rank-mirrored twin

Module map: :mod:`.position` (the state), :mod:`.dfen` (the FEN dialect), :mod:`.movegen`
(pseudo-legal generation, make-move, legal filter, perft), :mod:`.capture` (the 56-roll capture
search), :mod:`.blocks` (the quantities), :mod:`.extractors` (schemas bound to the registry),
:mod:`.rows` (row-level extraction shared by the CLI and bulk tools).
"""

from contract.features.dfen import FenError, parse_fen, to_fen, twin_fen
from contract.features.extractors import UnknownSchemaError, extract, extract_batch, extract_fen
from contract.features.position import Position
from contract.features.rows import RowResult, extract_rows

__all__ = [
    "FenError",
    "Position",
    "RowResult",
    "UnknownSchemaError",
    "extract",
    "extract_batch",
    "extract_fen",
    "extract_rows",
    "parse_fen",
    "to_fen",
    "twin_fen",
]
