"""``check-data``: training data checked against the package that will serve it.

:func:`check_data` loads the package (its manifest and digest checked as ``validate`` checks them, under the
lowest engine release its ``engineCompatibility`` admits), lists the data files, and checks each in turn
(:func:`check_file`, ``--jobs N`` files at once in the enrichment worker pool): its feature schema is the
manifest's ``featureSchema``; its engine release one the manifest's ``engineCompatibility`` admits (and,
given ``serving``, that one); its feature columns the schema's, in order, float32, ``featureCount`` wide
(``schema/feature-schemas.json`` through the kit's registry); then N rows spread over the file (every row
for ``None``) recomputed from their FEN and side with the kit's extractors under that release's rule set
(``contract.features.rules``) and compared bit for bit. The first failure of a file ends its checks; the
other files are still checked.

Refuses, as :class:`~contract.datacheck.findings.UsageProblem` (exit 2), before any file is read: a package
check-data cannot read, a DATA path that does not exist, a directory without data files, a file that is not
Parquet or JSONL by name, an engine release the kit knows no rules of. Everything else is a finding of the
``data`` family in the verdict (exit 1).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import numpy as np

from contract.core import registry
from contract.core.floattext import float32_bits, float32_text
from contract.core.refusal import Refusal, refusal
from contract.core.strictjson import MAX_BYTES, StrictJsonError
from contract.core.strictjson import parse as parse_json
from contract.datacheck import layout
from contract.datacheck.findings import DataVerdict, FileVerdict, Finding, UsageProblem, finding
from contract.enrichment.engines import DEFAULT_ENGINE_VERSION
from contract.enrichment.rows import extract_batch
from contract.enrichment.runs.pool import run_bounded
from contract.enrichment.runs.progress import Progress
from contract.features import rules
from contract.model.compatibility import evaluate

DEFAULT_RECOMPUTE = 1000
SHARD_METADATA = {"ruleset": "standard-dicechess-v1", "perspective": "side-to-move"}  # what the training reader wants
REJECTS = ".rejects.jsonl"  # extract's rejects file beside its output: not data (a directory listing skips it)


@dataclass(frozen=True)
class Task:
    """One file to check, with what the package requires (picklable: it goes to a worker)."""

    path: str
    schema_id: str
    constraint: str
    serving: str | None
    recompute: int | None


def _usage(code: str, /, **fields: object) -> UsageProblem:
    return UsageProblem(refusal(code, **fields))


def _package(directory: Path) -> tuple[str, int, str]:
    """The package's featureSchema, featureCount and engineCompatibility, after the package's own checks."""
    from contract.model.builder import witness_version
    from contract.model.package import MANIFEST_FILE_NAME, ModelPackage

    def refused(reason: str) -> UsageProblem:
        return UsageProblem(refusal("data.package.refused", reason=reason).prefixed(str(directory)))

    if not directory.is_dir():
        raise refused("no such directory" if not directory.exists() else "not a directory")
    try:
        from contract.core.cappedread import read_capped

        data = read_capped(directory / MANIFEST_FILE_NAME, MAX_BYTES)
        doc = parse_json(data) if data is not None else None
    except (OSError, StrictJsonError):
        doc = None
    constraint = doc.get("engineCompatibility") if isinstance(doc, dict) else None
    witness = witness_version(constraint) if isinstance(constraint, str) else DEFAULT_ENGINE_VERSION
    if isinstance(witness, Refusal):
        raise refused(witness.message)
    loaded = ModelPackage.load(directory, witness)
    if isinstance(loaded, Refusal):
        raise refused(loaded.message)
    manifest = loaded.manifest
    return manifest.feature_schema.id, manifest.feature_count, manifest.engine_compatibility


def data_files(paths: Sequence[Path]) -> list[Path]:
    """The data files DATA names, in order: a file as given, a directory's ``*.parquet``, ``*.pq``, ``*.jsonl``,
    ``*.ndjson`` by name (hidden files, sidecars and extract's ``*.rejects.jsonl`` skipped); a usage refusal
    otherwise."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            inside = sorted(entry for entry in path.iterdir() if not entry.name.startswith(".")
                            and not entry.name.endswith(REJECTS) and layout.kind_of(entry) is not None)
            for entry in inside:  # a directory of part files named like a shard (Spark): named, not skipped
                if not entry.is_file():
                    raise UsageProblem(refusal("data.path.notFile").prefixed(str(entry)))
            if not inside:
                raise UsageProblem(refusal("data.path.empty").prefixed(str(path)))
            found.extend(inside)
        elif not path.exists():
            raise UsageProblem(refusal("data.path.missing").prefixed(str(path)))
        elif not path.is_file():
            raise UsageProblem(refusal("data.path.notFile").prefixed(str(path)))
        elif layout.kind_of(path) is None:
            raise UsageProblem(refusal("data.path.unknownKind").prefixed(str(path)))
        else:
            found.append(path)
    return found


