"""``python -m contract pairjudge verify``: exit 0 accepted, 1 refused, 2 usage; ``--json`` shape."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from pairjudge_support import BUNDLES, original_packer

from contract.cli import main

ADAPTER = str(BUNDLES / "lora-run/adapter")
BASE = str(BUNDLES / "base")


def _json_run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, dict[str, object]]:
    code = main(["pairjudge", "verify", *argv, "--json"])
    out = capsys.readouterr().out
    return code, json.loads(out)


def test_pairjudge_cli_accepts_with_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, document = _json_run(capsys, [ADAPTER])
    assert code == 0
    assert document == {"outputVersion": 1, "ok": True, "message": None, "warnings": []}


def test_pairjudge_cli_refuses_backbone(capsys: pytest.CaptureFixture[str]) -> None:
    code, document = _json_run(capsys, [BASE, "--layer", "manifest"])
    assert code == 1
    assert document["ok"] is False
    assert str(document["message"]).startswith("missing pairjudge.json")


def test_pairjudge_cli_legacy_backbone(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    packer = tmp_path / "packer.json"
    packer.write_text("{}")
    code, document = _json_run(
        capsys, [BASE, "--allow-legacy", "--label-order", "a_wins,b_wins,tie", "--packer-config", str(packer)]
    )
    assert code == 1
    assert str(document["message"]).startswith("incomplete trained weights: {'missing_keys': {'score.weight'}")


@pytest.mark.parametrize(
    "argv",
    [
        [BASE, "--allow-legacy"],  # legacy needs both label order and packer config
        [ADAPTER, "--label-order", "a_wins,b_wins"],
        [ADAPTER, "--packer-config", "/nonexistent/packer.json"],
    ],
)
def test_pairjudge_cli_usage_errors_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, document = _json_run(capsys, argv)
    assert code == 2
    assert document["ok"] is False and document["message"]


def test_pairjudge_cli_override_conflict(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    packer = tmp_path / "packer.json"
    packer.write_text(json.dumps(original_packer("lora-run/adapter")))
    assert main(["pairjudge", "verify", ADAPTER, "--packer-config", str(packer),
                 "--label-order", "tie,a_wins,b_wins"]) == 0
    assert main(["pairjudge", "verify", ADAPTER, "--label-order", "a_wins,b_wins,tie"]) == 1
    assert "refused: label_order conflicts with the artifact" in capsys.readouterr().out


def test_pairjudge_cli_bad_layer_is_usage() -> None:
    with pytest.raises(SystemExit) as exc:
        main(["pairjudge", "verify", ADAPTER, "--layer", "weights"])
    assert exc.value.code == 2


def test_pairjudge_cli_as_a_process() -> None:
    result = subprocess.run([sys.executable, "-m", "contract", "pairjudge", "verify", BASE],
                            capture_output=True, text=True, timeout=120, check=False,
                            cwd=Path(__file__).resolve().parents[2])
    assert result.returncode == 1
    assert "refused: missing pairjudge.json" in result.stdout
