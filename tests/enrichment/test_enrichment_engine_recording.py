"""``enrich-shards --engine-version V [--engine-recording FILE]`` (issue 33 items 1 and 2): the run extracts under
the rule set of the release asked for, and a release the kit does not carry is vouched for by its recording.

The expected values are recorded by others: ``golden/recorded/engine-newest/edge-cases.jsonl`` holds, for the
hand-made edge positions, the vector of the engine rebuilt from its newest public sources (``newest``) and the
value engine-live's rules give (``kit``, 0.12.0's). The recording of "0.14.0" handed to the kit is made from
the ``newest`` values only (a stand-in for a release following the newest sources' rules); changing one of its
values stands for a disagreeing recording. The output is read with the double of the training reader.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from enrichment_data import REPO

from contract.cli import main
from contract.core import registry

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
from training_reader import BASE, read_enriched  # noqa: E402  (needs pyarrow)

EDGE = REPO / "golden" / "recorded" / "engine-newest" / "edge-cases.jsonl"
SCHEMA = "kcp-13"
TWO_KINGS = "4k3/8/8/8/8/8/8/K3K2R w K - 0 1"
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"
READER_KEYS = (b"dicechess_training_schema", b"feature_schema", b"engine_version", b"ruleset", b"perspective",
               b"columns")


def _edges() -> list[dict[str, Any]]:
    return [json.loads(line) for line in EDGE.read_text(encoding="utf-8").splitlines() if line.strip()]


def _bits(text: str) -> list[int]:
    return [int(text[i:i + 8], 16) for i in range(0, len(text), 8)]


def _edge(label: str) -> dict[str, Any]:
    (found,) = [edge for edge in _edges() if edge["label"] == f"edge {label}"]
    return found


def _recording(path: Path, version: str = "0.14.0") -> Path:
    """A goldens-format recording of ``version`` whose values are the newest sources' recorded ones."""
    probes = []
    for edge in _edges():
        text = edge["newest"][SCHEMA]
        if not all(c in "0123456789abcdef" for c in text):
            continue  # a position the newest sources refuse (PARSE-ERROR)
        values = [float(np.uint32(bits).view(np.float32)) for bits in _bits(text)]
        probes.append({"id": edge["label"].split()[1], "fen": edge["fen"], "side": edge["side"], "features": values})
    doc = {"schema": SCHEMA, "perspective": "side-to-move", "engineVersion": version,
           "columns": list(registry.get(SCHEMA).columns), "probes": probes}
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def _raw(directory: Path) -> Path:
    directory.mkdir()
    rows = [{"game_id": "g", "ply": ply, "fen": fen, "dice": "PNK", "side": "w", "result": 1.0}
            for ply, fen in enumerate([TWO_KINGS, START, TWO_KINGS])]
    table = pa.Table.from_pylist(rows, schema=pa.schema(list(BASE.items())))
    pq.write_table(table.replace_schema_metadata({b"dicechess_training_schema": b"v0"}), directory / "a.parquet")
    return directory


def _run(*args: str | Path) -> int:
    return main(["enrich-shards", *map(str, args), "--quiet"])


def _feature_bits(table: Any, row: int) -> list[int]:
    values = np.array([table.column(name)[row].as_py() for name in registry.get(SCHEMA).columns], dtype=np.float32)
    return [int(bits) for bits in values.view(np.uint32)]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_an_agreeing_recording_vouches_for_a_release_the_kit_does_not_carry(tmp_path: Path, jobs: str) -> None:
    raw = _raw(tmp_path / "raw")
    recording = _recording(tmp_path / "golden-engine-0.14.0.json")
    assert _run(raw, tmp_path / "out", "--schema", SCHEMA, "--engine-version", "0.14.0",
                "--engine-recording", recording, "--jobs", jobs) == 0
    table = read_enriched(tmp_path / "out" / "a.parquet", SCHEMA, registry.get(SCHEMA).columns, "0.14.0")
    newest = _bits(_edge("two-kings-castle-w")["newest"][SCHEMA])
    assert _feature_bits(table, 0) == newest == _feature_bits(table, 2)  # mobility_diff 13: castles per side
    stamp = json.loads(table.schema.metadata[b"dicechess.engine-recording"])
    assert stamp["file"] == recording.name
    assert stamp["sha256"] == hashlib.sha256(recording.read_bytes()).hexdigest()
    assert stamp["ruleSet"] == "newest-sources"


def test_the_default_release_keeps_0_12_0s_rules_and_the_readers_six_keys(tmp_path: Path) -> None:
    raw = _raw(tmp_path / "raw")
    assert _run(raw, tmp_path / "default", "--schema", SCHEMA) == 0
    assert _run(raw, tmp_path / "v0120", "--schema", SCHEMA, "--engine-version", "0.12.0", "--jobs", "2") == 0
    recording = _recording(tmp_path / "golden-engine-0.14.0.json")
    assert _run(raw, tmp_path / "newest", "--schema", SCHEMA, "--engine-version", "0.14.0",
                "--engine-recording", recording) == 0
    kit = _bits(_edge("two-kings-castle-w")["kit"][SCHEMA])  # engine-live's rules (0.12.0's)
    default = read_enriched(tmp_path / "default" / "a.parquet", SCHEMA, registry.get(SCHEMA).columns, "0.12.0")
    assert _feature_bits(default, 0) == kit != _bits(_edge("two-kings-castle-w")["newest"][SCHEMA])
    assert (tmp_path / "default" / "a.parquet").read_bytes() == (tmp_path / "v0120" / "a.parquet").read_bytes()
    plain = pq.read_schema(tmp_path / "default" / "a.parquet").metadata
    vouched = pq.read_schema(tmp_path / "newest" / "a.parquet").metadata
    assert b"dicechess.engine-recording" not in plain
    assert set(vouched) - set(plain) == {b"dicechess.engine-recording"}
    for key in READER_KEYS:
        assert (vouched[key] == plain[key]) == (key != b"engine_version")


