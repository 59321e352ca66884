"""``pairjudge declare-legacy``: a verified copy with the declared class order, SOURCE untouched."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from pairjudge_support import BUNDLES, copy_bundle, original_packer

from contract.pairjudge.legacy import NOT_PROOF, declare_legacy

ORDER = ["tie", "a_wins", "b_wins"]  # the recorded bundles' training order


def _tree(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(root.rglob("*")) if p.is_file()
    }


def _legacy(tmp_path: Path, name: str = "full-run/merged") -> Path:
    """A legacy classifier: the recorded full bundle without pairjudge.json, opaque class names."""
    source = copy_bundle(name, tmp_path)
    (source / "pairjudge.json").unlink()
    config = json.loads((source / "config.json").read_text())
    config["id2label"] = {"0": "LABEL_0", "1": "LABEL_1", "2": "LABEL_2"}
    config["label2id"] = {"LABEL_0": 0, "LABEL_1": 1, "LABEL_2": 2}
    (source / "config.json").write_text(json.dumps(config, indent=2))
    return source


def _packer() -> dict[str, Any]:
    packer = original_packer("full-run/merged")
    assert packer is not None
    return packer


def test_declare_legacy_copies_rewrites_only_the_mapping_and_verifies(tmp_path: Path) -> None:
    source = _legacy(tmp_path)
    before = _tree(source)
    target = tmp_path / "declared"
    outcome = declare_legacy(source, target, ORDER, _packer())
    assert outcome.ok, outcome
    assert outcome.verdict is not None and outcome.verdict.ok
    assert _tree(source) == before  # SOURCE never written
    after = _tree(target)
    assert set(after) == set(before)
    assert {k: v for k, v in after.items() if k != "config.json"} == {
        k: v for k, v in before.items() if k != "config.json"
    }
    old = json.loads((source / "config.json").read_text())
    new = json.loads((target / "config.json").read_text())
    assert new["id2label"] == {"0": "tie", "1": "a_wins", "2": "b_wins"}
    assert new["label2id"] == {"tie": 0, "a_wins": 1, "b_wins": 2}
    assert {k: v for k, v in new.items() if k not in ("id2label", "label2id")} == {
        k: v for k, v in old.items() if k not in ("id2label", "label2id")
    }
    assert list(new) == list(old)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_declare_legacy_refuses_an_existing_target(tmp_path: Path) -> None:
    source = _legacy(tmp_path)
    target = tmp_path / "declared"
    target.mkdir()
    outcome = declare_legacy(source, target, ORDER, _packer())
    assert not outcome.ok
    assert "exists" in (outcome.message or "")
    assert list(target.iterdir()) == []


def test_declare_legacy_refuses_a_bundle_with_a_manifest(tmp_path: Path) -> None:
    source = copy_bundle("full-run/merged", tmp_path)
    outcome = declare_legacy(source, tmp_path / "declared", ORDER, _packer())
    assert not outcome.ok
    assert "pairjudge.json" in (outcome.message or "")
    assert not (tmp_path / "declared").exists()


def test_declare_legacy_publishes_nothing_when_the_copy_does_not_verify(tmp_path: Path) -> None:
    """The backbone has no head: the declared copy is refused and nothing is left behind."""
    source = tmp_path / "backbone"
    source.mkdir()
    for path in (BUNDLES / "base").iterdir():
        (source / path.name).write_bytes(path.read_bytes())
    outcome = declare_legacy(source, tmp_path / "declared", ORDER, _packer())
    assert not outcome.ok
    assert (outcome.message or "").startswith("the declared copy does not verify: incomplete trained weights")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["backbone"]


def test_declare_legacy_command_line(tmp_path: Path) -> None:
    source = _legacy(tmp_path)
    packer = tmp_path / "packer.json"
    packer.write_text(json.dumps(_packer()))
    command = [sys.executable, "-m", "contract", "pairjudge", "declare-legacy", str(source), str(tmp_path / "t"),
               "--label-order", ",".join(ORDER), "--packer-config", str(packer)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "declaration is not proof" in done.stdout
    again = subprocess.run([*command, "--json"], capture_output=True, text=True, check=False)
    assert again.returncode == 1
    document = json.loads(again.stdout)
    assert set(document) == {"outputVersion", "ok", "message", "warnings", "note"}
    assert document["note"] == NOT_PROOF
    from jsonschema import Draft202012Validator

    from contract.core.resources import schema_dir
    schema = json.loads((schema_dir() / "output-pairjudge-declare-legacy-1.schema.json").read_text(encoding="utf-8"))
    assert [e.message for e in Draft202012Validator(schema).iter_errors(document)] == []
    bad = [*command[:-4], "--label-order", "tie,tie,a_wins", "--packer-config", str(packer)]
    usage = subprocess.run(bad, capture_output=True, text=True, check=False)
    assert usage.returncode == 2
    assert "permutation" in usage.stderr
