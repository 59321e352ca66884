"""The corpus as a static HTML page: people look at positions rather than read FENs.

One row per probe: its board drawn as SVG by python-chess (placement only, so malformed boards draw
too), id, FEN, side, tags, note, and its vector for every feature schema. A cell whose value would
change against the committed corpus (drift) or that disagrees with a recorded corpus is highlighted,
with the other value in its tooltip and beside it. The page is deterministic (no timestamps) and
self-contained (no scripts, no external files).
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

import chess
import chess.svg

from contract.core.floattext import float32_text
from contract.core.registry import feature_schemas
from contract.core.strictjson import parse as parse_json
from contract.golden.drift import Cell
from contract.golden.recorded import Agreement
from contract.golden.vectors import VectorFile, read

PROBES_FILE = "golden/probes.json"
SPARSE_WIDTH = 100  # schemas wider than this list only their non-zero and highlighted columns
BOARD_SIZE = 200

STYLE = """
body { font-family: system-ui, sans-serif; margin: 1em; color: #222; }
table.probes { border-collapse: collapse; }
table.probes > tbody > tr > td { border-top: 1px solid #bbb; padding: 0.6em; vertical-align: top; }
.id { font-weight: bold; font-size: 1.1em; }
.fen { font-family: monospace; font-size: 0.85em; }
.tag { display: inline-block; background: #e8eef7; border-radius: 3px; padding: 0 0.4em; margin: 1px;
       font-size: 0.8em; }
table.vec { border-collapse: collapse; margin-bottom: 0.4em; font-size: 0.75em; }
table.vec th, table.vec td { border: 1px solid #ddd; padding: 1px 4px; text-align: right; }
table.vec th { background: #f4f4f4; font-weight: normal; }
table.vec caption { text-align: left; font-weight: bold; }
td.drift { background: #ffd27f; }
td.disagree { background: #ff9a9a; }
.other { display: block; font-size: 0.85em; color: #700; }
.summary { margin-bottom: 1em; }
"""


def _cell_key(cell: Cell) -> tuple[str, str, str]:
    return (cell.schema.split(" ")[0], cell.probe, cell.column)


def _value_cell(value: float, key: tuple[str, str, str], drifted: Mapping[tuple[str, str, str], Cell],
                disagreeing: Mapping[tuple[str, str, str], Cell]) -> str:
    text = html.escape(float32_text(value))
    if key in disagreeing:
        other = float32_text(disagreeing[key].old)
        return (f'<td class="disagree" title="recorded {other}">{text}'
                f'<span class="other">recorded {html.escape(other)}</span></td>')
    if key in drifted:
        other = float32_text(drifted[key].old)
        return (f'<td class="drift" title="committed {other}">{text}'
                f'<span class="other">was {html.escape(other)}</span></td>')
    return f"<td>{text}</td>"


def _vector_table(corpus: VectorFile, probe_id: str, drifted: Mapping[tuple[str, str, str], Cell],
                  disagreeing: Mapping[tuple[str, str, str], Cell]) -> str:
    probe = corpus.probes[probe_id]
    indices = list(range(len(corpus.columns)))
    caption = html.escape(corpus.schema)
    if len(corpus.columns) > SPARSE_WIDTH:
        indices = [i for i in indices if probe.features[i] != 0.0
                   or (corpus.schema, probe_id, corpus.columns[i]) in drifted
                   or (corpus.schema, probe_id, corpus.columns[i]) in disagreeing]
        caption += f" (the {len(indices)} non-zero or highlighted of {len(corpus.columns)} columns)"
    heads = "".join(f"<th>{html.escape(corpus.columns[i])}</th>" for i in indices)
    values = "".join(_value_cell(probe.features[i], (corpus.schema, probe_id, corpus.columns[i]),
                                 drifted, disagreeing) for i in indices)
    return f'<table class="vec"><caption>{caption}</caption><tr>{heads}</tr><tr>{values}</tr></table>'


def _board(fen: str, side: str) -> str:
    placement = fen.split(" ", maxsplit=1)[0]
    try:
        board = chess.BaseBoard(placement)
    except ValueError:
        return "<p>(board cannot be drawn)</p>"
    orientation = chess.WHITE if side == "w" else chess.BLACK
    return chess.svg.board(board, size=BOARD_SIZE, orientation=orientation)


def render(generated: Mapping[str, bytes], drift_cells: Sequence[Cell], agreement: Agreement) -> str:
    probes = parse_json(generated[PROBES_FILE], max_bytes=64 * 1024 * 1024)["probes"]
    corpora = [read(f"golden/vectors/{s}.json", generated[f"golden/vectors/{s}.json"])
               for s in feature_schemas() if f"golden/vectors/{s}.json" in generated]
    drifted = {_cell_key(c): c for c in drift_cells}
    disagreeing = {_cell_key(c): c for c in agreement.cells}
    flagged = {key[1] for key in drifted} | {key[1] for key in disagreeing}
    rows = []
    for probe in probes:
        probe_id = probe["id"]
        tags = "".join(f'<span class="tag">{html.escape(t)}</span>' for t in probe["tags"])
        tables = "".join(_vector_table(c, probe_id, drifted, disagreeing) for c in corpora
                         if probe_id in c.probes)
        mark = " &#9888;" if probe_id in flagged else ""
        rows.append(
            f'<tr id="{html.escape(probe_id)}"><td>{_board(probe["fen"], probe["side"])}</td><td>'
            f'<div class="id">{html.escape(probe_id)}{mark}</div>'
            f'<div class="fen">{html.escape(probe["fen"])}</div>'
            f'<div>side {html.escape(probe["side"])} &middot; {html.escape(probe["origin"])}</div>'
            f"<div>{tags}</div><p>{html.escape(probe['note'])}</p>{tables}</td></tr>"
        )
    summary = (
        f"{len(probes)} probes; {len(drift_cells)} cells differ from the committed corpus (drift, "
        f'<span style="background:#ffd27f">orange</span>); {len(agreement.cells)} cells disagree with a '
        f'recorded corpus (<span style="background:#ff9a9a">red</span>); {agreement.vectors} recorded '
        f"vectors compared from {len(agreement.files)} corpora."
    )
    if flagged:
        links = ", ".join(f'<a href="#{html.escape(p["id"])}">{html.escape(p["id"])}</a>'
                          for p in probes if p["id"] in flagged)
        summary += f"<br>Probes with highlighted cells: {links}."
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<title>dicechess-contract golden corpus</title>"
        f"<style>{STYLE}</style></head><body><h1>dicechess-contract golden corpus</h1>"
        f'<p class="summary">{summary}</p><table class="probes"><tbody>\n'
        + "\n".join(rows)
        + "\n</tbody></table></body></html>\n"
    )
