"""The shell of every HTML page the kit writes: one self-contained document, provenance first.

A page works from ``file://`` with no network: its style and script are inline, it loads nothing.
:func:`document` wraps a body with the shared style and the provenance header (:func:`header`);
pages add their own style and script. Filters a page offers keep their state in the URL's query so
a link shows the same view; a block a filter hides carries the ``hidden`` attribute.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from contract.core.provenance import Provenance

BASE_STYLE = """
body { font-family: system-ui, sans-serif; margin: 1em; color: #222; max-width: 100%; }
h1 { font-size: 1.4em; margin: 0 0 0.4em 0; }
dl.provenance { display: grid; grid-template-columns: max-content auto; gap: 0.1em 1em; margin: 0 0 1em 0;
                font-size: 0.9em; background: #f6f6f6; padding: 0.5em 0.8em; border-radius: 4px; }
dl.provenance dt { font-weight: bold; }
dl.provenance dd { margin: 0; overflow-wrap: anywhere; }
.scroll { overflow-x: auto; max-width: 100%; }
code, .mono { font-family: ui-monospace, monospace; }
[hidden] { display: none !important; }
@media (max-width: 640px) {
  dl.provenance { grid-template-columns: minmax(0, 1fr); gap: 0; }
  dl.provenance dd { margin: 0 0 0.3em 0.8em; }
}
"""


def text(value: object) -> str:
    """Any value as escaped HTML text (quotes escaped too, so it fits an attribute)."""
    return html.escape(str(value), quote=True)


def provenance_list(provenance: Provenance, rows: Sequence[tuple[str, str]]) -> str:
    """A definition list: kit version, commit, date, then the page's own rows."""
    facts = [("kit version", provenance.kit_version), ("commit", provenance.commit_text()),
             ("written", provenance.date), *rows]
    items = "".join(f"<dt>{text(k)}</dt><dd>{text(v)}</dd>" for k, v in facts)
    return f'<dl class="provenance" id="provenance">{items}</dl>'


def header(title: str, provenance: Provenance, rows: Sequence[tuple[str, str]]) -> str:
    """The page title, then its :func:`provenance_list`."""
    return f"<h1>{text(title)}</h1>{provenance_list(provenance, rows)}"


def document(title: str, head: str, body: str, style: str = "", script: str = "") -> str:
    """A complete HTML document: ``head`` is the :func:`header` markup, ``body`` the rest."""
    code = f"<script>{script}</script>" if script else ""
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{text(title)}</title><style>{BASE_STYLE}{style}</style></head>"
        f"<body>{head}{body}{code}</body></html>\n"
    )
