"""Spec §5 M4 (/work/shared/spec/pairjudge.md): a full bundle whose model loads (its head's rows match
its config) but with other than three classes is refused with ``judge must have exactly three trained
classes``; the class count comes from ``id2label``, or from ``num_labels`` without it. And an
``id2label`` Transformers cannot read is refused when the config is read, before any class is counted."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pairjudge_support import verify_recipe

LABELS = ["tie", "a_wins", "b_wins", "extra"]


def _classes(count: int) -> list[dict[str, Any]]:
    ids = {str(i): label for i, label in enumerate(LABELS[:count])}
    return [{"op": "set", "file": "config.json", "path": "/id2label", "value": ids},
            {"op": "set", "file": "config.json", "path": "/label2id", "value": {v: int(k) for k, v in ids.items()}},
            {"op": "edit_tensors", "file": "model.safetensors", "edits": [{"name": "score.weight", "shape": [count, 16]}]}]


@pytest.mark.parametrize(("count", "expected"), [
    (2, (False, "model.classes", "judge must have exactly three trained classes")),
    (3, (True, None, None)),
    (4, (False, "model.classes", "judge must have exactly three trained classes")),
])
def test_a_judge_with_other_than_three_classes_is_refused(tmp_path: Path, count: int, expected: tuple[Any, ...]) -> None:
    verdict = verify_recipe(tmp_path, _classes(count), layer="full")
    assert (verdict.ok, verdict.code, verdict.message) == expected


def test_without_id2label_num_labels_counts_the_classes(tmp_path: Path) -> None:
    ops = [{"op": "delete", "file": "config.json", "path": "/id2label"},
           {"op": "set", "file": "config.json", "path": "/num_labels", "value": 2},
           {"op": "edit_tensors", "file": "model.safetensors", "edits": [{"name": "score.weight", "shape": [2, 16]}]}]
    verdict = verify_recipe(tmp_path, ops, layer="full")
    assert (verdict.code, verdict.message) == ("model.classes", "judge must have exactly three trained classes")


def test_an_id2label_key_that_is_no_integer_is_refused_with_the_config(tmp_path: Path) -> None:
    ops = [{"op": "set", "file": "config.json", "path": "/id2label", "value": {"a": "tie", "1": "a_wins", "2": "b_wins"}}]
    verdict = verify_recipe(tmp_path, ops, layer="full")
    assert (verdict.code, verdict.message) == (
        "config.architecture",
        "the full bundle's config.json cannot be used: config.json id2label has the key 'a', which is not an integer")


def test_a_legacy_bundle_has_nothing_for_the_manifest_layer(tmp_path: Path) -> None:
    from pairjudge_support import BUNDLES, LABEL_ORDER

    from contract.pairjudge import verify_bundle

    verdict = verify_bundle(BUNDLES / "base", layer="manifest", allow_legacy=True, label_order=LABEL_ORDER,
                            packer_config={})
    assert (verdict.ok, verdict.code, verdict.stage, verdict.message) == (
        False, "manifest.legacy", "manifest",
        "legacy bundle (no pairjudge.json): the manifest layer has nothing to verify; use --layer full")
