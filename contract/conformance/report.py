"""The matrix a conformance run prints: per implementation and kind, how many cases agree.

Text for people (the matrix, then every listed divergence with its reason, every unlisted
disagreement with expected and got, every stale entry) and JSON for machines (``--json``, described by
``schema/output-conformance-run-1.schema.json``). Strings are
shown with ``repr``-style escapes so a NBSP, a tab or a trailing newline is visible; in the text a string
longer than :data:`~contract.core.consoletext.CUT_AT` characters is cut, with its length shown, and every
line goes through :func:`~contract.core.consoletext.console_text`. The JSON keeps every value whole.
"""

from __future__ import annotations

import hashlib
import json
import math
import struct
from collections.abc import Collection
from typing import Any, Final

from contract.cli.jsonoutput import OUTPUT_VERSION
from contract.conformance import corpusroot
from contract.conformance.corpus import KINDS, Expected
from contract.conformance.corpusroot import CorpusChoice
from contract.conformance.divergences import Divergence
from contract.conformance.runner import Result, Run
from contract.core.changesummary import bits_text, value_text
from contract.core.consoletext import CUT_AT, console_text, cut
from contract.core.floattext import is_float32

COLUMNS: Final = ("implementation", "mode", "kind", "cases", "agree", "listed", "unlisted", "unsupported",
                  "error")
OUTCOMES: Final = ("agree", "listed", "unlisted", "unsupported", "error")
HEADERS: Final = {"unlisted": "UNLISTED", "error": "ERRORS"}  # shouted in the text matrix: these fail the run


def _show(value: Any) -> str:
    if isinstance(value, str):  # a long text is cut, its length shown (a 900 KB message is one line here)
        shown = json.dumps(value[:CUT_AT], ensure_ascii=True)
        return shown if len(value) <= CUT_AT else f"{shown}... ({len(value)} characters)"
    return json.dumps(value)


def _fields(fields: dict[str, Any], keys: tuple[str, ...] | None = None, limit: int = 220) -> str:
    chosen = fields if keys is None else {k: fields[k] for k in keys if k in fields}
    parts = []
    for key, value in chosen.items():
        if key in ("id", "status") and value != "error":
            continue
        if key == "vector" and isinstance(value, list):
            parts.append(f"vector[{len(value)}]={_show(value)[:limit]}")
        else:
            parts.append(f"{key}={_show(value)}")
    return ", ".join(parts) or "(nothing)"


def expected_text(expected: Expected, keys: tuple[str, ...]) -> str:
    text = _fields(expected.fields, keys or tuple(expected.fields))
    return text + (" (prefix)" if expected.prefix and "message" in (keys or expected.fields) else "")


def got_text(result: Result, every: bool = False) -> str:
    """The answer as the report shows it: the compared fields, or (``every``) all it says."""
    if result.got.get("status") == "error":
        return f"error: {cut(str(result.got.get('message')))}"
    return _fields(result.got, None if every else result.compared or None)


CELLS_SHOWN: Final = 8  # differing columns printed per vector case


def vector_lines(result: Result, listed: dict[str, Any] | None = None) -> list[str] | None:
    """A feature disagreement as its differing columns, by name, with float32 text and bits on both sides
    (``listed``: the divergence's listed answer is shown as a third side); ``None`` for any other answer."""
    from contract.conformance.rundiff import differing_cells

    want, got = result.case.expected.fields.get("vector"), result.got.get("vector")
    if not isinstance(want, list) or not isinstance(got, list):
        return None
    schema, probe = str(result.case.request.get("schemaId")), result.case.id.rsplit("/", 1)[-1]
    cells, columns = differing_cells(schema, probe, want, got)
    lines = [f"      vector of {schema}: {len(got)} values, {len(want)} expected;"
             f" {len(cells)} differing column(s) (float32 text and bits):"]
    other = listed.get("vector") if listed is not None else None
    for cell in cells[:CELLS_SHOWN]:
        index = columns.index(cell.column) if cell.column in columns else cell.column
        line = (f"        {cell.column} (#{index}): expected {value_text(cell.old)} {bits_text(cell.old)},"
                f" got {value_text(cell.new)} {bits_text(cell.new)}")
        if isinstance(other, list) and isinstance(index, int) and index < len(other):
            value = float(other[index]) if is_float32(other[index]) else math.nan
            line += f", listed {value_text(value)} {bits_text(value)}"
        lines.append(line)
    if len(cells) > CELLS_SHOWN:
        lines.append(f"        and {len(cells) - CELLS_SHOWN} more differing column(s) (--json has every value)")
    return lines


