"""``package build`` writes text files that end in exactly one newline, as the recorded ones do (issue #35,
newcomer item: ``manifest.json`` without a final newline; checked 2026-12-04: it already had one, through
``strictjson.dumps``; this keeps it so, for every role and with a model card of the caller's)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from contract.core.refusal import Refusal
from contract.model.builder import PackageSpec, build_package


@pytest.mark.parametrize("role", ["position-value", "chance-collapse", "move-prerank"])
def test_the_published_manifest_and_card_end_in_one_newline(tmp_path: Path, graphs: dict[str, Path],
                                                           role: str) -> None:
    spec = PackageSpec(model=graphs["value"], schema_id="kcp-13", role=role, engine_compatibility=">=0.12.0 <1.0.0",
                       model_id="m-1", provenance={"run": "abc"})
    assert not isinstance(build_package(spec, tmp_path / "pkg"), Refusal)
    manifest = (tmp_path / "pkg" / "manifest.json").read_bytes()
    assert manifest.endswith(b"}\n") and not manifest.endswith(b"\n\n")
    assert json.loads(manifest)["modelId"] == "m-1"
    card = (tmp_path / "pkg" / "model-card.md").read_bytes()
    assert card.endswith(b"\n") and not card.endswith(b"\n\n")

