"""The conformance matrix as one HTML page a reviewer reads a disagreement with (``conformance run --html FILE``).

The first screen answers "did it pass, and what changed": the verdict; a summary block per
implementation and kind of what disagrees, for feature vectors by column name
("kit · features, 74 cases: one column, `king_safety_diff`, in 5 schemas, 10 probes") with one example
in float32 text and bit patterns on both sides (:mod:`contract.core.changesummary`); then the matrix:
one row per implementation, one column per request kind, each cell counting the answers that agree,
are listed divergences, are unlisted disagreements, are unsupported, or are errors
(:func:`contract.conformance.report.outcome`). Every non-agreeing count links to its list below.

Each disagreement is a block with ``data-case-id``, ``data-implementation``, ``data-kind`` and
``data-outcome``. For a feature vector it shows a table of the differing columns by name (from
``schema/feature-schemas.json``), expected and got in the same float32 text and as bit patterns, the
got cell highlighted; for any other kind a table of the compared fields, the differing ones
highlighted; a listed divergence shows its reason; the request and both whole answers follow, folded.
Stale and unchecked entries of the known-divergences file come next, the provenance last.

Filters keep their state in the URL query, as on the golden report: ``q=TEXT`` keeps the cases whose
id contains TEXT (case-insensitive), ``impl=NAME``, ``kind=KIND`` and ``status=listed|unlisted|error``
keep one implementation, kind or outcome (the matrix and the summary follow the first two). A block a
filter hides gets the ``hidden`` attribute.

The page names no path of the machine it was written on: a file of the kit is named relative to the
kit (``golden/divergences.json``, ``js/src/adapter.js``), the interpreter running an adapter is
``python`` and any other absolute path is shown by its file name. Self-contained: inline style and
script, nothing loaded.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from contract.conformance import corpusroot
from contract.conformance.corpus import KINDS
from contract.conformance.divergences import Divergence
from contract.conformance.report import OUTCOMES, listed_keys, outcome, rows
from contract.conformance.runner import Implementation, Result, Run
from contract.core import changesummary
from contract.core.changesummary import ChangedCell, bits_text, value_text
from contract.core.floattext import is_float32
from contract.core.htmlpage import document, provenance_list, text
from contract.core.pagetargets import PageTargetError, check_page_target, files_under
from contract.core.provenance import Provenance, collect
from contract.core.registry import feature_schemas
from contract.core.resources import data_root, golden_dir, is_checkout, schema_dir
from contract.core.stagedfile import write_atomic

TITLE = "dicechess-contract conformance matrix"
NOT_AGREEING = ("listed", "unlisted", "error")
FAILING = ("unlisted", "error")
MISSING = float("nan")
COLUMNS_SHOWN = 64  # a case's table of differing columns shows at most this many rows, then counts the rest

STYLE = """
table.matrix { border-collapse: collapse; margin: 0.5em 0 1em 0; }
table.matrix th, table.matrix td { border: 1px solid #ccc; padding: 0.3em 0.6em; vertical-align: top; }
table.matrix th { background: #f4f4f4; text-align: left; overflow-wrap: anywhere; }
table.matrix td ul { list-style: none; margin: 0; padding: 0; font-size: 0.9em; white-space: nowrap; }
.agree { color: #175d17; }
.listed { background: #fff1c7; }
.unlisted { background: #ffb3b3; font-weight: bold; }
.error { background: #e6b3ff; font-weight: bold; }
.unsupported { color: #777; }
.verdict-pass { color: #175d17; font-weight: bold; font-size: 1.15em; margin: 0.2em 0; }
.verdict-fail { color: #a00000; font-weight: bold; font-size: 1.15em; margin: 0.2em 0; }
.summary.quiet { border-color: #9c9; background: #eef6ee; }
#filters { position: sticky; top: 0; background: #fff; padding: 0.5em 0; border-bottom: 1px solid #ccc;
           z-index: 1; display: flex; flex-wrap: wrap; gap: 0.6em; align-items: center; }
#filters input[type=search] { width: 16em; }
.notice { background: #eef6ee; border: 1px solid #9c9; padding: 0.4em 0.8em; }
div.case { border-left: 4px solid #ccc; margin: 0.6em 0; padding: 0.2em 0.8em; }
div.case.listed { border-left-color: #e0b030; background: none; }
div.case.unlisted { border-left-color: #d00; background: none; font-weight: normal; }
div.case.error { border-left-color: #90c; background: none; font-weight: normal; }
div.case .case-head { margin: 0.2em 0; overflow-wrap: anywhere; }
div.case .reason { margin: 0.2em 0; overflow-wrap: anywhere; }
table.fields td { overflow-wrap: anywhere; }
div.case dl { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 0.1em 1em; margin: 0; }
div.case dt { font-weight: bold; }
div.case dd { margin: 0; min-width: 0; }
div.case pre { margin: 0; overflow-x: auto; white-space: pre; font-size: 0.85em; background: #f7f7f7;
               padding: 0.2em 0.4em; }
h2.about { margin-top: 2em; }
@media (max-width: 640px) {
  body { margin: 0.5em; }
  #filters { position: static; }
  h1 { font-size: 1.1em; }
  table.matrix li.zero { display: none; }
  /* A phone gets one card per implementation (its name on one line, each kind labelled), failing ones first
     and, in each, the failing kinds first: nothing to scroll sideways to, no name one letter wide. */
  table.matrix, table.matrix tbody, table.matrix tr, table.matrix th, table.matrix td { display: block; }
  table.matrix { border: 0; width: 100%; }
  table.matrix tbody { display: flex; flex-direction: column; gap: 0.6em; }
  table.matrix tr.head { display: none; }
  table.matrix tr[data-implementation] { display: flex; flex-wrap: wrap; border: 1px solid #ccc; }
  table.matrix tr.failing { order: -1; border-color: #d00; }
  table.matrix tr[data-implementation] > th { order: -2; flex: 1 1 100%; overflow-wrap: normal; border: 0;
                                              border-bottom: 1px solid #ccc; }
  table.matrix th .mode { font-weight: normal; color: #555; }
  table.matrix th br { display: none; }
  table.matrix th .mode::before { content: " · "; }
  table.matrix td { flex: 1 1 40%; min-width: 0; border: 0; padding: 0.3em 0.4em; font-size: 0.85em; }
  table.matrix td.failing { order: -1; }
  table.matrix td::before { content: attr(data-kind); display: block; font-weight: bold; }
  #filters label { flex: 1 1 100%; }
  #filters input[type=search] { width: 100%; }
}
"""

SCRIPT = """
(function () {
  var cases = Array.prototype.slice.call(document.querySelectorAll('div.case[data-case-id]'));
  var groups = Array.prototype.slice.call(document.querySelectorAll('section.group'));
  var q = document.getElementById('q'), impl = document.getElementById('impl');
  var kind = document.getElementById('kind'), status = document.getElementById('status');
  var shown = document.getElementById('shown'), noMatch = document.getElementById('no-match');
  var unknown = document.getElementById('unknown-filter');
  var wanted = {};
  function pick(select, value) {
    select.value = value;
    if (select.value !== value) { select.value = ''; return false; }
    return true;
  }
  function fromUrl() {
    var p = new URLSearchParams(window.location.search), bad = [];
    q.value = p.get('q') || '';
    [['impl', impl], ['kind', kind], ['status', status]].forEach(function (pair) {
      var value = p.get(pair[0]) || '';
      wanted[pair[0]] = value;
      if (!pick(pair[1], value)) { bad.push(pair[0] + '=' + JSON.stringify(value)); }
    });
    unknown.hidden = bad.length === 0;
    unknown.textContent = 'This page has no ' + bad.join(', ') + '; showing all.';
  }
  function toUrl() {
    var p = new URLSearchParams();
    if (q.value.trim()) { p.set('q', q.value.trim()); }
    if (impl.value) { p.set('impl', impl.value); }
    if (kind.value) { p.set('kind', kind.value); }
    if (status.value) { p.set('status', status.value); }
    var query = p.toString();
    var target = window.location.pathname + (query ? '?' + query : '') + window.location.hash;
    try { window.history.replaceState(null, '', target); } catch (e) { /* some file:// settings refuse */ }
  }
  function keeps(element, name, select) {
    return !select.value || element.getAttribute(name) === select.value;
  }
  function apply() {
    var needle = q.value.trim().toLowerCase(), count = 0;
    cases.forEach(function (block) {
      var keep = (!needle || block.getAttribute('data-case-id').toLowerCase().indexOf(needle) >= 0) &&
        keeps(block, 'data-implementation', impl) && keeps(block, 'data-kind', kind) &&
        keeps(block, 'data-outcome', status);
      block.hidden = !keep;
      if (keep) { count += 1; }
    });
    groups.forEach(function (group) {
      group.hidden = !group.querySelector('div.case:not([hidden])');
    });
    document.querySelectorAll('#matrix [data-implementation], #summary [data-implementation]').forEach(
      function (element) { element.hidden = !keeps(element, 'data-implementation', impl); });
    document.querySelectorAll('#matrix [data-kind], #summary [data-kind]').forEach(function (element) {
      if (!element.hidden) { element.hidden = !keeps(element, 'data-kind', kind); }
    });
    shown.textContent = count + ' of ' + cases.length + ' disagreements shown';
    noMatch.hidden = !(count === 0 && cases.length > 0);
  }
  function changed() { apply(); toUrl(); }
  fromUrl();
  apply();
  q.addEventListener('input', changed);
  [impl, kind, status].forEach(function (select) { select.addEventListener('change', changed); });
  window.addEventListener('popstate', function () { fromUrl(); apply(); });
  document.documentElement.setAttribute('data-ready', '1');
})();
"""


@dataclass(frozen=True)
class Portable:
    """Rewrites a machine's paths into names that hold anywhere (see the module's last paragraph)."""

    root: str
    replacements: tuple[tuple[str, str], ...]

    @classmethod
    def for_run(cls, run: Run) -> Portable:
        root = str(data_root().resolve())
        pairs = [(sys.executable, "python"), (root + os.sep, "")]
        for impl in run.implementations:
            for word in impl.command:
                if os.path.isabs(word) and not word.startswith(root + os.sep) and word != sys.executable:
                    pairs.append((os.path.dirname(word) + os.sep, ""))
        pairs.sort(key=lambda pair: len(pair[0]), reverse=True)  # the longest prefix first
        return cls(root, tuple(pairs))

    def text(self, value: str) -> str:
        for old, new in self.replacements:
            value = value.replace(old, new)
        return value

    def path(self, value: Path | str) -> str:
        """A file named relative to the kit when it is inside it, else by its name."""
        absolute = os.path.abspath(value)
        if absolute.startswith(self.root + os.sep):
            return absolute[len(self.root) + 1:]
        return str(value) if not os.path.isabs(value) else os.path.basename(absolute)

    def value(self, value: Any) -> Any:
        """A JSON value with every string passed through :meth:`text`."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, list):
            return [self.value(v) for v in value]
        if isinstance(value, dict):
            return {self.text(str(k)): self.value(v) for k, v in value.items()}
        return value


def _anchor(implementation: str, kind: str, name: str) -> str:
    return f"{name}-{implementation}-{kind}"


def _json(value: Any, portable: Portable) -> str:
    return f"<pre>{text(json.dumps(portable.value(value), indent=1, ensure_ascii=True))}</pre>"


def _probe(result: Result) -> str:
    """The probe id of a feature case (``features/<file>/<probe>``)."""
    return result.case.id.rsplit("/", 1)[-1]


def _number(value: Any) -> float:
    return float(value) if is_float32(value) else MISSING


def vector_cells(result: Result) -> list[ChangedCell] | None:
    """The differing cells of a feature answer, by column name; None when the answer has no vector."""
    want, got = result.case.expected.fields.get("vector"), result.got.get("vector")
    if not isinstance(want, list) or not isinstance(got, list):
        return None
    schema = str(result.case.request.get("schemaId"))
    registered = feature_schemas().get(schema)
    columns = registered.columns if registered is not None else ()
    cells = []
    for index in range(max(len(want), len(got))):
        old = _number(want[index]) if index < len(want) else MISSING
        new = _number(got[index]) if index < len(got) else MISSING
        same = index < len(want) and index < len(got) and is_float32(got[index]) and bits_text(old) == bits_text(new)
        if not same:
            column = columns[index] if index < len(columns) else f"#{index}"
            cells.append(ChangedCell(column, schema, _probe(result), old, new))
    return cells


def _failing(run: Run) -> list[tuple[Result, str]]:
    listed = listed_keys(run)
    return [(r, name) for r in run.results if (name := outcome(r, listed)) in NOT_AGREEING]


def _differing_fields(result: Result) -> list[str]:
    return [k for k in result.compared if k != "vector" and result.case.expected.fields.get(k) != result.got.get(k)]


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _summary(run: Run, portable: Portable) -> str:
    """What fails the run, per implementation and kind: columns by name for vectors, fields otherwise."""
    groups: dict[tuple[str, str], list[tuple[Result, str]]] = {}
    for result, name in _failing(run):
        if name in FAILING:
            groups.setdefault((result.implementation, result.case.kind), []).append((result, name))
    listed = len(run.listed)
    known = f" {_count(listed, 'listed divergence')} (known, each with its reason below)." if listed else ""
    if not groups:
        return (f'<div class="summary quiet" id="summary"><p class="what-changed">What changed: nothing fails the'
                f" run.{known}</p></div>")
    parts = []
    for (impl, kind), found in groups.items():
        where = f' data-implementation="{text(impl)}" data-kind="{text(kind)}"'
        title = f"{impl} · {kind}, {_count(len(found), 'case')}"
        errors = [r for r, name in found if name == "error"]
        vectors = [(r, vector_cells(r)) for r, name in found if name == "unlisted"]
        cells = [c for _, found_cells in vectors if found_cells for c in found_cells]
        lines = []
        if cells:
            lines.append(changesummary.block(title, cells, "expected", "got", where))
        fields: dict[str, int] = {}
        for result, found_cells in vectors:
            if found_cells is None:
                for key in _differing_fields(result) or ["answer"]:
                    fields[key] = fields.get(key, 0) + 1
        if fields:
            differ = ", ".join(f"{text(k)} in {n}" for k, n in fields.items())
            lines.append(f'<p class="what-changed"{where}>{text(title)}: the answers differ in {differ}.</p>')
        if errors:
            first = portable.text(str(errors[0].got.get("message")))[:200]
            lines.append(f'<p class="what-changed"{where}>{text(title)}: {_count(len(errors), "error answer")}'
                         f" (never agreement), the first: {text(first)}</p>")
        parts.append(f"<div{where}>{''.join(lines)}</div>")
    tail = f"<p>{known.strip()}</p>" if known else ""
    return f'<div class="summary" id="summary">{"".join(parts)}{tail}</div>'


def _matrix(run: Run) -> str:
    table = {(row["implementation"], row["kind"]): row for row in rows(run)}
    kinds = [k for k in KINDS if any((i.name, k) in table for i in run.implementations)]
    head = "".join(f'<th data-kind="{text(k)}">{text(k)}</th>' for k in kinds)
    lines = []
    for impl in run.implementations:
        cells = []
        failing_row = False
        for kind in kinds:
            row = table.get((impl.name, kind))
            if row is None:
                cells.append(f'<td class="unsupported" data-kind="{text(kind)}">not asked</td>')
                continue
            failing = any(row[name] for name in FAILING)
            failing_row = failing_row or failing
            items = []
            for name in OUTCOMES:
                count = row[name]
                label = f"{count} {name}"
                if count and name in NOT_AGREEING:
                    label = f'<a href="#{_anchor(impl.name, kind, name)}">{label}</a>'
                items.append(f'<li class="{name if count else "zero"}" data-outcome="{name}">{label}</li>')
            mark = ' class="failing"' if failing else ""
            cells.append(f'<td{mark} data-implementation="{text(impl.name)}" data-kind="{text(kind)}">'
                         f"{row['cases']} cases<ul>{''.join(items)}</ul></td>")
        mark = ' class="failing"' if failing_row else ""
        lines.append(f'<tr{mark} data-implementation="{text(impl.name)}"><th><span class="impl-name">'
                     f'{text(impl.name)}</span><br><span class="mode">{text(impl.mode)}</span></th>'
                     f'{"".join(cells)}</tr>')
    return (f'<div class="scroll"><table class="matrix" id="matrix"><tr class="head"><th>implementation</th>{head}'
            f"</tr>{''.join(lines)}</table></div>")


def _vector_table(cells: Sequence[ChangedCell], columns: Sequence[str]) -> str:
    heads = ("column", "index", "expected", "expected bits", "got", "got bits")
    index = {name: i for i, name in enumerate(columns)}
    rows_html = []
    for cell in cells[:COLUMNS_SHOWN]:
        position = index.get(cell.column, cell.column.lstrip("#"))
        values = ((cell.column, ""), (str(position), "num"), (value_text(cell.old), "num"),
                  (bits_text(cell.old), "num"), (value_text(cell.new), "num changed"), (bits_text(cell.new), "num"))
        rows_html.append(f'<tr data-column="{text(cell.column)}">' + "".join(
            f'<td class="{css}" data-label="{h}">{text(v)}</td>' for h, (v, css) in zip(heads, values, strict=True))
            + "</tr>")
    head = "".join(f"<th>{h}</th>" for h in heads)
    more = (f'<p class="more">and {len(cells) - COLUMNS_SHOWN} more differing columns (the whole answers are'
            " below)</p>" if len(cells) > COLUMNS_SHOWN else "")
    return (f'<table class="stack cells"><caption>{_count(len(cells), "differing column")}</caption>'
            f'<tr class="head">{head}</tr>{"".join(rows_html)}</table>{more}')


def _field_table(result: Result, portable: Portable) -> str:
    keys = [k for k in result.case.expected.fields if k != "vector"] or list(result.compared)
    differing = set(_differing_fields(result))
    rows_html = []
    for key in keys:
        want = json.dumps(portable.value(result.case.expected.fields.get(key)), ensure_ascii=True)
        got = json.dumps(portable.value(result.got.get(key)), ensure_ascii=True) if key in result.got else "(absent)"
        mark = ' class="changed"' if key in differing else ""
        rows_html.append(f'<tr data-field="{text(key)}"><td data-label="field">{text(key)}</td>'
                         f'<td data-label="expected">{text(want)}</td>'
                         f'<td{mark} data-label="got">{text(got)}</td></tr>')
    return ('<table class="stack fields"><tr class="head"><th>field</th><th>expected</th><th>got</th></tr>'
            f"{''.join(rows_html)}</table>")


def _case(result: Result, name: str, entry: Divergence | None, portable: Portable) -> str:
    case = result.case
    head = [f"<code>{text(case.id)}</code>"]
    cells = vector_cells(result) if case.kind == "features" and name != "error" else None
    if case.kind == "features":
        head.append(f"schema {text(case.request.get('schemaId'))} · probe {text(_probe(result))}")
    if cells is not None:
        registered = feature_schemas().get(str(case.request.get("schemaId")))
        detail = _vector_table(cells, registered.columns if registered is not None else ())
    elif name == "error":
        detail = f"<p>error answer: {text(portable.text(str(result.got.get('message'))))}</p>"
    else:
        detail = _field_table(result, portable)
    reason = f'<p class="reason"><b>reason</b>: {text(entry.reason)}</p>' if entry is not None else ""
    if entry is not None and name != "listed":  # a listed case answered otherwise than the entry lists
        shown = json.dumps(portable.value(entry.answer), ensure_ascii=True)
        reason = (f'<p class="reason changed-listed"><b>listed answer</b> (golden/divergences.json, from'
                  f" {text(entry.source)}): <code>{text(shown)}</code>; this answer is another one, so the case"
                  f" fails the run</p>{reason}")
    facts = [("request", _json(case.request_line(), portable)), ("expected", _json(case.expected.fields, portable)),
             ("got", _json({k: v for k, v in result.got.items() if k != "id"}, portable))]
    items = "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in facts)
    return (f'<div class="case {name}" data-case-id="{text(case.id)}"'
            f' data-implementation="{text(result.implementation)}" data-kind="{text(case.kind)}"'
            f' data-outcome="{name}"><p class="case-head">{" · ".join(head)}</p>'
            f"{detail}{reason}<details><summary>request and whole answers, as sent</summary><dl>{items}</dl>"
            "</details></div>")


def _disagreements(run: Run, portable: Portable) -> str:
    reasons = {(r.implementation, r.case.id): e for r, e in run.listed}
    changed = {(r.implementation, r.case.id): e for r, e in run.changed}
    groups: dict[tuple[str, str, str], list[Result]] = {}
    for result, name in _failing(run):
        groups.setdefault((result.implementation, result.case.kind, name), []).append(result)
    parts = []
    for impl in run.implementations:
        for kind in KINDS:
            for name in NOT_AGREEING:
                found = groups.get((impl.name, kind, name), [])
                if not found:
                    continue
                cases = "".join(_case(r, name, (reasons if name == "listed" else changed).get(
                                          (r.implementation, r.case.id)), portable) for r in found)
                parts.append(f'<section id="{_anchor(impl.name, kind, name)}" class="group">'
                             f"<h3>{text(impl.name)} · {text(kind)} · {name} ({len(found)})</h3>{cases}</section>")
    if not parts:
        return "<h2>Disagreements</h2><p>None: every answer agrees or is unsupported.</p>"
    return ('<h2>Disagreements</h2><p class="notice" id="no-match" hidden>No disagreement matches the filters.</p>'
            + "".join(parts))


def _controls(run: Run, total: int) -> str:
    def options(values: Sequence[str], every: str) -> str:
        return f'<option value="">{every}</option>' + "".join(
            f'<option value="{text(v)}">{text(v)}</option>' for v in values)

    return (
        '<form id="filters" onsubmit="return false">'
        '<label>Case id <input type="search" id="q" name="q" autocomplete="off"></label>'
        f'<label>Implementation <select id="impl" name="impl">'
        f"{options([i.name for i in run.implementations], 'all implementations')}</select></label>"
        f'<label>Kind <select id="kind" name="kind">{options(run.kinds, "all kinds")}</select></label>'
        f'<label>Status <select id="status" name="status">{options(NOT_AGREEING, "every disagreement")}'
        "</select></label>"
        f'<span id="shown">{total} of {total} disagreements shown</span></form>'
        '<p class="notice" id="unknown-filter" hidden></p>'
    )


def _entries(title: str, entries: Sequence[Divergence], note: str) -> str:
    if not entries:
        return ""
    items = "".join(f'<li data-case-id="{text(e.case)}" data-implementation="{text(e.implementation)}">'
                    f"{text(e.implementation)} <code>{text(e.case)}</code>: {text(e.reason)}</li>"
                    for e in entries)
    return f"<h2>{text(title)} ({len(entries)})</h2><p>{text(note)}</p><ul>{items}</ul>"


def render(run: Run, provenance: Provenance, divergences_file: str | Path) -> str:
    """The whole page for one classified run."""
    portable = Portable.for_run(run)
    listed = listed_keys(run)
    counts = {name: sum(outcome(r, listed) == name for r in run.results) for name in OUTCOMES}
    verdict = "PASS" if run.ok else "FAIL"
    facts = [(f"implementation {i.name}",
              i.mode + (f": {' '.join(portable.text(w) for w in i.command)}" if i.command else
                        ": answers replayed from golden/recorded/ and the corpora's recorded entries"))
             for i in run.implementations]
    facts += [
        ("request kinds", ", ".join(run.kinds)),
        ("answers", ", ".join(f"{counts[n]} {n}" for n in OUTCOMES)),
        ("known-divergences file", portable.path(divergences_file)),
        ("stale entries", str(len(run.stale))),
        ("changed listed answers", str(len(run.changed))),
        ("corpus", "not said" if run.corpus is None else
         f"{run.corpus.source} (sha256 {run.corpus.digest[:16]})"
         + ("" if run.corpus.problem is None else ": DIFFERS from the installed kit's corpus; the run fails")),
        ("verdict", verdict),
    ]
    verdict_class = "verdict-pass" if verdict == "PASS" else "verdict-fail"
    body = (
        f"<h1>{text(TITLE)}</h1>"
        f'<p class="{verdict_class}" id="verdict">{verdict}: {counts["unlisted"]} unlisted disagreement(s),'
        f' {counts["error"]} error(s), {len(run.changed)} changed listed answer(s), {len(run.stale)} stale'
        f' entr(y/ies), {len(run.stale_recordings)} stale recording(s), {counts["listed"]} listed divergence(s)'
        + ("; the corpus differs from the installed kit's" if run.corpus is not None and run.corpus.problem else "")
        + ".</p>"
        + _summary(run, portable) + _matrix(run)
        + _controls(run, sum(counts[n] for n in NOT_AGREEING)) + _disagreements(run, portable)
        + _entries("Stale divergence entries", run.stale,
                   "The case now agrees or no longer exists: remove these entries.")
        + _entries("Listed divergences not checked in this run", run.unchecked,
                   "The implementation answered 'unsupported' for these cases.")
        + '<h2 class="about">About this run</h2>' + provenance_list(provenance, facts)
    )
    return document(TITLE, "", body, STYLE + changesummary.STYLE, SCRIPT)


def run_inputs(divergences_file: Path, implementations: Sequence[Implementation]) -> Iterator[tuple[str, Path]]:
    """What a run reads: the known-divergences file, the corpus and schemas, each adapter's files."""
    yield "known-divergences file", divergences_file
    for impl in implementations:
        for word in impl.command[1:]:
            if Path(word).is_file():
                yield f"implementation {impl.name}'s adapter", Path(word)
    for path in files_under(*dict.fromkeys((golden_dir(), schema_dir(), corpusroot.golden(), corpusroot.schemas()))):
        yield "corpus file", path


def target_problem(path: Path, divergences_file: Path, implementations: Sequence[Implementation] = ()) -> str | None:
    """Why the page cannot be written at ``path`` (checked before anything runs), or None."""
    try:
        check_page_target(path, "page", run_inputs(divergences_file, implementations),
                          read_directories=(("kit's corpus", golden_dir()), ("kit's schemas", schema_dir()),
                                            ("run's corpus", corpusroot.golden()),
                                            ("run's schemas", corpusroot.schemas())))
    except PageTargetError as exc:
        return str(exc).removeprefix(f"{path}: ")
    return None


def write(path: Path, run: Run, divergences_file: Path) -> None:
    """Render ``run`` and write it to ``path`` through a temporary sibling (``OSError`` on failure)."""
    origin = collect(data_root() if is_checkout() else None)
    write_atomic(path, render(run, origin, divergences_file))
