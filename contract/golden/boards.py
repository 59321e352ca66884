"""Chess boards as small inline SVG that share one set of definitions.

python-chess draws a board with the piece definitions and the coordinate glyphs inside every SVG;
on a page of a hundred boards that repeats the same ids a hundred times and most of the bytes. Here
the pieces and the two empty boards (one per orientation) are defined once (:func:`definitions`,
placed once at the top of the page), and each board (:func:`board`) is the empty board plus a
``<use>`` per piece, drawn from the same python-chess rendering. Only the placement is drawn, so a
malformed position draws too; a placement python-chess cannot read draws as a short note.
"""

from __future__ import annotations

import html
import xml.etree.ElementTree as ET
from functools import cache

import chess
import chess.svg

SIZE = 200
_ORIENTATIONS = {"w": chess.WHITE, "b": chess.BLACK}
_HREF_KEYS = ("href", "{http://www.w3.org/1999/xlink}href")


def _local(name: str) -> str:
    return name.rsplit("}", 1)[-1]


def _markup(element: ET.Element) -> str:
    """An SVG element as text without namespace prefixes (the page's inline SVG needs none)."""
    attributes = "".join(f' {_local(k)}="{html.escape(v, quote=True)}"' for k, v in element.attrib.items()
                         if not k.startswith("{http://www.w3.org/1999/xlink}"))
    inner = html.escape(element.text or "", quote=False)
    inner += "".join(_markup(child) + html.escape(child.tail or "", quote=False) for child in element)
    tag = _local(element.tag)
    return f"<{tag}{attributes}>{inner}</{tag}>" if inner else f"<{tag}{attributes}/>"


def _drawing(placement: chess.BaseBoard, side: str) -> ET.Element:
    svg = chess.svg.board(placement, size=SIZE, orientation=_ORIENTATIONS[side])
    return ET.fromstring(str(svg))


def _href(element: ET.Element) -> str:
    return next((value for value in (element.get(k) for k in _HREF_KEYS) if value), "")


def _is_piece(element: ET.Element) -> bool:
    return _local(element.tag) == "use" and _href(element).startswith("#")


@cache
def definitions() -> str:
    """One hidden SVG holding the 12 piece definitions and the empty board for each orientation."""
    full = _drawing(chess.BaseBoard(), "w")
    pieces = "".join(_markup(child) for defs in full if _local(defs.tag) == "defs" for child in defs)
    symbols = []
    for side in _ORIENTATIONS:
        empty = _drawing(chess.BaseBoard.empty(), side)
        parts = "".join(_markup(child) for child in empty if _local(child.tag) not in ("desc", "defs"))
        symbols.append(f'<symbol id="board-{side}" viewBox="{empty.get("viewBox")}">{parts}</symbol>')
    return ('<svg width="0" height="0" style="position:absolute" aria-hidden="true">'
            f"<defs>{pieces}{''.join(symbols)}</defs></svg>")


def board(fen: str, side: str) -> str:
    """The placement of ``fen`` seen from ``side`` ('w' or 'b'), using :func:`definitions`."""
    placement_text = fen.split(" ", maxsplit=1)[0]
    try:
        placement = chess.BaseBoard(placement_text)
    except ValueError:
        return '<p class="noboard">(board cannot be drawn)</p>'
    orientation = side if side in _ORIENTATIONS else "w"
    drawing = _drawing(placement, orientation)
    pieces = "".join(
        f'<use href="{html.escape(_href(element), quote=True)}"'
        f' transform="{html.escape(element.get("transform", ""), quote=True)}"/>'
        for element in drawing if _is_piece(element))
    label = html.escape(f"board of {placement_text} from {'white' if orientation == 'w' else 'black'}'s side")
    return (f'<svg class="board" viewBox="{drawing.get("viewBox")}" width="{SIZE}" height="{SIZE}" role="img"'
            f' aria-label="{label}"><use href="#board-{orientation}"/>{pieces}</svg>')
