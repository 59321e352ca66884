"""Two conformance runs compared: which cases changed verdict or answer (``conformance diff OLD NEW``).

The inputs are two ``conformance run --json`` outputs (``schema/output-conformance-run-1.schema.json``,
with their per-case ``results``). Per implementation and kind, each case that differs is one
:class:`Change`:

- **regressed**: it did not fail the old run (agree, listed, unsupported) and fails the new one (unlisted,
  a changed listed answer, an error);
- **fixed**: the other way round;
- **changed answer**: neither or both fail, but the outcome or the answer differs (an agreeing case whose
  canonical answer moved, a listed case listed with another answer, an answer now unsupported);
- **added** / **removed**: the case (or the implementation) is in one run only.

For a feature vector the differing cells are named by column (``schema/feature-schemas.json``, the schema
read from the case id) with both values as float32 text and bit patterns. A side's vector is the answer
the run printed for a disagreement, or, for a case that agreed, the canonical answer of the other run when
the two canonical answers are the same (the digests say so); otherwise that side's vector is not in its
file and the change is named without cells.

Refused with :class:`RunFileError` (one line naming the file): a file that is missing, not a regular file,
larger than :data:`MAX_BYTES`, not JSON (read by :mod:`contract.core.strictjson`), or not such an output.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from contract.conformance import jsoninput
from contract.core.changesummary import ChangedCell, bits_text, value_text
from contract.core.errors import ContractError
from contract.core.floattext import is_float32
from contract.core.registry import feature_schemas

MAX_BYTES: Final = 256 * 1024 * 1024
RUN_SCHEMA: Final = "output-conformance-run-1.schema.json"
FAILING: Final = ("unlisted", "changed", "error")
CHANGES: Final = ("regressed", "fixed", "changed answer", "added", "removed")
MISSING: Final = math.nan


class RunFileError(ContractError, ValueError):
    """A file that is not a readable ``conformance run --json`` output; the message names it."""


class MissingRunFile(RunFileError):
    """The file does not exist (a usage error: exit 2)."""


@dataclass(frozen=True)
class Change:
    implementation: str
    kind: str
    case: str
    change: str  # one of CHANGES
    old: dict[str, Any] | None  # the case's result row in the old run (None: absent)
    new: dict[str, Any] | None
    old_answer: dict[str, Any] | None  # the answer as the run printed it (a disagreement), when it did
    new_answer: dict[str, Any] | None
    cells: tuple[ChangedCell, ...] = ()
    columns: tuple[str, ...] = ()  # the schema's column names (empty: not a vector, or unknown schema)
    labels: tuple[str, str] = ("old", "new")  # what the cells' two sides are


@dataclass(frozen=True)
class RunDiff:
    old_file: Path
    new_file: Path
    old: dict[str, Any]
    new: dict[str, Any]
    changes: tuple[Change, ...]

    def count(self, change: str) -> int:
        return sum(1 for c in self.changes if c.change == change)

    @property
    def regressed(self) -> bool:
        return self.count("regressed") > 0


def read_run(path: Path) -> dict[str, Any]:
    """One ``conformance run --json`` output, validated against its schema."""
    document = jsoninput.read(path, MAX_BYTES, RunFileError, MissingRunFile, "no such file")
    problem = jsoninput.schema_problem(document, RUN_SCHEMA)
    if problem is not None:
        raise RunFileError(f"{path}: not a `conformance run --json` output ({RUN_SCHEMA}, {problem})")
    assert isinstance(document, dict)
    return document


def _key(row: dict[str, Any]) -> tuple[str, str]:
    return str(row["implementation"]), str(row["case"])


def _printed_answers(run: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    """(implementation, case) -> {expected, got} for every disagreement the run printed."""
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for section in ("listed", "changed", "unlisted", "errors"):
        for item in run[section]:
            out[_key(item)] = {"expected": item["expected"], "got": item["got"]}
    return out


def _kind_of_change(old: dict[str, Any] | None, new: dict[str, Any] | None) -> str | None:
    if old is None:
        return "added"
    if new is None:
        return "removed"
    was, now = old["outcome"] in FAILING, new["outcome"] in FAILING
    if now and not was:
        return "regressed"
    if was and not now:
        return "fixed"
    if old["outcome"] != new["outcome"] or old["answer"] != new["answer"]:
        return "changed answer"
    return None


def schema_of(case: str) -> str:
    """The feature schema of a features case id (``features/vectors/kcp-13/p``, ``features/recorded/
    kcp-13.engine-0.12.0/p``)."""
    parts = case.split("/")
    return parts[2].split(".engine-", 1)[0] if len(parts) >= 4 else ""


def _vector(row: dict[str, Any] | None, printed: dict[str, Any] | None, other_row: dict[str, Any] | None,
            other_printed: dict[str, Any] | None) -> list[Any] | None:
    """A side's answer vector: printed, or (it agreed) the other run's canonical one when they are the same."""
    if row is None:
        return None
    if printed is not None:
        got = printed["got"].get("vector")
        return got if isinstance(got, list) else None
    if (row["outcome"] == "agree" and other_row is not None and other_printed is not None
            and other_row["expected"] == row["expected"]):
        want = other_printed["expected"].get("vector")
        return want if isinstance(want, list) else None
    return None


def _cells(case: str, old: list[Any], new: list[Any]) -> tuple[tuple[ChangedCell, ...], tuple[str, ...]]:
    return differing_cells(schema_of(case), case.rsplit("/", 1)[-1], old, new)


def differing_cells(schema: str, probe: str, old: list[Any], new: list[Any]
                    ) -> tuple[tuple[ChangedCell, ...], tuple[str, ...]]:
    """The cells where two vectors differ as float32 bits (a value that is no float32: none), by column
    name of ``schema`` (``#N`` beyond its columns), and the schema's column names."""
    registered = feature_schemas().get(schema)
    columns = registered.columns if registered is not None else ()
    cells = []
    for index in range(max(len(old), len(new))):
        a = float(old[index]) if index < len(old) and is_float32(old[index]) else MISSING
        b = float(new[index]) if index < len(new) and is_float32(new[index]) else MISSING
        if bits_text(a) != bits_text(b):
            cells.append(ChangedCell(columns[index] if index < len(columns) else f"#{index}", schema, probe, a, b))
    return tuple(cells), tuple(columns)


def compare(old_file: Path, new_file: Path) -> RunDiff:
    old, new = read_run(old_file), read_run(new_file)
    old_rows = {_key(r): r for r in old["results"]}
    new_rows = {_key(r): r for r in new["results"]}
    old_printed, new_printed = _printed_answers(old), _printed_answers(new)
    changes = []
    for key in dict.fromkeys([*old_rows, *new_rows]):
        a, b = old_rows.get(key), new_rows.get(key)
        change = _kind_of_change(a, b)
        if change is None:
            continue
        row = b if b is not None else a
        assert row is not None
        pa, pb = old_printed.get(key), new_printed.get(key)
        cells: tuple[ChangedCell, ...] = ()
        columns: tuple[str, ...] = ()
        labels = ("old", "new")
        if row["kind"] == "features":
            va, vb = _vector(a, pa, b, pb), _vector(b, pb, a, pa)
            failing = pa if change == "fixed" else pb
            if va is not None and vb is not None and va != vb:
                cells, columns = _cells(key[1], va, vb)
            elif failing is not None and isinstance(failing["expected"].get("vector"), list) \
                    and isinstance(failing["got"].get("vector"), list):  # the failing run's own disagreement
                cells, columns = _cells(key[1], failing["expected"]["vector"], failing["got"]["vector"])
                side = "old" if failing is pa else "new"
                labels = (f"{side} expected", f"{side} got")
        changes.append(Change(key[0], str(row["kind"]), key[1], change, a, b,
                              None if pa is None else pa["got"], None if pb is None else pb["got"], cells, columns,
                              labels))
    return RunDiff(old_file, new_file, old, new, tuple(changes))


# --- what it prints -------------------------------------------------------------------------------

def _answer_text(answer: dict[str, Any] | None) -> str:
    if answer is None:
        return "(not in the file: the case agreed or was unsupported)"
    shown = {k: v for k, v in answer.items() if k not in ("status", "vector") or (k == "status" and v != "ok")}
    if "vector" in answer and isinstance(answer["vector"], list):
        shown["vector"] = f"[{len(answer['vector'])} values]"
    return json.dumps(shown, ensure_ascii=True)


def cell_json(cell: ChangedCell, columns: Sequence[str]) -> dict[str, Any]:
    index = columns.index(cell.column) if cell.column in columns else int(cell.column.lstrip("#"))
    return {"column": cell.column, "index": index, "old": value_text(cell.old), "oldBits": bits_text(cell.old),
            "new": value_text(cell.new), "newBits": bits_text(cell.new)}


def summary(diff: RunDiff) -> str:
    counts = ", ".join(f"{diff.count(c)} {c}" for c in CHANGES)
    return f"{'REGRESSED' if diff.regressed else 'NO REGRESSION'}: {counts}."


def as_text(diff: RunDiff) -> list[str]:
    lines = [f"conformance diff: {diff.old_file} -> {diff.new_file}",
             f"  old corpus {diff.old['corpus']['digest'][:16]} ({diff.old['corpus']['source']}),"
             f" new corpus {diff.new['corpus']['digest'][:16]} ({diff.new['corpus']['source']})"]
    groups: dict[tuple[str, str], list[Change]] = {}
    for change in diff.changes:
        groups.setdefault((change.implementation, change.kind), []).append(change)
    for (implementation, kind), changes in groups.items():
        lines += ["", f"{implementation} · {kind}: " + ", ".join(
            f"{n} {c}" for c in CHANGES if (n := sum(1 for x in changes if x.change == c)))]
        for change in changes:
            was = change.old["outcome"] if change.old else "absent"
            now = change.new["outcome"] if change.new else "absent"
            lines.append(f"  {change.change:<14} {change.case}: {was} -> {now}")
            if change.cells:
                for cell in change.cells:
                    item = cell_json(cell, change.columns)
                    lines.append(f"      column {item['column']} (#{item['index']}): {change.labels[0]} {item['old']}"
                                 f" {item['oldBits']} -> {change.labels[1]} {item['new']} {item['newBits']}")
            elif change.kind != "features" or change.old_answer or change.new_answer:
                lines.append(f"      old {_answer_text(change.old_answer)}")
                lines.append(f"      new {_answer_text(change.new_answer)}")
    lines += ["", summary(diff)]
    return lines


def as_json(diff: RunDiff) -> dict[str, Any]:
    def side(path: Path, run: dict[str, Any]) -> dict[str, Any]:
        return {"file": str(path), "ok": run["ok"], "corpusDigest": run["corpus"]["digest"],
                "implementations": [i["name"] for i in run["implementations"]]}

    return {
        "ok": not diff.regressed,
        "old": side(diff.old_file, diff.old),
        "new": side(diff.new_file, diff.new),
        "counts": {"regressed": diff.count("regressed"), "fixed": diff.count("fixed"),
                   "changedAnswer": diff.count("changed answer"), "added": diff.count("added"),
                   "removed": diff.count("removed")},
        "changes": [{"implementation": c.implementation, "kind": c.kind, "case": c.case,
                     "change": c.change.replace(" ", "-"),
                     "oldOutcome": c.old["outcome"] if c.old else None,
                     "newOutcome": c.new["outcome"] if c.new else None,
                     "oldAnswer": c.old_answer, "newAnswer": c.new_answer,
                     "cellSides": list(c.labels),
                     "cells": [cell_json(cell, c.columns) for cell in c.cells]} for c in diff.changes],
    }
