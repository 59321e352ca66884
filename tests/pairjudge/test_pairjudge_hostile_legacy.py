"""``declare-legacy`` against hostile SOURCEs and interruptions (review 2026-12-01: C2, H3, H4, H12, L2,
L4). Each test fails on 7f9a987: a file swapped for a link after the first look was copied as a link
and published, config.json was read whole with a 1 MiB strict-JSON rule of its own, a TARGET inside
SOURCE was written, wrong types raised, and SIGTERM killed the copy leaving ``.TARGET.tmp-*``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from pairjudge_support import copy_bundle, original_packer

from contract.pairjudge import legacy, sidejson, verify_bundle
from contract.pairjudge.legacy import declare_legacy

ORDER = ["tie", "a_wins", "b_wins"]


def _legacy(tmp_path: Path) -> Path:
    source = copy_bundle("full-run/merged", tmp_path)
    (source / "pairjudge.json").unlink()
    return source


def _packer() -> dict[str, Any]:
    packer = original_packer("full-run/merged")
    assert packer is not None
    return packer


def _leftovers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.startswith("."))


def test_a_file_swapped_for_a_link_after_the_first_look_is_refused_not_published(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = _legacy(tmp_path)
    (source / "notes.txt").write_text("notes")
    outside = tmp_path / "outside.txt"
    outside.write_text("someone else's file")
    real_sibling = legacy.temporary_sibling

    def swap_then_stage(path: Path) -> Path:  # runs after the checks, before the copy
        (source / "notes.txt").unlink()
        os.symlink(outside, source / "notes.txt")
        return real_sibling(path)

    monkeypatch.setattr(legacy, "temporary_sibling", swap_then_stage)
    outcome = declare_legacy(source, tmp_path / "out", ORDER, _packer())
    assert (outcome.ok, outcome.message) == (
        False, "SOURCE holds notes.txt, which is not a plain file or directory; nothing copied")
    assert not os.path.lexists(tmp_path / "out")
    assert _leftovers(tmp_path) == []


def test_a_fifo_in_source_is_refused_without_blocking(tmp_path: Path) -> None:
    source = _legacy(tmp_path)
    os.mkfifo(source / "pipe")
    outcome = declare_legacy(source, tmp_path / "out", ORDER, _packer())
    assert outcome.message == "SOURCE holds pipe, which is not a plain file or directory; nothing copied"
    assert _leftovers(tmp_path) == []


def test_a_config_json_over_the_cap_is_refused_before_it_is_read(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    source = _legacy(tmp_path)
    monkeypatch.setattr(sidejson, "MAX_BYTES", 100)
    outcome = declare_legacy(source, tmp_path / "out", ORDER, _packer())
    assert outcome.message == "SOURCE config.json cannot be used: config.json is larger than 100 bytes"


def test_declare_legacy_reads_config_json_as_verify_does(tmp_path: Path) -> None:
    """A repeated key: verify --allow-legacy warns and takes the last value; so does declare-legacy
    (it refused "not valid JSON: duplicate key" before), and the copy carries the last value."""
    source = _legacy(tmp_path)
    text = (source / "config.json").read_text()
    (source / "config.json").write_text('{"use_cache": true, ' + text.lstrip()[1:])
    outcome = declare_legacy(source, tmp_path / "out", ORDER, _packer())
    assert outcome.ok, outcome
    assert ("config.json repeats the key 'use_cache'; the reference keeps the last value, other readers may keep "
            "the first") in outcome.warnings
    assert json.loads((tmp_path / "out" / "config.json").read_text())["use_cache"] is False


@pytest.mark.parametrize("inside", ["declared", "docs/declared"])
def test_a_target_inside_source_is_refused(tmp_path: Path, inside: str) -> None:
    source = _legacy(tmp_path)
    (source / "docs").mkdir()
    target = source / inside
    outcome = declare_legacy(source, target, ORDER, _packer())
    assert outcome.message == f"TARGET {target} is inside SOURCE {source}; SOURCE is never written"
    assert not target.exists() and _leftovers(target.parent) == []


@pytest.mark.parametrize(("call", "message"), [
    (lambda s, t: declare_legacy(None, t, ORDER, {}), "SOURCE must be a path (str or os.PathLike), not None"),  # type: ignore[arg-type]
    (lambda s, t: declare_legacy(s, 3, ORDER, {}), "TARGET must be a path (str or os.PathLike), not int"),  # type: ignore[arg-type]
    (lambda s, t: declare_legacy(s, t, None, {}), "label_order must be a permutation of ('a_wins', 'b_wins', 'tie')"),  # type: ignore[arg-type]
    (lambda s, t: declare_legacy(s, t, 5, {}), "label_order must be a permutation of ('a_wins', 'b_wins', 'tie')"),  # type: ignore[arg-type]
    (lambda s, t: declare_legacy(s, t, ORDER, None),  # type: ignore[arg-type]
     "packer_config must be a mapping of PackerConfig fields (or None), not None"),
    (lambda s, t: declare_legacy(s, t, ORDER, [1]),  # type: ignore[arg-type]
     "packer_config must be a mapping of PackerConfig fields (or None), not list"),
])
def test_declare_legacy_refuses_wrong_types(tmp_path: Path, call: Any, message: str) -> None:
    outcome = call(_legacy(tmp_path), tmp_path / "out")
    assert (outcome.ok, outcome.message) == (False, message)


_SIGTERM_MID_COPY = """
import os, signal, sys
calls = []
real_mkdir = os.mkdir
def mkdir(path, *args, **kwargs):
    real_mkdir(path, *args, **kwargs)
    calls.append(path)
    if len(calls) == 2:  # the stage, then a subdirectory: the copy is under way
        os.kill(os.getpid(), signal.SIGTERM)
os.mkdir = mkdir
from contract.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_sigterm_during_the_copy_leaves_nothing_and_exits_130(tmp_path: Path) -> None:
    source = _legacy(tmp_path / "in")
    (source / "sub").mkdir()
    (source / "sub" / "notes.txt").write_text("notes")
    packer = tmp_path / "packer.json"
    packer.write_text(json.dumps(_packer()))
    done = subprocess.run(
        [sys.executable, "-c", _SIGTERM_MID_COPY, "pairjudge", "declare-legacy", str(source), str(tmp_path / "out"),
         "--label-order", ",".join(ORDER), "--packer-config", str(packer)],
        capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 130, (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().endswith("temporary copy is removed")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in", "packer.json"]


def test_a_declared_copy_is_verified_as_verify_allow_legacy_verifies_it(tmp_path: Path) -> None:
    source = _legacy(tmp_path)
    outcome = declare_legacy(source, tmp_path / "out", ORDER, _packer())
    assert outcome.ok, outcome
    again = verify_bundle(tmp_path / "out", allow_legacy=True, label_order=ORDER, packer_config=_packer())
    assert again.ok and outcome.verdict is not None and again.warnings == outcome.verdict.warnings
