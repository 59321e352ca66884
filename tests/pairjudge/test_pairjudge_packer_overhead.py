"""The fixed-overhead check (``packer.overhead``) against the reference's own verdicts: every
recorded fuzz case (golden/recorded/pairjudge/fuzz-*.json) that edits only the manifest's packer,
replayed in-process. Where the reference refused with ``max_length=... cannot even fit the fixed
overhead (...)``, the kit must refuse with exactly that message; where it loaded, the kit accepts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pairjudge_support import RECORDED, apply_ops, copy_bundle

from contract.pairjudge import verify_bundle

SETS = ("tuning", "tuning-b", "tuning-c", "heldout")
OVERHEAD = "cannot even fit the fixed overhead"


def _packer_only(case: dict[str, Any]) -> bool:
    return all(
        op["op"] == "rehash"
        or (op["op"] == "set" and op.get("file", "pairjudge.json") == "pairjudge.json" and op["path"].startswith("/packer/"))
        for op in case["ops"]
    )


def _cases() -> list[dict[str, Any]]:
    out = []
    for name in SETS:
        for case in json.loads((RECORDED / f"fuzz-{name}.json").read_text())["cases"]:
            loaded = case["reference"]["from_pretrained"]
            if _packer_only(case) and (loaded["ok"] or OVERHEAD in loaded.get("message", "")):
                out.append(case)
    return out


CASES = _cases()


def test_pairjudge_overhead_cases_cover_both_verdicts() -> None:
    refused = [c for c in CASES if not c["reference"]["from_pretrained"]["ok"]]
    assert len(refused) >= 8 and len(CASES) - len(refused) >= 8


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_pairjudge_overhead_as_the_reference(tmp_path: Path, case: dict[str, Any]) -> None:
    bundle = copy_bundle(case["bundle"], tmp_path)
    apply_ops(bundle, case["ops"])
    verdict = verify_bundle(bundle)
    expected = case["reference"]["from_pretrained"]
    if expected["ok"]:
        assert verdict.ok, verdict
    else:
        assert (verdict.code, verdict.message) == ("packer.overhead", expected["message"])
