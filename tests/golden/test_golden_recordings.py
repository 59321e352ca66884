"""Every golden vector is engine-recorded: the engine's live recording of the 114 probes x 7 schemas.

``golden/recorded/engine-live/`` (vendored byte for byte) holds the engine's vector of every golden probe
in every schema; ``recorded.compare`` compares each with the kit's, bit for bit, and says which kit vectors
a recording holds (engine-recorded) and which none does (kit-only).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from golden_testkit import ROOT

from contract.core.registry import feature_schemas
from contract.golden import recorded
from contract.recordings import enginelive

REBUILD = "engine 0.12.0 (rebuild, recorded live 2026-12-01)"
LIVE_NAME = "engine-vectors-default-seed20261130.jsonl.gz"


def _committed_vectors() -> dict[str, bytes]:
    return {f"golden/vectors/{s}.json": (ROOT / "golden" / "vectors" / f"{s}.json").read_bytes()
            for s in feature_schemas()}


def _probe_count() -> int:
    return len(json.loads((ROOT / "golden" / "probes.json").read_text(encoding="utf-8"))["probes"])


def test_every_kit_vector_equals_its_engine_recordings_and_each_kit_only_one_is_labelled() -> None:
    """Every kit vector a recording holds equals it; those no recording holds (the twins of the engine-newest edge
    probes, and ep-occupied-b's value under 0.12.0's rules, which no release recorded) are listed, and
    test_golden_rule_labels.py checks that each says why."""
    agreement = recorded.compare(ROOT, _committed_vectors())
    probes = _probe_count()
    assert probes == 120
    assert agreement.problems == ()
    assert agreement.cells == ()
    assert len(agreement.recorded_by) == probes * len(feature_schemas()) == 840
    edge_twins = ("ep-occupied-b-twin", "halfmove-127-w-twin", "one-king-castle-both-w-twin")
    moving = ("rich-9-v1", "rich-pdi-11-v1", "kcp-13", "kcp-mobility-27-v1", "kcp-mobility-pawns-31-v1")
    assert set(agreement.kit_only) == ({(s, p) for s in feature_schemas() for p in edge_twins}
                                       | {(s, "ep-occupied-b") for s in moving})
    # engine-live recorded every probe of 2026-12-01 (114), so each of their vectors is engine-recorded
    old = [key for key in agreement.recorded_by if not key[1].startswith(("ep-occupied-b", "halfmove-127-w",
                                                                           "one-king-castle-both-w"))]
    assert len(old) == 798
    assert all(REBUILD in agreement.recorded_by[key] for key in old)
    # the 798 live vectors and the 185 of the seven released-engine goldens (kcp-13 0.9.1: 27, 0.9.2: 23, 0.9.3: 27),
    # the training repository's rich-9-v1 0.9.1 golden (27) and its prerank probe pairs (16 kcp-13 + 16 rich-9-v1)
    assert agreement.vectors == 798 + 108 + 27 + 23 + 27 + 27 + 32 + 14872
    # engine-newest: 2,114 positions x 7 schemas, 6 edge positions x 7 (2 refused by both), 16 probe pairs x 2
    assert dict(agreement.by_rules) == {"engine-0.12.0": 798 + 108 + 27 + 23 + 27 + 27 + 32,
                                        "newest-sources": 2114 * 7 + 6 * 7 + 16 * 2}
    assert f"golden/recorded/engine-live/{LIVE_NAME}" in agreement.files


def test_a_changed_vector_disagrees_with_the_live_recording_in_a_schema_no_golden_recorded() -> None:
    files = _committed_vectors()
    path = "golden/vectors/material-7-v1.json"
    text = files[path].decode("utf-8")
    start = text.index('"id": "start-w"')
    line_start = text.index('"features": [', start)
    line_end = text.index("\n", line_start)
    assert text[line_start:line_end].endswith("78.0],")
    files[path] = (text[:line_start] + text[line_start:line_end].replace("78.0],", "79.0],") +
                   text[line_end:]).encode("utf-8")
    agreement = recorded.compare(ROOT, files)
    assert [(c.schema, c.probe, c.column, c.old, c.new) for c in agreement.cells] == [
        (f"material-7-v1 ({LIVE_NAME})", "start-w", "total_material", 78.0, 79.0)]


def test_a_recording_of_another_fen_under_a_probe_id_does_not_back_that_probe() -> None:
    files = _committed_vectors()
    path = "golden/vectors/rich-pdi-11-v1.json"
    moved = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -"
    text = files[path].decode("utf-8")
    original = '"fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",'
    assert original in text
    files[path] = text.replace(original, f'"fen": "{moved}",', 1).encode("utf-8")
    agreement = recorded.compare(ROOT, files)
    assert ("rich-pdi-11-v1", "start-w") in agreement.kit_only
    assert len(agreement.kit_only) == 27  # and the 26 kit-only vectors of the committed corpus
    assert agreement.cells == ()  # the recording is compared with the kit's vector of its own FEN
    assert "27 kit-only" in recorded.coverage_text(agreement)
    assert "  kit-only: rich-pdi-11-v1 start-w (the same under every rule set; no recording: the kit's word alone)" \
        in recorded.coverage_text(agreement)


def test_vector_files_name_what_recorded_them() -> None:
    probes = _probe_count()
    assert probes == 120  # engine-live recorded the 114 probes of 2026-12-01
    live = {"recorder": REBUILD, "file": f"golden/recorded/engine-live/{LIVE_NAME}", "probes": 114}
    expected = {
        "kcp-13": [{"recorder": "engine 0.12.0", "file": "golden/recorded/kcp-13.engine-0.12.0.json", "probes": 27},
                   *({"recorder": f"engine {v}", "file": f"golden/recorded/kcp-13.engine-{v}.json", "probes": n}
                     for v, n in (("0.9.1", 27), ("0.9.2", 23), ("0.9.3", 27))), live],
        "rich-9-v1": [{"recorder": "engine 0.12.0", "file": "golden/recorded/rich-9-v1.engine-0.12.0.json",
                       "probes": 27},
                      {"recorder": "engine 0.9.1", "file": "golden/recorded/rich-9-v1.engine-0.9.1.json", "probes": 27},
                      live],
        "kcp-mobility-27-v1": [{"recorder": "engine 0.9.3",
                                "file": "golden/recorded/kcp-mobility-27-v1.engine-0.9.3.json", "probes": 27}, live],
        "kcp-mobility-pawns-31-v1": [{"recorder": "engine 0.9.3",
                                      "file": "golden/recorded/kcp-mobility-pawns-31-v1.engine-0.9.3.json",
                                      "probes": 27}, live],
        "material-7-v1": [live], "rich-pdi-11-v1": [live], "raw-board-768-v1": [live],
    }
    assert set(expected) == set(feature_schemas())
    for schema, recorders in expected.items():
        doc = json.loads((ROOT / "golden" / "vectors" / f"{schema}.json").read_text(encoding="utf-8"))
        assert doc["recordedBy"] == recorders, schema


def test_the_live_recording_decodes_hex_and_bits_vectors() -> None:
    assert enginelive.decode("429c0000bf800000", "x") == (0x429C0000, 0xBF800000)
    assert enginelive.decode("bits:0110", "x") == (0, 0x3F800000, 0x3F800000, 0)
    assert enginelive.decode("", "x") == ()
    for bad in ("429c000", "429C0000", "bits:012", "0x429c0000"):
        with pytest.raises(enginelive.LiveRecordingError, match="x: not a vector"):
            enginelive.decode(bad, "x")
    positions = enginelive.read(ROOT / enginelive.VECTORS_FILE)
    assert len(positions) == 2114
    assert [p.probe_id for p in positions[:2]] == ["start-w", "start-w-6field"]
    assert positions[0].bits["kcp-13"][6] == 0x429C0000  # total_material 78.0
    assert sum(p.probe_id is not None for p in positions) == 114
    assert len(enginelive.read(ROOT / enginelive.VECTORS_FILE, probes_only=True)) == 114


@pytest.mark.parametrize(("content", "message"), [
    (None, "x.jsonl.gz: missing"),
    (b"not gzip", "x.jsonl.gz: cannot be read as gzip"),
    (gzip.compress(b""), "x.jsonl.gz: no position recorded"),
    (gzip.compress(b'{"label": "probe a", "fen": "8/8/8/8/8/8/8/8 w - -", "side": "w"}\n'),
     "x.jsonl.gz: line 1: field 'vectors' must be a non-empty object"),
    (gzip.compress(b'\n{"label": "probe a", "fen": "f", "side": "x", "vectors": {"kcp-13": ""}}\n'),
     "x.jsonl.gz: line 2: side 'x' is not 'w' or 'b'"),
    (gzip.compress(b'{"label": "probe a", "fen": "f", "side": "w", "vectors": {"kcp-13": 5}}'),
     "x.jsonl.gz: line 1: vector kcp-13 must be a string"),
    (gzip.compress(b'{"label": 1}'), "x.jsonl.gz: line 1: field 'label' must be a string"),
    (gzip.compress(b'{"label": "probe a",'), "x.jsonl.gz: line 1: "),
])
def test_an_unreadable_live_recording_is_refused_naming_file_and_line(
        tmp_path: Path, content: bytes | None, message: str) -> None:
    path = tmp_path / "x.jsonl.gz"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(enginelive.LiveRecordingError) as caught:
        enginelive.read(path, "x.jsonl.gz")
    assert str(caught.value).startswith(message)


def test_a_live_recording_larger_than_the_cap_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "x.jsonl.gz"
    path.write_bytes(gzip.compress(b" " * 1000))
    monkeypatch.setattr(enginelive, "MAX_BYTES", 999)
    with pytest.raises(enginelive.LiveRecordingError, match="larger than 999 bytes uncompressed"):
        enginelive.read(path, "x.jsonl.gz")


def test_a_broken_live_recording_is_a_problem_of_compare_never_skipped(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    (root / "golden" / "recorded" / "engine-live").mkdir(parents=True)
    (root / enginelive.VECTORS_FILE).write_bytes(b"not gzip")
    agreement = recorded.compare(root, {})
    live = [p for p in agreement.problems if p.startswith(enginelive.VECTORS_FILE)]
    assert len(live) == 1
    assert live[0].startswith(f"{enginelive.VECTORS_FILE}: cannot be read as gzip")
    # the other recordings the kit carries are missing from this root: each is a problem, never skipped
    assert len(agreement.problems) == 4
    assert all("golden/recorded/engine-newest/" in p for p in agreement.problems if p not in live)


def test_a_changed_engine_newest_value_disagrees_under_the_newest_rules(tmp_path: Path) -> None:
    """issue 33: golden check compares engine-newest under the newest sources' rules; one changed recorded bit
    pattern is a disagreeing cell naming the rule set (a copy is changed, never the vendored file)."""
    import shutil

    root = tmp_path / "repo"
    shutil.copytree(ROOT / "golden" / "recorded", root / "golden" / "recorded")
    edges = root / "golden" / "recorded" / "engine-newest" / "edge-cases.jsonl"
    rows = [json.loads(line) for line in edges.read_text(encoding="utf-8").splitlines()]
    two_kings = next(row for row in rows if row["label"] == "edge two-kings-castle-w")
    assert two_kings["newest"]["rich-9-v1"][56:64] == "41500000"  # mobility_diff 13.0, recorded by engine-newest
    vector = two_kings["newest"]["rich-9-v1"]
    two_kings["newest"]["rich-9-v1"] = vector[:56] + "41600000" + vector[64:]
    edges.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    agreement = recorded.compare(root, _committed_vectors())
    assert [(c.schema, c.probe, c.column, c.old, c.new) for c in agreement.cells] == [
        ("rich-9-v1 (edge-cases.jsonl; rules newest-sources)", "edge two-kings-castle-w", "mobility_diff", 14.0, 13.0)]


def test_the_prerank_probe_pairs_and_the_rich9_0_9_1_golden_are_compared() -> None:
    """issue 33 item 5: the training repository's probe pairs (kcp-13 and rich-9-v1, engine 0.12.0) and its
    rich-9-v1 0.9.1 golden are recordings golden check compares, all 16 + 16 + 27 vectors agreeing."""
    agreement = recorded.compare(ROOT, _committed_vectors())
    for name in ("golden/recorded/prerank/probe-pairs-kcp13-engine-0.12.0.json",
                 "golden/recorded/prerank/probe-pairs-rich9-engine-0.12.0.json",
                 "golden/recorded/rich-9-v1.engine-0.9.1.json"):
        assert name in agreement.files
    assert agreement.cells == ()
    assert agreement.problems == ()


@pytest.mark.parametrize("case", [
    ("probe-pairs-kcp13-engine-0.12.0.json", "kcp-13", "knight-d3-safe", "king_capture_danger", 10,
     "0.0046296297", "0.005"),
    ("probe-pairs-rich9-engine-0.12.0.json", "rich-9-v1", "rook-d4-twin-safe", "mobility_diff", 7, "11.0", "12.0"),
])
def test_a_changed_probe_pair_value_disagrees_naming_probe_and_column(
        tmp_path: Path, case: tuple[str, str, str, str, int, str, str]) -> None:
    """One changed value in a copy of a probe-pair recording is one disagreeing cell (compared under engine
    0.12.0's rules) naming the probe and the column."""
    import shutil

    name, schema, probe, column, index, old, new = case
    root = tmp_path / "repo"
    shutil.copytree(ROOT / "golden" / "recorded", root / "golden" / "recorded")
    path = root / "golden" / "recorded" / "prerank" / name
    doc = json.loads(path.read_text(encoding="utf-8"))
    entry = next(p for p in doc["probes"] if p["id"] == probe)
    assert repr(entry["features"][index]) == old or str(entry["features"][index]) == old
    entry["features"][index] = float(new)
    path.write_text(json.dumps(doc), encoding="utf-8")
    agreement = recorded.compare(root, _committed_vectors())
    assert [(c.schema, c.probe, c.column) for c in agreement.cells] == [
        (f"{schema} ({name}; rules engine-0.12.0)", probe, column)]
