"""``pairjudge verify`` text output: every line names the bundle it is about, so the lines of a
loop over several bundles can be told apart (issue #35, newcomer item: lines not naming the bundle)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pairjudge_support import BUNDLES, apply_ops, copy_bundle

from contract.cli import main


def _lines(capsys: pytest.CaptureFixture[str], argv: list[str]) -> list[str]:
    main(["pairjudge", "verify", *argv])
    return capsys.readouterr().out.splitlines()


def test_every_verify_line_names_its_bundle(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    lenient = copy_bundle("full-run/merged", tmp_path)  # a packer lacking fields: accepted with a warning
    apply_ops(lenient, [{"op": "set", "path": "/packer", "value": {"max_length": 100}}, {"op": "rehash"}])
    refused = BUNDLES / "base"
    missing_python = tmp_path / "no-such-python"
    lines = {
        str(lenient): _lines(capsys, [str(lenient), "--layer", "manifest"]),
        str(refused): _lines(capsys, [str(refused), "--layer", "manifest", "--reference", str(missing_python)]),
    }
    assert any(line.startswith("warning: ") for line in lines[str(lenient)])
    assert f"pairjudge bundle {refused} refused: missing pairjudge.json" in "\n".join(lines[str(refused)])
    assert any(line.startswith(f"reference: not asked for {refused}: ") for line in lines[str(refused)])
    for bundle, printed in lines.items():
        assert printed and all(bundle in line for line in printed), printed
