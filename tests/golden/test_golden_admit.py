"""``golden admit FILE`` (issue 33): a recording of an engine release against the kit's vectors, bit for bit.

The recordings are the real engines' goldens vendored under golden/recorded/ (recorded by others); a changed
copy stands for a disagreeing recording."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from golden_testkit import ROOT

from contract.cli.golden import main

REAL = ROOT / "golden" / "recorded" / "rich-9-v1.engine-0.12.0.json"


def _admit(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["--root", str(ROOT), "admit", str(path)])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_real_recording_equal_to_the_kit_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = _admit(REAL, capsys)
    assert code == 0
    assert "golden admit: all 243 values agree bit for bit" in out
    assert "it covers no probe that tells the rule sets apart" in out


def test_one_changed_value_exits_1_naming_probe_column_and_both_bit_patterns(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = json.loads(REAL.read_text(encoding="utf-8"))
    probe = doc["probes"][0]
    column = doc["columns"].index("mobility_diff")
    recorded = float(probe["features"][column])
    probe["features"][column] = recorded + 1.0
    changed = tmp_path / "golden-engine-0.12.0.json"
    changed.write_text(json.dumps(doc), encoding="utf-8")
    code, out, _err = _admit(changed, capsys)
    assert code == 1
    import numpy as np

    old = int(np.float32(recorded + 1.0).view(np.uint32))
    new = int(np.float32(recorded).view(np.uint32))
    assert f"DRIFT rich-9-v1: probe {probe['id']} column mobility_diff: recorded {old:08x}" in out
    assert f"kit {new:08x}" in out
    assert "golden admit: 1 value(s) differ from the kit's; engine 0.12.0 is not admitted" in out


@pytest.mark.parametrize("text", ["not json", '{"schema": "rich-9-v1"}', '{"schema": "nope-1", "columns": [],'
                                  ' "engineVersion": "0.14.0", "probes": []}'])
def test_a_file_that_is_no_recording_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str) -> None:
    path = tmp_path / "golden-engine-0.14.0.json"
    path.write_text(text, encoding="utf-8")
    code, out, err = _admit(path, capsys)
    assert code == 2
    assert out == ""
    assert err.startswith("dicechess-contract golden admit: ")
    assert err.count("\n") == 1


def test_a_release_the_kit_does_not_know_is_compared_under_every_rule_set(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = json.loads(REAL.read_text(encoding="utf-8"))
    doc["engineVersion"] = "0.14.0"
    path = tmp_path / "golden-engine-0.14.0.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, out, _err = _admit(path, capsys)
    assert code == 0
    assert "(engine 0.14.0 is not in the kit's table)" in out
    assert "vouches only for its 27 probes" in out


def test_write_stores_the_recording_verbatim_and_golden_check_then_compares_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import shutil

    from contract.features import admitted
    from contract.recordings.recorded import recordings

    root = tmp_path / "repo"
    shutil.copytree(ROOT / "golden" / "recorded", root / "golden" / "recorded")
    doc = json.loads(REAL.read_text(encoding="utf-8"))
    doc["engineVersion"] = "0.14.0"
    source = tmp_path / "golden-engine-0.14.0.json"
    source.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["admit", str(source), "--write"]) == 2  # --recorded-by is required
    from contract.cli import golden as cli

    code = cli.run_admit(str(source), root, True, "a test's renamed 0.12.0 golden")
    out, _err = capsys.readouterr()
    assert code == 0, out
    stored = root / "golden" / "recorded" / "admitted" / "0.14.0" / "rich-9-v1.engine-0.14.0.json"
    assert stored.read_bytes() == source.read_bytes()
    provenance = admitted.provenance("0.14.0", root / "golden")
    assert provenance is not None
    assert provenance["recordedBy"] == "a test's renamed 0.12.0 golden"
    assert provenance["ruleSet"] == "engine-0.12.0"
    found, files, _problems = recordings(root)
    assert "golden/recorded/admitted/0.14.0/rich-9-v1.engine-0.14.0.json" in files
    assert sum(1 for r in found if r.recorder == "engine 0.14.0 (admitted)") == 27
