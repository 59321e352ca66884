"""The corpus as one HTML page a maintainer reviews a corpus change with.

The page opens with its provenance (kit version, commit, date, the engine version the vectors
reproduce, the counts), then a search box and filters, then one block per probe: its board (SVG
sharing one set of piece definitions, :mod:`contract.golden.boards`), id, FEN, side, tags, note, the
cells that changed (drift against the committed corpus, disagreement with a recorded corpus: column,
old and new value as text and as float32 bit pattern), and its vector for every feature schema, each
table scrolling inside the page.

The filters keep their state in the URL query, so a link shows the same view: ``q=TEXT`` keeps the
probes whose id or a tag contains TEXT (case-insensitive), ``problems=1`` keeps the probes with a
drifted or disagreeing cell (``status=drifted`` / ``status=disagreeing`` one kind only),
``schema=ID`` shows only that schema's columns. Each probe block carries ``data-probe-id``; a block a
filter hides gets the ``hidden`` attribute. The page is self-contained (inline style and script, no
external file, no network) and deterministic for the same inputs and date.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from contract.core.changesummary import STYLE as SUMMARY_STYLE
from contract.core.changesummary import ChangedCell, bits_text, block, value_text
from contract.core.floattext import float32_text
from contract.core.htmlpage import document, provenance_list, text
from contract.core.provenance import Provenance
from contract.core.registry import feature_schemas
from contract.core.strictjson import parse as parse_json
from contract.golden import boards
from contract.golden.drift import Cell
from contract.golden.recorded import Agreement, dependent
from contract.recordings import rulelabel
from contract.recordings.vectorfile import VectorFile, read

TITLE = "dicechess-contract golden corpus"
PROBES_FILE = "golden/probes.json"
SPARSE_WIDTH = 100  # schemas wider than this list only their non-zero and highlighted columns
DRIFT, DISAGREE = "drift", "disagree"
NUMBER = ' class="num"'

STYLE = """
#filters { position: sticky; top: 0; background: #fff; padding: 0.5em 0; border-bottom: 1px solid #ccc;
           z-index: 1; display: flex; flex-wrap: wrap; gap: 0.6em; align-items: center; }