def chooser(total: int, wanted: int | None) -> layout.Chooser:
    """The rows to recompute: all (``wanted`` None or at least ``total``), else ``wanted`` rows spread evenly
    over the file, row ``floor(i * total / wanted)`` for i = 0 .. wanted-1 (the first row always)."""
    if wanted is None or wanted >= total:
        return lambda start, stop: list(range(start, stop))

    def chosen(start: int, stop: int) -> list[int]:
        first = -(-start * wanted // total)
        last = -(-stop * wanted // total)
        return [i * total // wanted for i in range(first, last)]

    return chosen


def _rules(header: layout.Header, release: str) -> rules.RuleSet:
    if header.rule_set is not None:
        return rules.rule_set(header.rule_set)
    return rules.for_engine(release)


def check_file(task: Task) -> FileVerdict:
    """Every check of one file, in order (the first failure ends them)."""
    verdict = FileVerdict(task.path)
    try:
        _check(task, Path(task.path), verdict)
    except layout.DataProblem as problem:
        verdict.add(problem.finding)
    return verdict


def _check(task: Task, path: Path, verdict: FileVerdict) -> None:
    header = layout.read_header(path)
    verdict.kind, verdict.feature_schema, verdict.rows = header.kind, header.schema_id, header.rows
    verdict.engine_version, verdict.engine_stated = header.engine, header.engine is not None
    if header.schema_id is None:
        verdict.add(finding("data.schema.missing", reason=header.schema_absent))
        return
    if header.not_text is not None:
        verdict.add(finding("data.shard.metadataText", what=header.not_text))
        return
    if header.base is not None:
        verdict.add(finding("data.shard.baseColumn", column=header.base[0], problem=header.base[1]))
        return
    for key, found in header.stated:
        if found != SHARD_METADATA[key]:
            verdict.add(finding("data.shard.metadata", key=key, found=found, expected=SHARD_METADATA[key]))
            return
    if header.schema_id != task.schema_id:
        verdict.add(finding("data.schema.mismatch", found=header.schema_id, expected=task.schema_id))
        return
    if header.kind == "training" and header.engine is None:
        verdict.add(finding("data.engine.missing", reason="no engine_version metadata"))
        return
    release = header.engine or task.serving or DEFAULT_ENGINE_VERSION
    verdict.engine_version = release
    admitted = evaluate(task.constraint, release)
    if not admitted.ok:
        verdict.add(finding("data.engine.excluded", release=release, constraint=task.constraint,
                            reason=admitted.message))
        return
    if task.serving is not None and release != task.serving:
        verdict.add(finding("data.engine.notServing", release=release, serving=task.serving))
        return
    schema = registry.get(task.schema_id)
    if not _columns_hold(header, schema, verdict):
        return
    if header.rows == 0 or (task.recompute == 0 and header.kind != "training"):
        return
    rule_set: rules.RuleSet | None = None
    if task.recompute != 0:
        try:
            rule_set = _rules(header, release)
        except rules.UnknownEngineError as exc:
            verdict.add(finding("data.engine.noRules", release=release, reason=str(exc)))
            return
        if not header.has_fen:
            verdict.add(finding("data.fen.missing", column="fen"))
            return
    choose = chooser(header.rows, task.recompute)
    read = layout.parquet_rows if header.kind in ("training", "parquet") else layout.jsonl_rows
    for rows in read(path, header, choose, schema.width):
        for index, row_id, reason in rows.refused:
            _add_row(verdict, finding("data.row.refused", row=f"{index + 1} ({row_id})", reason=reason), index, row_id)
        if rule_set is not None and rows.indices:
            _compare(task.schema_id, release, rule_set, schema.columns, rows, verdict=verdict)


def _columns_hold(header: layout.Header, schema: registry.FeatureSchema, verdict: FileVerdict) -> bool:
    width = header.width if header.columns is None else len(header.columns)
    if width is not None and width != schema.width:
        verdict.add(finding("data.columns.width", found=width, schema=schema.id, width=schema.width))
        return False
    for index, (found, expected) in enumerate(zip(header.columns or (), schema.columns, strict=False)):
        if found != expected:
            verdict.add(finding("data.columns.names", index=index + 1, found=found, schema=schema.id,
                                expected=expected))
            return False
    for name, kind in zip(header.columns or schema.columns, header.types, strict=False):
        if kind not in ("float", "float32"):
            verdict.add(finding("data.columns.dtype", column=name, found=kind))
            return False
    return True


def _fen_for_reading(fen: object) -> object:
    """A 4-field FEN is read with clocks ``0 1``, as the training repository's producer reads it."""
    return f"{fen} 0 1" if isinstance(fen, str) and len(fen.split()) == 4 else fen


def _compare(schema_id: str, release: str, rule_set: rules.RuleSet, columns: tuple[str, ...], rows: layout.Rows,
             *, verdict: FileVerdict) -> None:
    wanted = [{"id": position, "fen": _fen_for_reading(fen), **({"side": side} if side is not None else {})}
              for position, (fen, side) in enumerate(zip(rows.fens, rows.sides, strict=True))]
    found = extract_batch(schema_id, wanted, None if rule_set == rules.default_rules() else rule_set)
    computed = np.ascontiguousarray(found.vectors, dtype=np.float32).view(np.uint32)
    verdict.recomputed += len(wanted)
    refused = {index for index, _, _ in rows.refused}  # already named by the row rules
    for position, index in enumerate(rows.indices):
        if index in refused:
            continue
        where = f"{index + 1} ({rows.ids[position]})"
        if position in rows.unreadable:
            _add_row(verdict, finding("data.row.unreadable", row=where, reason=rows.unreadable[position]),
                     index, rows.ids[position])
            continue
        error = found.errors[position]
        if error is not None:
            _add_row(verdict, finding("data.row.badFen", row=where, reason=error), index, rows.ids[position])
            continue
        for column in np.flatnonzero(computed[position] != rows.bits[position]):
            stored, again = (np.uint32(value).view(np.float32) for value in
                             (rows.bits[position, column], computed[position, column]))
            base = finding("data.value.differs", row=where, column=columns[column], stored=float32_bits(stored),
                           storedText=float32_text(stored), computed=float32_bits(again),
                           computedText=float32_text(again), release=release)
            verdict.add(Finding(base.code, base.message, base.field, index + 1, rows.ids[position],
                                columns[column], float32_bits(stored), float32_bits(again)))


def _add_row(verdict: FileVerdict, base: Finding, index: int, row_id: str) -> None:
    verdict.add(Finding(base.code, base.message, base.field, index + 1, row_id))


def check_data(package: Path | str, data: Sequence[Path | str], *, recompute: int | None = DEFAULT_RECOMPUTE,
               engine_version: str | None = None, jobs: int = 1, progress: TextIO | None = None) -> DataVerdict:
    """Check every data file of ``data`` against ``package`` (see the module docstring); the verdict as a value.

    ``recompute``: rows recomputed per file (``None``: every row; 0: none, the schema and columns only);
    ``engine_version``: the serving release (each file's must equal it); ``jobs``: files checked at once;
    ``progress``: a stream for a progress bar (drawn only when it is a terminal). Raises
    :class:`UsageProblem` for arguments that cannot be checked (exit 2 of the command)."""
    if recompute is not None and recompute < 0:
        raise ValueError("recompute must be None or at least 0")
    if engine_version is not None:
        try:
            rules.release(engine_version)
        except rules.UnknownEngineError as exc:
            raise _usage("data.engineVersion.unknown", version=engine_version, reason=str(exc)) from None
    schema_id, count, constraint = _package(Path(package))
    files = data_files([Path(item) for item in data])
    verdict = DataVerdict(str(package), schema_id, count, constraint, engine_version, recompute)
    if engine_version is not None:
        admitted = evaluate(constraint, engine_version)
        if not admitted.ok:
            verdict.problem = finding("data.engineVersion.excluded", version=engine_version, reason=admitted.message)
            return verdict
    tasks = [Task(str(path), schema_id, constraint, engine_version, recompute) for path in files]
    bar = Progress(progress or sys.stderr, quiet=progress is None, label="check-data")
    results: dict[str, FileVerdict] = {}

    def done(result: FileVerdict) -> None:
        results[result.path] = result
        bar.add(result.recomputed, int(not result.ok), len(results) / max(len(tasks), 1))

    try:
        run_bounded(tasks, check_file, jobs, done)  # a worker's death: EnrichmentError, the CLI's exit 1
    finally:
        bar.close()
    verdict.files = [results[task.path] for task in tasks]
    return verdict
