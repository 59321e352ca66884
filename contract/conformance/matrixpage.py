"""The conformance matrix as one HTML page (``python -m contract.conformance run ... --html FILE``).

The page opens with its provenance (kit version, commit, date) and each implementation's mode
(``live`` with its command, or ``recorded``), then the matrix: one row per implementation, one column
per request kind, each cell counting the answers that agree, are listed divergences, are unlisted
disagreements, are unsupported, or are errors (:func:`contract.conformance.report.outcome`). Every
non-agreeing count links to its list below, where each disagreement is a block with
``data-case-id="<case id>"``, ``data-implementation`` and ``data-outcome``, showing the request,
the expected answer, the answer got and, for a listed divergence, its reason from the
known-divergences file. Stale and unchecked entries of that file close the page. Self-contained:
no script, no external file.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from contract.conformance.corpus import KINDS
from contract.conformance.divergences import Divergence
from contract.conformance.report import OUTCOMES, expected_text, got_text, listed_keys, outcome, rows
from contract.conformance.runner import Implementation, Result, Run
from contract.core.htmlpage import document, header, text
from contract.core.pagetargets import PageTargetError, check_page_target, files_under
from contract.core.provenance import Provenance, collect
from contract.core.resources import data_root, golden_dir, is_checkout, schema_dir
from contract.core.stagedfile import write_atomic

TITLE = "dicechess-contract conformance matrix"
NOT_AGREEING = ("listed", "unlisted", "error")

STYLE = """
table.matrix { border-collapse: collapse; margin: 0.5em 0 1em 0; }
table.matrix th, table.matrix td { border: 1px solid #ccc; padding: 0.3em 0.6em; vertical-align: top; }
table.matrix th { background: #f4f4f4; text-align: left; }
table.matrix td ul { list-style: none; margin: 0; padding: 0; font-size: 0.9em; white-space: nowrap; }
.agree { color: #175d17; }
.listed { background: #fff1c7; }
.unlisted { background: #ffb3b3; font-weight: bold; }
.error { background: #e6b3ff; font-weight: bold; }
.unsupported { color: #777; }
.verdict-pass { color: #175d17; font-weight: bold; }
.verdict-fail { color: #a00000; font-weight: bold; }
div.case { border-left: 4px solid #ccc; margin: 0.6em 0; padding: 0.2em 0.8em; }
div.case.listed { border-left-color: #e0b030; background: none; }
div.case.unlisted { border-left-color: #d00; background: none; font-weight: normal; }
div.case.error { border-left-color: #90c; background: none; font-weight: normal; }
div.case dl { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 0.1em 1em; margin: 0; }
div.case dt { font-weight: bold; }
div.case dd { margin: 0; min-width: 0; }
div.case pre { margin: 0; overflow-x: auto; white-space: pre; font-size: 0.85em; background: #f7f7f7;
               padding: 0.2em 0.4em; }
"""


def _anchor(implementation: str, kind: str, name: str) -> str:
    return f"{name}-{implementation}-{kind}"


def _json(value: Any) -> str:
    return f"<pre>{text(json.dumps(value, indent=1, ensure_ascii=True))}</pre>"


def _matrix(run: Run) -> str:
    table = {(row["implementation"], row["kind"]): row for row in rows(run)}
    kinds = [k for k in KINDS if any((i.name, k) in table for i in run.implementations)]
    head = "".join(f"<th>{text(k)}</th>" for k in kinds)
    lines = []
    for impl in run.implementations:
        cells = []
        for kind in kinds:
            row = table.get((impl.name, kind))
            if row is None:
                cells.append('<td class="unsupported">not asked</td>')
                continue
            items = []
            for name in OUTCOMES:
                count = row[name]
                label = f"{count} {name}"
                if count and name in NOT_AGREEING:
                    label = f'<a href="#{_anchor(impl.name, kind, name)}">{label}</a>'
                items.append(f'<li class="{name if count else ""}" data-outcome="{name}">{label}</li>')
            cells.append(f'<td data-implementation="{text(impl.name)}" data-kind="{text(kind)}">'
                         f"{row['cases']} cases<ul>{''.join(items)}</ul></td>")
        lines.append(f'<tr><th>{text(impl.name)}<br><span class="mode">{text(impl.mode)}</span></th>'
                     f"{''.join(cells)}</tr>")
    return (f'<div class="scroll"><table class="matrix" id="matrix"><tr><th>implementation</th>{head}</tr>'
            f"{''.join(lines)}</table></div>")


def _case(result: Result, name: str, entry: Divergence | None) -> str:
    facts = [
        ("case", f"<code>{text(result.case.id)}</code>"),
        ("request", _json(result.case.request_line())),
        ("expected", _json(result.case.expected.fields)
         + f"<div>compared: {text(expected_text(result.case.expected, result.compared))}</div>"),
        ("got", _json({k: v for k, v in result.got.items() if k != "id"})
         + f"<div>compared: {text(got_text(result))}</div>"),
    ]
    if entry is not None:
        facts.append(("reason", text(entry.reason)))
    items = "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in facts)
    return (f'<div class="case {name}" data-case-id="{text(result.case.id)}" '
            f'data-implementation="{text(result.implementation)}" data-outcome="{name}"><dl>{items}</dl></div>')


def _disagreements(run: Run) -> str:
    listed = listed_keys(run)
    reasons = {(r.implementation, r.case.id): e for r, e in run.listed}
    groups: dict[tuple[str, str, str], list[Result]] = {}
    for result in run.results:
        name = outcome(result, listed)
        if name in NOT_AGREEING:
            groups.setdefault((result.implementation, result.case.kind, name), []).append(result)
    parts = []
    for impl in run.implementations:
        for kind in KINDS:
            for name in NOT_AGREEING:
                found = groups.get((impl.name, kind, name), [])
                if not found:
                    continue
                cases = "".join(_case(r, name, reasons.get((r.implementation, r.case.id)) if name == "listed"
                                      else None) for r in found)
                parts.append(f'<section id="{_anchor(impl.name, kind, name)}" class="group">'
                             f"<h3>{text(impl.name)} · {text(kind)} · {name} ({len(found)})</h3>{cases}</section>")
    if not parts:
        return "<h2>Disagreements</h2><p>None: every answer agrees or is unsupported.</p>"
    return "<h2>Disagreements</h2>" + "".join(parts)


def _entries(title: str, entries: Sequence[Divergence], note: str) -> str:
    if not entries:
        return ""
    items = "".join(f'<li data-case-id="{text(e.case)}" data-implementation="{text(e.implementation)}">'
                    f"{text(e.implementation)} <code>{text(e.case)}</code>: {text(e.reason)}</li>"
                    for e in entries)
    return f"<h2>{text(title)} ({len(entries)})</h2><p>{text(note)}</p><ul>{items}</ul>"


def render(run: Run, provenance: Provenance, divergences_file: str) -> str:
    """The whole page for one classified run."""
    listed = listed_keys(run)
    counts = {name: sum(outcome(r, listed) == name for r in run.results) for name in OUTCOMES}
    verdict = "PASS" if run.ok else "FAIL"
    facts = [(f"implementation {i.name}",
              i.mode + (f": {' '.join(i.command)}" if i.command else
                        ": answers replayed from golden/recorded/ and the corpora's recorded entries"))
             for i in run.implementations]
    facts += [
        ("request kinds", ", ".join(run.kinds)),
        ("answers", ", ".join(f"{counts[n]} {n}" for n in OUTCOMES)),
        ("known-divergences file", divergences_file),
        ("stale entries", str(len(run.stale))),
        ("verdict", verdict),
    ]
    verdict_class = "verdict-pass" if verdict == "PASS" else "verdict-fail"
    body = (
        f'<p class="{verdict_class}" id="verdict">{verdict}: {counts["unlisted"]} unlisted disagreement(s),'
        f' {counts["error"]} error(s), {len(run.stale)} stale entr(y/ies), {counts["listed"]} listed'
        " divergence(s).</p>"
        + _matrix(run) + _disagreements(run)
        + _entries("Stale divergence entries", run.stale,
                   "The case now agrees or no longer exists: remove these entries.")
        + _entries("Listed divergences not checked in this run", run.unchecked,
                   "The implementation answered 'unsupported' for these cases.")
    )
    return document(TITLE, header(TITLE, provenance, facts), body, STYLE)


def run_inputs(divergences_file: Path, implementations: Sequence[Implementation]) -> Iterator[tuple[str, Path]]:
    """What a run reads: the known-divergences file, the corpus and schemas, each adapter's files."""
    yield "known-divergences file", divergences_file
    for impl in implementations:
        for word in impl.command[1:]:
            if Path(word).is_file():
                yield f"implementation {impl.name}'s adapter", Path(word)
    for path in files_under(golden_dir(), schema_dir()):
        yield "corpus file", path


def target_problem(path: Path, divergences_file: Path, implementations: Sequence[Implementation] = ()) -> str | None:
    """Why the page cannot be written at ``path`` (checked before anything runs), or None."""
    try:
        check_page_target(path, "page", run_inputs(divergences_file, implementations))
    except PageTargetError as exc:
        return str(exc).removeprefix(f"{path}: ")
    return None


def write(path: Path, run: Run, divergences_file: Path) -> None:
    """Render ``run`` and write it to ``path`` through a temporary sibling (``OSError`` on failure)."""
    origin = collect(data_root() if is_checkout() else None)
    write_atomic(path, render(run, origin, str(divergences_file)))