#filters input[type=search] { width: 16em; }
.notice { background: #eef6ee; border: 1px solid #9c9; padding: 0.4em 0.8em; }
table.schemas, table.changes, table.vec { border-collapse: collapse; font-size: 0.8em; margin: 0.3em 0; }
table.schemas th, table.schemas td, table.changes th, table.changes td, table.vec th, table.vec td {
  border: 1px solid #ddd; padding: 1px 5px; }
table.vec td, table.changes td.num { text-align: right; font-family: ui-monospace, monospace; }
table.vec th, table.schemas th, table.changes th { background: #f4f4f4; font-weight: normal; }
table caption { text-align: left; font-weight: bold; white-space: nowrap; }
table caption .recorded-by, table caption .rules { font-weight: normal; color: #555; }
section.probe { display: flex; gap: 1em; border-top: 1px solid #bbb; padding: 0.6em 0; }
section.probe > .info { min-width: 0; flex: 1; }
svg.board { flex: none; }
.id { font-weight: bold; font-size: 1.1em; }
.fen { font-family: ui-monospace, monospace; font-size: 0.85em; overflow-wrap: anywhere; }
.tag { display: inline-block; background: #e8eef7; border-radius: 3px; padding: 0 0.4em; margin: 1px;
       font-size: 0.8em; }
.drift, td.drift { background: #ffd27f; }
.disagree, td.disagree { background: #ff9a9a; }
.other { display: block; font-size: 0.85em; color: #700; }
@media (max-width: 640px) {
  section.probe { flex-direction: column; }
  #filters { position: static; }
  #filters input[type=search] { width: 100%; }
  #filters label { flex: 1 1 100%; }
}
"""

SCRIPT = """
(function () {
  var probes = Array.prototype.slice.call(document.querySelectorAll('section.probe[data-probe-id]'));
  var q = document.getElementById('q'), schema = document.getElementById('schema');
  var status = document.getElementById('status'), shown = document.getElementById('shown');
  var noProblems = document.getElementById('no-problems'), noMatch = document.getElementById('no-match');
  var unknown = document.getElementById('unknown-schema');
  var schemaRows = document.querySelectorAll('#schemas tr[data-schema]');
  var STATUSES = {all: 1, problems: 1, drifted: 1, disagreeing: 1};
  var wantedSchema = '';
  var PROBLEMS = {
    problems: 'No probe has a drifted or disagreeing cell: the regenerated corpus equals the committed one' +
      ' and agrees with every recorded corpus.',
    drifted: 'No probe has a drifted cell: the regenerated corpus equals the committed one.',
    disagreeing: 'No probe has a cell disagreeing with a recorded corpus.'};
  function fromUrl() {
    var p = new URLSearchParams(window.location.search);
    q.value = p.get('q') || '';
    var s = p.get('status') || '';
    status.value = p.get('problems') === '1' ? 'problems' : (STATUSES[s] ? s : 'all');
    wantedSchema = p.get('schema') || '';
    schema.value = wantedSchema;
    if (schema.value !== wantedSchema) { schema.value = ''; }
  }
  function toUrl() {
    var p = new URLSearchParams();
    if (q.value.trim()) { p.set('q', q.value.trim()); }
    if (status.value === 'problems') { p.set('problems', '1'); }
    else if (status.value !== 'all') { p.set('status', status.value); }
    if (schema.value) { p.set('schema', schema.value); }
    var query = p.toString();
    var target = window.location.pathname + (query ? '?' + query : '') + window.location.hash;
    try { window.history.replaceState(null, '', target); } catch (e) { /* some file:// settings refuse */ }
  }
  function statusKeeps(flags) {
    if (status.value === 'problems') { return flags.length > 0; }
    if (status.value === 'drifted') { return flags.indexOf('drift') >= 0; }
    if (status.value === 'disagreeing') { return flags.indexOf('disagree') >= 0; }
    return true;
  }
  function apply() {
    var needle = q.value.trim().toLowerCase(), chosen = schema.value, count = 0;
    probes.forEach(function (block) {
      var words = [block.getAttribute('data-probe-id')].concat(
        (block.getAttribute('data-tags') || '').split(' ').filter(Boolean));
      var textKeeps = !needle || words.some(function (w) { return w.toLowerCase().indexOf(needle) >= 0; });
      var flags = (block.getAttribute('data-problems') || '').split(' ').filter(Boolean);
      var keep = textKeeps && statusKeeps(flags);
      block.hidden = !keep;
      if (keep) { count += 1; }
      block.querySelectorAll('[data-schema]').forEach(function (part) {
        part.hidden = Boolean(chosen) && part.getAttribute('data-schema') !== chosen;
      });
    });
    schemaRows.forEach(function (row) {
      row.hidden = Boolean(chosen) && row.getAttribute('data-schema') !== chosen;
    });
    shown.textContent = count + ' of ' + probes.length + ' probes shown';
    noProblems.hidden = !(status.value !== 'all' && count === 0 && !needle);
    noProblems.textContent = PROBLEMS[status.value] || '';
    noMatch.hidden = !(count === 0 && noProblems.hidden);
    unknown.hidden = !(wantedSchema && schema.value !== wantedSchema);
    unknown.textContent = 'There is no schema ' + JSON.stringify(wantedSchema) + ' in this report; showing all.';
  }
  function changed() { wantedSchema = schema.value; apply(); toUrl(); }
  fromUrl();
  apply();
  q.addEventListener('input', changed);
  schema.addEventListener('change', changed);
  status.addEventListener('change', changed);
  window.addEventListener('popstate', function () { fromUrl(); apply(); });
  document.documentElement.setAttribute('data-ready', '1');
})();
"""


@dataclass(frozen=True)
class _Change:
    """One highlighted cell of one probe, keyed by its schema id (not the recorded file's name)."""

    kind: str  # drift | disagree
    schema: str
    source: str
    cell: Cell


def _changes(drift_cells: Sequence[Cell], agreement: Agreement) -> dict[str, list[_Change]]:
    by_probe: dict[str, list[_Change]] = {}
    for cell in drift_cells:
        by_probe.setdefault(cell.probe, []).append(_Change(DRIFT, cell.schema, "committed corpus", cell))
    for cell in agreement.cells:
        schema, _, source = cell.schema.partition(" ")
        by_probe.setdefault(cell.probe, []).append(
            _Change(DISAGREE, schema, source.strip("()") or "recorded corpus", cell))
    return by_probe


def _change_table(changes: Sequence[_Change]) -> str:
    heads = ("schema", "column", "what", "old", "old float32 bits", "new", "new float32 bits")
    rows = []
    for change in changes:
        cell = change.cell
        what = ("drift: committed → regenerated" if change.kind == DRIFT
                else f"disagreement: recorded ({change.source}) → kit")
        values = (change.schema, cell.column, what, value_text(cell.old), bits_text(cell.old), value_text(cell.new),
                  bits_text(cell.new))
        tds = "".join(f'<td{NUMBER if i >= 3 else ""} data-label="{h}">{text(v)}</td>'
                      for i, (h, v) in enumerate(zip(heads, values, strict=True)))
        rows.append(f'<tr class="{change.kind}" data-schema="{text(change.schema)}">{tds}</tr>')
    head = "".join(f"<th>{h}</th>" for h in heads)
    return (f'<div class="scroll"><table class="changes stack"><caption>Changed cells ({len(changes)})</caption>'
            f'<tr class="head">{head}</tr>{"".join(rows)}</table></div>')


def _summary(drift_cells: Sequence[Cell], agreement: Agreement) -> str:
    """What changed, as on the conformance matrix page: one block per kind of change."""
    parts = []
    if drift_cells:
        cells = [ChangedCell(c.column, c.schema, c.probe, c.old, c.new) for c in drift_cells]
        parts.append(block("Drift against the committed corpus", cells, "committed", "regenerated"))
    if agreement.cells:
        cells = [ChangedCell(c.column, c.schema.partition(" ")[0], c.probe, c.old, c.new) for c in agreement.cells]
        parts.append(block("Disagreement with the recorded corpora", cells, "recorded", "kit"))
    if not parts:
        return ('<div class="summary" id="summary"><p class="what-changed">What changed: nothing. The regenerated'
                " corpus equals the committed one and agrees with every recorded corpus.</p></div>")
    return f'<div class="summary" id="summary">{"".join(parts)}</div>'


def _value_cell(value: float, change: _Change | None) -> str:
    shown = text(float32_text(value))
    if change is None:
        return f"<td>{shown}</td>"
    other = text(float32_text(change.cell.old))
    if change.kind == DISAGREE:
        return f'<td class="disagree" title="recorded {other}">{shown}<span class="other">recorded {other}</span></td>'
    return f'<td class="drift" title="committed {other}">{shown}<span class="other">was {other}</span></td>'


def _vector_table(corpus: VectorFile, probe_id: str, marks: Mapping[tuple[str, str], _Change],
                  recorders: Sequence[str]) -> str:
    probe = corpus.probes[probe_id]
    # which engine rule the value follows (golden-vectors 1.2.0's rules label; older files carry none)
    ruling = "" if probe.rules is None else rulelabel.rule_text(probe.rules, corpus.engine_version)
    indices = list(range(len(corpus.columns)))
    recorded_by = ", ".join(recorders) or "no recording: kit-only"
    caption = text(corpus.schema)
    if len(corpus.columns) > SPARSE_WIDTH:
        indices = [i for i in indices if probe.features[i] != 0.0 or (corpus.schema, corpus.columns[i]) in marks]
        caption += f" (the {len(indices)} non-zero or highlighted of {len(corpus.columns)} columns)"
    heads = "".join(f"<th>{text(corpus.columns[i])}</th>" for i in indices)
    values = "".join(_value_cell(probe.features[i], marks.get((corpus.schema, corpus.columns[i])))
                     for i in indices)
    caption += f' <span class="recorded-by">recorded by {text(recorded_by)}</span>'
    if ruling:
        caption += f' <span class="rules">rules: {text(ruling)}</span>'
    return (f'<div class="scroll" data-schema="{text(corpus.schema)}" data-recorded-by="{text(recorded_by)}"'
            f' data-rules="{text(ruling)}">'
            f"<table class=\"vec\"><caption>{caption}</caption><tr>{heads}</tr><tr>{values}</tr></table></div>")


def _probe_block(probe: Mapping[str, object], corpora: Sequence[VectorFile], changes: Sequence[_Change],
                 recorded_by: Mapping[tuple[str, str], Sequence[str]]) -> str:
    probe_id = str(probe["id"])
    tags = [str(t) for t in probe["tags"]] if isinstance(probe["tags"], list) else []
    marks = {(c.schema, c.cell.column): c for c in changes if c.kind == DRIFT}
    marks.update({(c.schema, c.cell.column): c for c in changes if c.kind == DISAGREE})
    flags = " ".join(k for k in (DRIFT, DISAGREE) if any(c.kind == k for c in changes))
    tag_html = "".join(f'<span class="tag">{text(t)}</span>' for t in tags)
    tables = "".join(_vector_table(c, probe_id, marks, recorded_by.get((c.schema, probe_id), ()))
                     for c in corpora if probe_id in c.probes)
    mark = " &#9888;" if changes else ""
    return (
        f'<section class="probe" id="{text(probe_id)}" data-probe-id="{text(probe_id)}" '
        f'data-tags="{text(" ".join(tags))}" data-problems="{flags}">'
        f'{boards.board(str(probe["fen"]), str(probe["side"]))}<div class="info">'
        f'<div class="id">{text(probe_id)}{mark}</div><div class="fen">{text(probe["fen"])}</div>'
        f'<div>side {text(probe["side"])} &middot; {text(probe["origin"])}</div><div>{tag_html}</div>'
        f"<p>{text(probe['note'])}</p>{_change_table(changes) if changes else ''}{tables}</div></section>"
    )


def _engine_versions(corpora: Sequence[VectorFile]) -> str:
    versions: dict[str, list[str]] = {}
    for corpus in corpora:
        versions.setdefault(corpus.engine_version, []).append(corpus.schema)
    if len(versions) == 1:
        return f"{next(iter(versions))} (all {len(corpora)} schemas)"
    return "; ".join(f"{v} ({', '.join(s)})" for v, s in versions.items()) or "none"


def _schema_table(corpora: Sequence[VectorFile], changes: Mapping[str, Sequence[_Change]]) -> str:
    every = [c for group in changes.values() for c in group]
    rows = "".join(
        f'<tr data-schema="{text(c.schema)}"><td>{text(c.schema)}</td><td class="num">{len(c.columns)}</td>'
        f"<td>{text(c.engine_version)}</td>"
        f'<td class="num">{sum(x.kind == DRIFT and x.schema == c.schema for x in every)}</td>'
        f'<td class="num">{sum(x.kind == DISAGREE and x.schema == c.schema for x in every)}</td></tr>'
        for c in corpora)
    return ('<div class="scroll"><table class="schemas" id="schemas"><tr><th>schema</th><th>columns</th>'
            "<th>engine version reproduced</th><th>drifted cells</th><th>disagreeing cells</th></tr>"
            f"{rows}</table></div>")


def _controls(corpora: Sequence[VectorFile], total: int) -> str:
    options = "".join(f'<option value="{text(c.schema)}">{text(c.schema)}</option>' for c in corpora)
    return (
        '<form id="filters" onsubmit="return false">'
        '<label>Search probe id or tag <input type="search" id="q" name="q" autocomplete="off"></label>'
        f'<label>Schema <select id="schema" name="schema"><option value="">all schemas</option>{options}'
        "</select></label>"
        '<label>Status <select id="status" name="status"><option value="all">all probes</option>'
        '<option value="problems">drifted or disagreeing</option><option value="drifted">drifted</option>'
        '<option value="disagreeing">disagreeing</option></select></label>'
        f'<span id="shown">{total} of {total} probes shown</span></form>'
        '<p class="notice" id="no-problems" hidden></p>'
        '<p class="notice" id="no-match" hidden>No probe matches the search.</p>'
        '<p class="notice" id="unknown-schema" hidden></p>'
    )


def render(generated: Mapping[str, bytes], drift_cells: Sequence[Cell], agreement: Agreement,
           provenance: Provenance) -> str:
    """The whole page for the corpus ``generated`` (path -> bytes), its drift and its agreement."""
    probes = parse_json(generated[PROBES_FILE], max_bytes=64 * 1024 * 1024)["probes"]
    corpora = [read(f"golden/vectors/{s}.json", generated[f"golden/vectors/{s}.json"])
               for s in feature_schemas() if f"golden/vectors/{s}.json" in generated]
    changes = _changes(drift_cells, agreement)
    flagged = [p["id"] for p in probes if p["id"] in changes]
    facts = [
        ("engine version reproduced", _engine_versions(corpora)),
        ("probes", str(len(probes))),
        ("schemas", str(len(corpora))),
        ("drifted cells", f"{len(drift_cells)} (against the committed corpus)"),
        ("disagreeing cells", f"{len(agreement.cells)} ({agreement.vectors} recorded vectors compared from "
                              f"{len(agreement.files)} recorded corpora)"),
        ("probes with a highlighted cell", str(len(flagged))),
        ("engine-recorded vectors", f"{len(agreement.recorded_by) - len(agreement.kit_only)} of "
                                    f"{len(agreement.recorded_by)} ({len(agreement.kit_only)} kit-only)"),
        ("vectors following a named rule", f"{len(dependent(agreement))} of {len(agreement.labels)} (the rest are"
                                           " the same under every rule set; each vector's caption says which)"),
    ]
    links = ", ".join(f'<a href="#{text(p)}">{text(p)}</a>' for p in flagged)
    summary = f'<p class="flagged">Probes with highlighted cells: {links}.</p>' if flagged else ""
    blocks = "\n".join(_probe_block(p, corpora, changes.get(p["id"], ()), agreement.recorded_by) for p in probes)
    body = (f"{provenance_list(provenance, facts)}{_controls(corpora, len(probes))}{_schema_table(corpora, changes)}"
            f"{summary}"
            f"{boards.definitions()}<main>\n{blocks}\n</main>")
    head = f"<h1>{text(TITLE)}</h1>{_summary(drift_cells, agreement)}"  # what changed first, then where from
    return document(TITLE, head, body, STYLE + SUMMARY_STYLE, SCRIPT)
