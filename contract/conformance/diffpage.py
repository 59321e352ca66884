"""``conformance diff --html FILE``: the changes between two runs as one self-contained page.

The matrix page's style (:mod:`.matrixpage`, :mod:`contract.core.changesummary`): the verdict and the
counts first, then per implementation and kind every changed case as a block ``<div class="case CHANGE"
data-case-id=… data-implementation=… data-kind=… data-change=…>``, a feature vector's differing columns in
a table (column, old and new value as float32 text and bits; a stacked card on a narrow screen), any other
answer as old and new JSON. Every text is escaped; files are named by their file name only (the page names
no path of the machine). Written through a temporary sibling and renamed; a FILE that is a link, not a
regular file, in a missing directory or one of the two inputs is refused before anything is read
(:mod:`contract.core.pagetargets`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Final

from contract.conformance.matrixpage import STYLE
from contract.conformance.rundiff import CHANGES, Change, RunDiff, summary
from contract.core import changesummary
from contract.core.htmlpage import document, provenance_list, text
from contract.core.pagetargets import PageTargetError, check_page_target
from contract.core.provenance import collect
from contract.core.resources import data_root, is_checkout
from contract.core.stagedfile import write_atomic

TITLE: Final = "dicechess-contract conformance diff"
READY: Final = "document.documentElement.setAttribute('data-ready', '1');"  # the page is static: ready at once


def _answer(answer: dict[str, object] | None) -> str:
    if answer is None:
        return "<p>(not in the run's file: the case agreed or was unsupported there)</p>"
    return f"<pre>{text(json.dumps(answer, indent=1, ensure_ascii=True))}</pre>"


def _case(change: Change) -> str:
    was = change.old["outcome"] if change.old else "absent"
    now = change.new["outcome"] if change.new else "absent"
    css = change.change.replace(" ", "-")
    head = f'<p class="case-head"><code>{text(change.case)}</code> · {text(was)} → {text(now)}</p>'
    if change.cells:
        detail = changesummary.block(change.change, change.cells, *change.labels)
    else:
        detail = (f"<dl><dt>old answer</dt><dd>{_answer(change.old_answer)}</dd>"
                  f"<dt>new answer</dt><dd>{_answer(change.new_answer)}</dd></dl>")
    return (f'<div class="case {css}" data-case-id="{text(change.case)}"'
            f' data-implementation="{text(change.implementation)}" data-kind="{text(change.kind)}"'
            f' data-change="{css}">{head}{detail}</div>')


def render(diff: RunDiff) -> str:
    groups: dict[tuple[str, str], list[Change]] = {}
    for change in diff.changes:
        groups.setdefault((change.implementation, change.kind), []).append(change)
    sections = []
    for (implementation, kind), changes in groups.items():
        counts = ", ".join(f"{n} {c}" for c in CHANGES if (n := sum(1 for x in changes if x.change == c)))
        sections.append(f'<section class="group"><h3>{text(implementation)} · {text(kind)}: {text(counts)}</h3>'
                        + "".join(_case(c) for c in changes) + "</section>")
    verdict_class = "verdict-fail" if diff.regressed else "verdict-pass"
    origin = collect(data_root() if is_checkout() else None)
    facts = [("old run", diff.old_file.name), ("new run", diff.new_file.name),
             ("old corpus", diff.old["corpus"]["digest"][:16]), ("new corpus", diff.new["corpus"]["digest"][:16])]
    body = (f"<h1>{text(TITLE)}</h1>"
            f'<p class="{verdict_class}" id="verdict">{text(summary(diff))}</p>'
            + ("".join(sections) if sections else "<p>No case changed verdict or answer.</p>")
            + '<h2 class="about">About this diff</h2>' + provenance_list(origin, facts))
    return document(TITLE, "", body, STYLE + changesummary.STYLE, READY)


def target_problem(path: Path, old: Path, new: Path) -> str | None:
    try:
        check_page_target(path, "page", (("old run", old), ("new run", new)))
    except PageTargetError as exc:
        return str(exc).removeprefix(f"{path}: ")
    return None


def write(path: Path, diff: RunDiff) -> None:
    write_atomic(path, render(diff))
