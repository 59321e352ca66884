"""What changed, in one sentence and one table: the summary block both review pages open with.

Both the conformance matrix page and the golden report show differing feature cells (a kit answer
against a recorded vector, a regenerated corpus against the committed one). A reviewer first wants to
know how wide the change is: which columns, in how many schemas, for how many probes. :func:`by_column`
groups the cells by column name (in the order they were found), :func:`sentence` says it
("one column, `king_safety_diff`, in 5 schemas, 10 probes") and :func:`block` draws the sentence and
a table with one row per column: the schemas and probes it touches, how many cells, and one example
with both values in the same float32 text (:func:`contract.core.floattext.float32_text`) and their
bit patterns. Values are float; NaN stands for a cell one side does not have.

On a narrow screen (a phone) the table's rows become stacked cards (``table.stack``): each cell is a
line of its own, labelled by ``data-label``, so the table fits the width instead of scrolling.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from contract.core.floattext import float32_bits, float32_text
from contract.core.htmlpage import text

NAMES_SHOWN = 5  # a sentence names at most this many columns, then counts the rest

STYLE = """
.summary { border: 1px solid #d9a; background: #fff6f6; padding: 0.4em 0.8em; margin: 0.5em 0; }
.summary p { margin: 0.2em 0; }
table.stack { border-collapse: collapse; font-size: 0.85em; margin: 0.3em 0; }
table.stack th, table.stack td { border: 1px solid #ddd; padding: 2px 6px; vertical-align: top; }
table.stack th { background: #f4f4f4; font-weight: normal; text-align: left; }
table.stack caption { text-align: left; font-weight: bold; white-space: nowrap; }
table.stack td.num { text-align: right; font-family: ui-monospace, monospace; white-space: nowrap; }
td.changed, .changed { background: #ffb3b3; font-weight: bold; }
@media (max-width: 640px) {
  table.stack, table.stack tbody, table.stack tr, table.stack td, table.stack caption { display: block; }
  table.stack tr.head { display: none; }
  table.stack tr { border: 1px solid #ccc; margin: 0 0 0.4em 0; }
  table.stack td, table.stack td.num { border: none; border-bottom: 1px solid #eee; text-align: left;
                                      overflow-wrap: anywhere; white-space: normal; }
  table.stack td::before { content: attr(data-label) ": "; font-weight: normal; color: #555;
                           font-family: system-ui, sans-serif; }
}
"""


@dataclass(frozen=True)
class ChangedCell:
    """One differing feature value: where it is and the two values (NaN: that side has no value)."""

    column: str
    schema: str
    probe: str
    old: float
    new: float


@dataclass(frozen=True)
class ColumnChange:
    """Every changed cell of one column name, across schemas and probes."""

    column: str
    schemas: tuple[str, ...]
    probes: tuple[str, ...]
    cells: int
    example: ChangedCell


def value_text(value: float) -> str:
    """The float32 text of a cell, or '(none)' where that side has no value."""
    return "(none)" if math.isnan(value) else float32_text(value)


def bits_text(value: float) -> str:
    """The float32 bit pattern of a cell (``0x41500000``), or '(none)'."""
    return "(none)" if math.isnan(value) else float32_bits(value)


def by_column(cells: Iterable[ChangedCell]) -> list[ColumnChange]:
    """The cells grouped by column name, columns in the order they were first found."""
    groups: dict[str, list[ChangedCell]] = {}
    for cell in cells:
        groups.setdefault(cell.column, []).append(cell)
    return [ColumnChange(column, tuple(dict.fromkeys(c.schema for c in group)),
                         tuple(dict.fromkeys(c.probe for c in group)), len(group), group[0])
            for column, group in groups.items()]


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def sentence(changes: Sequence[ColumnChange]) -> str:
    """``one column, `king_safety_diff`, in 5 schemas, 10 probes`` (plain text, backquotes kept)."""
    if not changes:
        return "no column"
    names = ", ".join(f"`{c.column}`" for c in changes[:NAMES_SHOWN])
    if len(changes) > NAMES_SHOWN:
        names += f" and {len(changes) - NAMES_SHOWN} more"
    columns = "one column" if len(changes) == 1 else f"{len(changes)} columns"
    schemas = len({s for c in changes for s in c.schemas})
    probes = len({p for c in changes for p in c.probes})
    return f"{columns}, {names}, in {_count(schemas, 'schema')}, {_count(probes, 'probe')}"


def _cell(label: str, value: str, css: str = "") -> str:
    attribute = f' class="{css}"' if css else ""
    return f'<td{attribute} data-label="{text(label)}">{value}</td>'


def table(changes: Sequence[ColumnChange], old_label: str, new_label: str, row_attributes: str = "") -> str:
    """One row per changed column: schemas, probes, cells, and one example's values on both sides."""
    heads = ("column", "schemas", "probes", "cells", f"e.g. {old_label}", f"{old_label} bits", new_label,
             f"{new_label} bits")
    rows = []
    for change in changes:
        example = change.example
        schemas = ", ".join(change.schemas)
        probes = ", ".join(change.probes[:3]) + (f" and {len(change.probes) - 3} more" if len(change.probes) > 3
                                                 else "")
        rows.append(
            f'<tr data-column="{text(change.column)}"{row_attributes}>'
            + _cell("column", f"<code>{text(change.column)}</code>", "changed")
            + _cell("schemas", f"{len(change.schemas)}: {text(schemas)}")
            + _cell("probes", f"{len(change.probes)}: {text(probes)}")
            + _cell("cells", str(change.cells), "num")
            + _cell(f"e.g. {old_label} ({example.schema}, {example.probe})", text(value_text(example.old)), "num")
            + _cell(f"{old_label} bits", bits_text(example.old), "num")
            + _cell(new_label, text(value_text(example.new)), "num changed")
            + _cell(f"{new_label} bits", bits_text(example.new), "num")
            + "</tr>")
    head = "".join(f"<th>{text(h)}</th>" for h in heads)
    return f'<table class="stack changes-summary"><tr class="head">{head}</tr>{"".join(rows)}</table>'


def block(title: str, cells: Sequence[ChangedCell], old_label: str, new_label: str,
          row_attributes: str = "") -> str:
    """The sentence and the table for ``cells`` under ``title`` (a plain-text prefix)."""
    changes = by_column(cells)
    words = text(sentence(changes))
    for change in changes[:NAMES_SHOWN]:  # the column names as code, the rest of the sentence as text
        quoted = text(f"`{change.column}`")
        words = words.replace(quoted, f"<code>{text(change.column)}</code>", 1)
    return (f'<p class="what-changed">{text(title)}: {words} ({_count(len(cells), "cell")}).</p>'
            + table(changes, old_label, new_label, row_attributes))