def test_a_disagreeing_recording_is_refused_naming_the_first_difference(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    raw = _raw(tmp_path / "raw")
    recording = _recording(tmp_path / "golden-engine-0.14.0.json")
    doc = json.loads(recording.read_text(encoding="utf-8"))
    (probe,) = [p for p in doc["probes"] if p["id"] == "two-kings-castle-w"]
    column = doc["columns"].index("mobility_diff")
    probe["features"][column] = 14.0  # 0.12.0's answer: the recording no longer agrees under any rule set
    recording.write_text(json.dumps(doc), encoding="utf-8")
    assert _run(raw, tmp_path / "out", "--schema", SCHEMA, "--engine-version", "0.14.0",
                "--engine-recording", recording) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "engine 0.14.0 disagrees with the kit" in err
    assert "probe two-kings-castle-w column mobility_diff: recorded 41600000 (14.0), kit 41500000 (13.0)" in err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("text", ["not json", '{"schema": "kcp-13"}', "[]"])
def test_a_file_that_is_no_recording_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                       text: str) -> None:
    raw = _raw(tmp_path / "raw")
    path = tmp_path / "golden-engine-0.14.0.json"
    path.write_text(text, encoding="utf-8")
    assert _run(raw, tmp_path / "out", "--schema", SCHEMA, "--engine-version", "0.14.0",
                "--engine-recording", path) == 2
    err = capsys.readouterr().err
    assert err.startswith("enrich-shards: --engine-recording ") and err.count("\n") == 1
    assert not (tmp_path / "out").exists()


def test_a_recording_of_another_release_or_schema_is_a_usage_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    raw = _raw(tmp_path / "raw")
    recording = _recording(tmp_path / "golden-engine-0.13.0.json", version="0.13.0")
    assert _run(raw, tmp_path / "out", "--schema", SCHEMA, "--engine-version", "0.14.0",
                "--engine-recording", recording) == 2
    assert "a recording of engine 0.13.0, not of --engine-version 0.14.0" in capsys.readouterr().err
    assert _run(raw, tmp_path / "out", "--schema", "rich-9-v1", "--engine-version", "0.13.0",
                "--engine-recording", recording) == 2
    assert "a recording of schema kcp-13, not of --schema rich-9-v1" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def _extract_lines(tmp_path: Path, name: str, *args: str) -> list[dict[str, Any]]:
    output = tmp_path / f"{name}.jsonl"
    assert main(["extract", "--schema", SCHEMA, *args, "--output", str(output), "--quiet"]) == 0
    return [json.loads(line) for line in output.read_text(encoding="utf-8").splitlines()]


def _line_bits(line: dict[str, Any]) -> list[int]:
    return [int(bits) for bits in np.array(line["features"], dtype=np.float32).view(np.uint32)]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_extract_takes_the_engine_version_whose_answer_is_wanted(tmp_path: Path, jobs: str) -> None:
    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps({"id": f"r{i}", "fen": fen}) + "\n"
                              for i, fen in enumerate([TWO_KINGS, START, TWO_KINGS])), encoding="utf-8")
    newest = _bits(_edge("two-kings-castle-w")["newest"][SCHEMA])
    kit = _bits(_edge("two-kings-castle-w")["kit"][SCHEMA])
    for version, wanted in (("newest-sources", newest), ("0.12.0", kit)):
        files = _extract_lines(tmp_path, f"f-{version}-{jobs}", "--input", str(source), "--jobs", jobs,
                               "--chunk-size", "1", "--engine-version", version)
        streamed = _extract_lines(tmp_path, f"s-{version}-{jobs}", "--fen", TWO_KINGS, "--engine-version", version)
        assert [_line_bits(line) for line in files][::2] == [wanted, wanted]
        assert _line_bits(streamed[0]) == wanted
    default = _extract_lines(tmp_path, f"d-{jobs}", "--input", str(source), "--jobs", jobs)
    assert _line_bits(default[0]) == kit


def test_extract_refuses_an_engine_version_without_known_rules(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["extract", "--schema", SCHEMA, "--fen", TWO_KINGS, "--engine-version", "0.14.0"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("extract: --engine-version '0.14.0': ") and err.count("\n") == 1


def test_extract_resume_refuses_the_chunks_of_another_engine_version(tmp_path: Path) -> None:
    from contract.enrichment import EnrichmentError, Options, enrich_file
    from contract.enrichment.runs import pipeline
    from contract.enrichment.runs.parts import PartStore

    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps({"id": f"r{i}", "fen": TWO_KINGS}) + "\n" for i in range(20)),
                      encoding="utf-8")
    output = tmp_path / "out.jsonl"
    options = Options(SCHEMA, source, output, chunk_size=10, quiet=True, engine_version="newest-sources")
    holder = PartStore(output, ".jsonl")  # an interrupted run of newest-sources left its parts
    holder.open(pipeline.run_state(SCHEMA, chunk_size=10, chunk_bytes=options.chunk_bytes, fmt="jsonl",
                                   out_fmt="jsonl", source=source, engine="newest-sources"), resume=False)
    holder.release()
    with pytest.raises(EnrichmentError, match=re.escape("the interrupted run used engineVersion 'newest-sources',"
                                                        " this one '0.12.0'")):
        enrich_file(Options(SCHEMA, source, output, chunk_size=10, quiet=True, resume=True))
    summary = enrich_file(Options(SCHEMA, source, output, chunk_size=10, quiet=True, resume=True,
                                  engine_version="newest-sources"))
    assert summary.rows == 20
