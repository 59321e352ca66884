"""One module per format behind one interface; the runs blind to formats (issue 24 part 2).

A fourth format (``tsv_format``, written for these tests) registered in ``contract.enrichment.formats.registry``
is read and written by the file run and the streaming run, in every pairing with JSONL, with the same
vectors and the same refusals; and the runs neither import a format module nor compare a format's name.
"""

from __future__ import annotations

import ast
import io
import json
import re
from pathlib import Path

import numpy as np
import pytest
import tsv_format
from enrichment_data import REPO, corpus_rows, write_jsonl

from contract.enrichment import Options, enrich_file
from contract.enrichment.formats import registry as formats
from contract.enrichment.runs.stream import StreamOptions, enrich_stream

ENRICHMENT = REPO / "contract" / "enrichment"
RUNS = ("runs/pipeline.py", "runs/stream.py", "runs/shardrun.py", "runs/encoding.py")
FORMAT_MODULES = {"jsonl", "parquet", "training"}
BRANCH = r"fmt ==|format ==|[!=]= \"(jsonl|parquet|training)\"|\"(jsonl|parquet|training)\" [!=]="


@pytest.fixture
def with_tsv(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(formats._BY_NAME, tsv_format.NAME, tsv_format)


def write_tsv(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(f"{row['id']}\t{row['fen']}\t{row['side']}\n" for row in rows), encoding="utf-8")
    return path


def bits(values: list[float]) -> tuple[int, ...]:
    return tuple(np.asarray(values, dtype=np.float32).view(np.uint32).tolist())


def tsv_vectors(path: Path) -> dict[str, tuple[int, ...]]:
    found = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        row_id, values = line.split("\t")
        found[row_id] = bits([float(value) for value in values.split(",")])
    return found


def jsonl_vectors(path: Path) -> dict[str, tuple[int, ...]]:
    return {row["id"]: bits(row["features"])
            for row in map(json.loads, path.read_text(encoding="utf-8").splitlines())}


@pytest.mark.usefixtures("with_tsv")
def test_a_fourth_format_is_one_module_and_one_registry_entry(tmp_path: Path) -> None:
    rows = corpus_rows(40)
    rows[6]["fen"] = "not a fen"
    write_tsv(tmp_path / "in.tsv", rows)
    write_jsonl(tmp_path / "in.jsonl", rows)
    reference = enrich_file(Options("kcp-13", tmp_path / "in.jsonl", tmp_path / "ref.jsonl", chunk_size=9))
    assert formats.of_path(tmp_path / "in.tsv") == "tsv" and "tsv" in formats.file_formats()
    for source, output in (("in.tsv", "out.tsv"), ("in.tsv", "out.jsonl"), ("in.jsonl", "out2.tsv")):
        summary = enrich_file(Options("kcp-13", tmp_path / source, tmp_path / output, chunk_size=9))
        assert (summary.rows, summary.rejected) == (reference.rows, reference.rejected) == (39, 1)
        read = tsv_vectors if output.endswith(".tsv") else jsonl_vectors
        assert read(tmp_path / output) == jsonl_vectors(tmp_path / "ref.jsonl"), (source, output)
        (reject,) = map(json.loads, (tmp_path / f"{output}.rejects.jsonl").read_text().splitlines())
        assert (reject["id"], reject["line"]) == ("row-6", 7)
    stdout, errors = io.BytesIO(), io.StringIO()
    streamed = enrich_stream(StreamOptions("kcp-13", input=tmp_path / "in.tsv", stdout=stdout, errors=errors))
    assert (streamed.rows, streamed.rejected) == (39, 1)
    assert stdout.getvalue() == (tmp_path / "ref.jsonl").read_bytes()
    assert errors.getvalue().startswith("extract: line 7 (id 'row-6'): ")


def test_the_runs_import_no_format_module_and_compare_no_format_name() -> None:
    for name in RUNS:
        tree = ast.parse((ENRICHMENT / name).read_text(encoding="utf-8"))
        imported = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module in ("contract.enrichment", "contract.enrichment.formats"):
                imported |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module is not None:
                imported.add(node.module.rsplit(".", 1)[-1])
        assert not imported & FORMAT_MODULES, (name, imported & FORMAT_MODULES)
    branches = [f"{path.name}:{number}" for path in sorted(ENRICHMENT.rglob("*.py"))
                for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
                if path.name != "registry.py" and re.search(BRANCH, line)]
    assert branches == []
