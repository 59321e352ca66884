"""Which engine rule each kit vector follows, checked against the recordings (issue 33).

The kit's probes carry the edge positions of the newest public engine sources, so a recording over
``golden/probes.tsv`` settles which rules a release follows; every kit vector's ``rules`` label says which
rule it follows and which recordings hold its value. Replaces the old demand that every kit vector be
recorded: each label is checked against data recorded by others (engine-live, engine-newest, the released
goldens), never against the code that wrote it. The recordings handed to ``golden admit`` here are made of
recorded values only: engine-newest's (a stand-in for a release following the newest sources' rules) and
engine-live's (the pre-split sources').
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from golden_testkit import ROOT

from contract.cli.golden import main
from contract.core.registry import feature_schemas
from contract.golden import recorded
from contract.recordings import enginelive

NEWEST = ROOT / "golden" / "recorded" / "engine-newest"
LIVE = ROOT / "golden" / "recorded" / "engine-live" / "engine-vectors-default-seed20261130.jsonl.gz"
NEWEST_RECORDER = "engine-newest (newest public sources, rebuilt; not a release)"
LIVE_RECORDER = "engine 0.12.0 (rebuild, recorded live 2026-12-01)"
SCHEMA = "kcp-13"


def _vector_file(schema: str) -> dict[str, object]:
    doc: dict[str, object] = json.loads((ROOT / "golden" / "vectors" / f"{schema}.json").read_text(encoding="utf-8"))
    return doc


def _probes() -> list[dict[str, object]]:
    probes: list[dict[str, object]] = json.loads((ROOT / "golden" / "probes.json").read_text(encoding="utf-8"))["probes"]
    return probes


def _recorded(name: Path, *, gzipped: bool, field: str = "vectors") -> dict[tuple[str, str], dict[str, tuple[int, ...]]]:
    """(FEN, side) -> schema -> bits, as others recorded them."""
    positions, _refused = enginelive.read_any(name, name.name, gzipped=gzipped, field=field)
    return {(p.fen, p.side): dict(p.bits) for p in positions}


def _bits(values: list[float]) -> tuple[int, ...]:
    return tuple(int(b) for b in np.asarray(values, dtype=np.float32).view(np.uint32))


def test_the_probes_carry_every_edge_position_that_can_be_a_probe() -> None:
    by_position = {(p["fen"], p["side"]): p for p in _probes()}
    edges = [json.loads(line) for line in (NEWEST / "edge-cases.jsonl").read_text(encoding="utf-8").splitlines()]
    carried = {e["label"] for e in edges if (e["fen"], e["side"]) in by_position}
    assert carried == {"edge ep-occupied-b", "edge halfmove-127-w", "edge one-king-castle-both-w",
                       "edge two-kings-castle-w"}
    # the other four: both engine and kit refuse two FENs; one reads a Black-to-move FEN from White's side,
    # which probes.tsv (no side column) cannot say; one is ep-occupied-b with an unsorted dice field (its twin's
    # twin would differ; generators/probes.py EDGE_LEFT_OUT)
    left = {e["label"] for e in edges} - carried
    assert left == {"edge halfmove-200-w", "edge eight-fields-w", "edge ep-occupied-w", "edge ep-occupied-dice-b"}
    lines = (ROOT / "golden" / "probes.tsv").read_text(encoding="utf-8").splitlines()
    assert {line.split("\t")[0] for line in lines[1:]} >= {"ep-occupied-b", "two-kings-castle-w"}


def test_every_label_names_exactly_the_recordings_that_hold_its_value() -> None:
    newest = _recorded(NEWEST / "engine-vectors-default-seed20261130.jsonl.gz", gzipped=True)
    newest.update(_recorded(NEWEST / "edge-cases.jsonl", gzipped=False, field="newest"))
    live = _recorded(LIVE, gzipped=True)
    for schema in feature_schemas():
        for probe in _vector_file(schema)["probes"]:  # type: ignore[union-attr]
            key = (probe["fen"], probe["side"])
            mine = _bits(probe["features"])
            label = probe["rules"]
            held_by_newest = newest.get(key, {}).get(schema) == mine
            held_by_live = live.get(key, {}).get(schema) == mine
            assert (NEWEST_RECORDER in label["recordedBy"]) == held_by_newest, (schema, probe["id"])
            assert (LIVE_RECORDER in label["recordedBy"]) == held_by_live, (schema, probe["id"])
            for other in label.get("otherRuleSets", ()):
                assert other["ruleSet"] == "newest-sources"
                recorded_newest = newest.get(key, {}).get(schema)
                if recorded_newest is not None:  # the other rule set's value is engine-newest's, bit for bit
                    assert _bits(other["features"]) == recorded_newest, (schema, probe["id"])
                    assert other["recordedBy"] == [NEWEST_RECORDER]


def test_a_label_says_a_rule_matters_exactly_where_two_recordings_of_the_position_differ() -> None:
    newest = _recorded(NEWEST / "engine-vectors-default-seed20261130.jsonl.gz", gzipped=True)
    live = _recorded(LIVE, gzipped=True)
    differing = set()
    for schema in feature_schemas():
        for probe in _vector_file(schema)["probes"]:  # type: ignore[union-attr]
            key = (probe["fen"], probe["side"])
            if key in newest and key in live:
                if newest[key][schema] != live[key][schema]:
                    differing.add((schema, probe["id"]))
                    assert probe["rules"]["dependsOn"] == ["castling"], (schema, probe["id"])
                    assert probe["rules"]["follows"] == {"castling": "per-king"}
                    assert probe["rules"]["unknown"] == ["castling"]
                else:
                    assert probe["rules"]["dependsOn"] == [], (schema, probe["id"])
    assert {p for _s, p in differing} == {"two-kings-castle-w", "two-kings-castle-w-twin"}


def test_no_kit_only_vector_without_a_reason_in_its_label() -> None:
    """The intent of the old "no kit-only vector" test, kept honest: a vector no recording holds is a twin of a
    probe recorded in that schema, or follows a rule the kit does not know for its release."""
    twins = {str(p["id"]): str(p["twinOf"]) for p in _probes() if "twinOf" in p}
    unexplained = []
    kit_only = 0
    for schema in feature_schemas():
        probes = {p["id"]: p for p in _vector_file(schema)["probes"]}  # type: ignore[union-attr]
        for probe_id, probe in probes.items():
            label = probe["rules"]
            if label["recordedBy"]:
                continue
            kit_only += 1
            base = probes.get(twins.get(probe_id, ""))
            twin_of_recorded = base is not None and bool(base["rules"]["recordedBy"])
            if not (label.get("unknown") or (twin_of_recorded and base is not None
                                              and base["features"] == probe["features"])):
                unexplained.append((schema, probe_id))
    assert unexplained == []
    assert kit_only == 26  # 3 edge twins x 7 schemas; ep-occupied-b x the 5 schemas with mobility columns


def test_golden_check_prints_the_rule_of_each_value(capsys: pytest.CaptureFixture[str]) -> None:
    files = {f"golden/vectors/{s}.json": (ROOT / "golden" / "vectors" / f"{s}.json").read_bytes()
             for s in feature_schemas()}
    files["golden/probes.json"] = (ROOT / "golden" / "probes.json").read_bytes()
    agreement = recorded.compare(ROOT, files)
    assert agreement.problems == ()
    text = recorded.coverage_text(agreement)
    assert "rules: 820 of 840 kit vectors are the same under every rule set; 20 (4 probes) follow a named rule:" in text
    assert ("  rule: ep-occupied-b (rich-9-v1 rich-pdi-11-v1 kcp-13 kcp-mobility-27-v1 kcp-mobility-pawns-31-v1): "
            "follows enPassant onto-any; not known for 0.12.0: enPassant onto-any or onto-empty; under rule set "
            f"newest-sources it differs ({NEWEST_RECORDER}); no recording: the kit's word alone") in text
    assert "rule: two-kings-castle-w (" in text and "not known for 0.12.0: castling per-king or per-side" in text


def test_a_label_naming_a_recorder_the_recordings_do_not_show_is_a_problem() -> None:
    files = {f"golden/vectors/{s}.json": (ROOT / "golden" / "vectors" / f"{s}.json").read_bytes()
             for s in feature_schemas()}
    path = "golden/vectors/kcp-13.json"
    doc = json.loads(files[path])
    probe = next(p for p in doc["probes"] if p["id"] == "ep-occupied-b")
    probe["rules"]["recordedBy"] = [LIVE_RECORDER]
    files[path] = json.dumps(doc).encode("utf-8")
    agreement = recorded.compare(ROOT, files)
    assert agreement.problems == (f"{path}: probe ep-occupied-b: its rules label names recorders ['{LIVE_RECORDER}'],"
                                  " the recordings hold its value in []",)


def _recording(tmp_path: Path, version: str, source: dict[tuple[str, str], dict[str, tuple[int, ...]]],
               patch: dict[tuple[str, str], dict[str, tuple[int, ...]]] | None = None) -> Path:
    """A recording in the engine goldens format over the kit's probes, made only of values others recorded
    (``source``, then ``patch``); a probe neither holds is left out, as a recording tool that failed on it would."""
    columns = list(feature_schemas()[SCHEMA].columns)
    probes = []
    for probe in _probes():
        key = (str(probe["fen"]), str(probe["side"]))
        bits = (patch or {}).get(key, source.get(key, {})).get(SCHEMA)
        if bits is None:
            continue
        values = [float(v) for v in np.asarray(bits, dtype=np.uint32).view(np.float32)]
        probes.append({"id": probe["id"], "fen": probe["fen"], "side": probe["side"], "tags": probe["tags"],
                       "note": probe["note"], "features": values})
    path = tmp_path / f"golden-engine-{version}.json"
    path.write_text(json.dumps({"schema": SCHEMA, "perspective": "side-to-move", "engineVersion": version,
                                "columns": columns, "probes": probes}), encoding="utf-8")
    return path


def _admit(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["--root", str(ROOT), "admit", str(path)])
    out, _err = capsys.readouterr()
    return code, out


def _edges_and_newest() -> dict[tuple[str, str], dict[str, tuple[int, ...]]]:
    newest = _recorded(NEWEST / "engine-vectors-default-seed20261130.jsonl.gz", gzipped=True)
    newest.update(_recorded(NEWEST / "edge-cases.jsonl", gzipped=False, field="newest"))
    return newest


@pytest.mark.parametrize(("source", "expected"), [
    # engine-newest over every probe it recorded: both rules shown
    ("newest", ["it shows rule set newest-sources (castling per-side, en passant onto-empty)",
                "castling per-side on 2 probe(s): two-kings-castle-w, two-kings-castle-w-twin",
                "enPassant onto-empty on 1 probe(s): ep-occupied-b"]),
    # engine-live (the pre-split sources) recorded the old probes only: castling is shown, en passant is not
    ("live", ["it shows rule set engine-0.12.0", "castling per-king on 2 probe(s)",
              "enPassant: none of its probes tells onto-any and onto-empty apart (not vouched for)"]),
])
def test_a_recording_over_the_probes_shows_each_rule_it_covers(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], source: str, expected: list[str]) -> None:
    values = _edges_and_newest() if source == "newest" else _recorded(LIVE, gzipped=True)
    code, out = _admit(_recording(tmp_path, "0.14.0", values), capsys)
    assert code == 0, out
    for line in expected:
        assert line in out


def test_a_recording_mixing_the_rules_names_each_rule_it_shows(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Castling as the pre-split sources recorded it, en passant as the newest sources did: no named rule set
    matches (exit 1), and the verdict still says, rule by rule, which value the recording shows."""
    newest = _edges_and_newest()
    edges = {key: value for key, value in newest.items() if key[0].startswith("r1bqkbnr/p1pppp1p/")}
    code, out = _admit(_recording(tmp_path, "0.14.0", _recorded(LIVE, gzipped=True), patch=edges), capsys)
    assert code == 1
    assert "castling per-king on 2 probe(s)" in out
    assert "enPassant onto-empty on 1 probe(s): ep-occupied-b" in out