def outcome(result: Result, listed: Collection[tuple[str, str]]) -> str:
    """One of :data:`OUTCOMES`: an answer that is an error is an error, never a listed divergence."""
    if result.status in ("agree", "unsupported"):
        return result.status
    if result.status == "error" or result.got.get("status") == "error":
        return "error"
    return "listed" if (result.implementation, result.case.id) in listed else "unlisted"


def listed_keys(run: Run) -> set[tuple[str, str]]:
    return {(r.implementation, r.case.id) for r, _ in run.listed}


def rows(run: Run) -> list[dict[str, Any]]:
    modes = {impl.name: impl.mode for impl in run.implementations}
    listed = listed_keys(run)
    table = []
    for impl in run.implementations:
        for kind in KINDS:
            mine = [outcome(r, listed) for r in run.results if r.implementation == impl.name and r.case.kind == kind]
            if kind not in run.kinds or not mine:
                continue
            table.append({"implementation": impl.name, "mode": modes[impl.name], "kind": kind, "cases": len(mine),
                          **{name: mine.count(name) for name in OUTCOMES}})
    return table


def _entry(entry: Divergence) -> dict[str, Any]:
    out = {"implementation": entry.implementation, "case": entry.case, "reason": entry.reason}
    if entry.mode is not None:
        out["mode"] = entry.mode
    return out


def answer_digest(fields: dict[str, Any]) -> str:
    """16 hex digits of SHA-256 over an answer's fields (``id`` and ``status`` left out unless it is not ok),
    a vector as its float32 bit patterns: two answers have one digest exactly when they say the same."""
    shown: dict[str, Any] = {}
    for key, value in fields.items():
        if key == "id" or (key == "status" and value == "ok"):
            continue
        if key == "vector" and isinstance(value, list):
            shown[key] = [float32_hex(v) for v in value]
        else:
            shown[key] = value
    text = json.dumps(shown, sort_keys=True, ensure_ascii=True, default=str)
    return hashlib.sha256(text.encode("ascii")).hexdigest()[:16]


def float32_hex(value: Any) -> str:
    """A vector value as its float32 bit pattern (8 hex digits), or its JSON text when it is no number."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        try:
            return struct.pack(">f", value).hex()
        except (OverflowError, struct.error):
            pass
    return json.dumps(value, default=str)


def result_rows(run: Run) -> list[dict[str, Any]]:
    """Every case of the run: implementation, kind, case, outcome and the digests of answer and expected
    answer (what ``conformance diff`` compares)."""
    listed, changed = listed_keys(run), {(r.implementation, r.case.id) for r, _ in run.changed}
    return [{"implementation": r.implementation, "kind": r.case.kind, "case": r.case.id,
             "outcome": "changed" if (r.implementation, r.case.id) in changed else outcome(r, listed),
             "answer": answer_digest(r.got), "expected": answer_digest(r.case.expected.fields)}
            for r in run.results]


def corpus_of(run: Run) -> CorpusChoice:
    return run.corpus if run.corpus is not None else corpusroot.choose()


def as_json(run: Run) -> dict[str, Any]:
    def disagreement(result: Result, entry: Divergence | None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "implementation": result.implementation,
            "case": result.case.id,
            "expected": result.case.expected.fields,
            "got": {k: v for k, v in result.got.items() if k != "id"},
            "compared": list(result.compared),
        }
        if entry is not None:
            out["reason"] = entry.reason
        return out

    return {
        "outputVersion": OUTPUT_VERSION,
        "ok": run.ok,
        "corpus": corpus_of(run).as_json(),
        "implementations": [{"name": i.name, "mode": i.mode, "command": list(i.command)}
                            for i in run.implementations],
        "kinds": run.kinds,
        "matrix": rows(run),
        "listed": [disagreement(r, e) for r, e in run.listed],
        "unlisted": [disagreement(r, None) for r in run.unlisted],
        "changed": [{**disagreement(r, e), "listedAnswer": e.answer, "answerSource": e.source}
                    for r, e in run.changed],
        "errors": [disagreement(r, None) for r in run.errors],
        "stale": [_entry(e) for e in run.stale],
        "unchecked": [_entry(e) for e in run.unchecked],
        "staleRecordings": [{"implementation": s.implementation, "case": s.case, "why": s.why}
                            for s in run.stale_recordings],
        "results": result_rows(run),
        "shortfalls": [{"implementation": s.implementation, "kind": s.kind, "cases": s.cases,
                        "supported": s.supported, "floor": s.floor, "message": s.message} for s in run.shortfalls],
    }


def as_text(run: Run, *, quiet: bool = False) -> str:
    """The report as text. ``quiet``: only what fails the run and one summary line naming the corpus (no
    matrix, no listed divergences)."""
    failures = _failures(run)
    lines = failures[1:] if quiet else _overview(run) + failures
    verdict = "PASS" if run.ok else "FAIL"
    problem = corpus_of(run).problem
    summary = (f"{verdict}: {len(run.unlisted)} unlisted disagreement(s),"
               f" {len(run.changed)} changed listed answer(s), {len(run.errors)} error answer(s),"
               f" {len(run.stale)} stale entr(y/ies), {len(run.stale_recordings)} stale recording(s),"
               f" {len(run.shortfalls)} kind(s) supported below the floor,"
               f" {len(run.listed)} listed divergence(s)"
               + ("; the corpus differs from the installed kit's." if problem is not None else "."))
    lines += [""] if lines else []
    lines.append(f"{summary} {corpus_of(run).line()}" if quiet else summary)
    return "\n".join(console_text(line) for line in lines) + "\n"


def _overview(run: Run) -> list[str]:
    """The corpus line, the matrix and what is listed: what a PASS prints besides its summary."""
    table = rows(run)
    widths = {c: max(len(c), *(len(str(row[c])) for row in table)) if table else len(c) for c in COLUMNS}
    lines = [corpus_of(run).line(),
             "Conformance matrix (canonical answers: golden/conformance, golden/recorded, golden/vectors)", ""]
    lines.append("  ".join(HEADERS.get(c, c).ljust(widths[c]) if i < 3 else HEADERS.get(c, c).rjust(widths[c])
                           for i, c in enumerate(COLUMNS)))
    for row in table:
        lines.append("  ".join(str(row[c]).ljust(widths[c]) if i < 3 else str(row[c]).rjust(widths[c])
                               for i, c in enumerate(COLUMNS)))
    if any(i.mode == "recorded" for i in run.implementations):
        lines += ["", "mode 'recorded': answers replayed from golden/recorded/ and the corpora's"
                      " 'recorded' entries (not run live); set DICECHESS_CONFORMANCE_<NAME> to run an adapter."]
    if run.listed:
        lines += ["", f"Known divergences ({len(run.listed)}, listed in golden/divergences.json):"]
        for result, entry in run.listed:
            lines.append(f"  {result.implementation}  {result.case.id}")
            lines += vector_lines(result) or [f"      expected {expected_text(result.case.expected, result.compared)}",
                                              f"      got      {got_text(result)}"]
            lines.append(f"      reason   {entry.reason}")
    if run.unchecked:
        lines += ["", f"Listed divergences not checked in this run ({len(run.unchecked)}; answered"
                      " 'unsupported'):"]
        lines += [f"  {e.implementation}  {e.case}" for e in run.unchecked]
    return lines


def _failures(run: Run) -> list[str]:
    """Every section that fails the run, each headed by a blank line."""
    lines: list[str] = []
    if run.unlisted:
        lines += ["", f"UNLISTED disagreements ({len(run.unlisted)}; each fails the run):"]
        for result in run.unlisted:
            lines.append(f"  {result.implementation}  {result.case.id}")
            lines += vector_lines(result) or [f"      expected {expected_text(result.case.expected, result.compared)}",
                                              f"      got      {got_text(result)}"]
    if run.changed:
        lines += ["", f"CHANGED answers on listed cases ({len(run.changed)}; golden/divergences.json lists another"
                      " answer for the case: each fails the run; re-record the entry if the new answer is meant):"]
        for result, entry in run.changed:
            lines.append(f"  {result.implementation}  {result.case.id}")
            lines += vector_lines(result, entry.answer) or [
                f"      listed   {_fields(entry.answer)}", f"      got      {got_text(result, every=True)}",
                f"      expected {expected_text(result.case.expected, result.compared)}"]
            lines.append(f"      reason   {entry.reason}")
    if run.errors:
        lines += ["", f"ERROR answers ({len(run.errors)}; an error is never agreement and never a listed"
                      " divergence: each fails the run):"]
        for result in run.errors:
            lines.append(f"  {result.implementation}  {result.case.id}")
            lines.append(f"      got      {got_text(result)}")
    if run.stale:
        lines += ["", f"STALE divergence entries ({len(run.stale)}; the case now agrees or no longer exists:"
                      " remove them from golden/divergences.json):"]
        lines += [f"  {e.implementation}  {e.case}  ({e.reason})" for e in run.stale]
    if run.stale_recordings:
        lines += ["", f"STALE recordings ({len(run.stale_recordings)}; recorded for another version of the case,"
                      " not compared: each fails the run):"]
        lines += [f"  {s.implementation}  {s.case}: {s.why}" for s in run.stale_recordings]
    if run.shortfalls:
        lines += ["", f"UNSUPPORTED beyond the floor ({len(run.shortfalls)}; each fails the run):"]
        lines += [f"  {s.message}" for s in run.shortfalls]
    problem = corpus_of(run).problem
    if problem is not None:
        lines += ["", f"CORPUS DIFFERS from the installed kit's (this fails the run): {problem}"]
    return lines
