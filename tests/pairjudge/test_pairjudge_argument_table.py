"""The caller's arguments of ``verify_bundle``, one check failed at a time (the check table's
``arguments`` family, then its ``packer`` family applied to a given ``packer_config``; spec section 7
for legacy loading; docs/pairjudge.md for the 80-character cut of a wrong layer). Every refusal is
stage ``arguments`` with the table's text in full, before any file of the bundle is read."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pairjudge_support import BUNDLES, verify_recipe

from contract.pairjudge import verify_bundle

MERGED = BUNDLES / "full-run" / "merged"
ORDER = ["a_wins", "b_wins", "tie"]
LEGACY = "legacy loading requires explicit packer_config and label_order"


def _refusal(**kwargs: Any) -> tuple[bool, str | None, str | None, str | None]:
    verdict = verify_bundle(MERGED, **kwargs)
    return verdict.ok, verdict.stage, verdict.code, verdict.message


@pytest.mark.parametrize(("label_order", "packer_config"), [
    (None, None),
    (ORDER, None),
    (None, {}),
    (None, {"max_length": 512}),
], ids=["neither", "order-only", "empty-packer-only", "packer-only"])
def test_legacy_loading_without_both_the_order_and_the_packer_is_refused(label_order: Any,
                                                                           packer_config: Any) -> None:
    assert _refusal(allow_legacy=True, label_order=label_order, packer_config=packer_config) == (
        False, "arguments", "arguments.legacy", LEGACY)


@pytest.mark.parametrize(("label_order", "packer_config"), [(ORDER, None), (None, {})])
def test_one_of_the_two_without_legacy_loading_is_no_arguments_refusal(label_order: Any,
                                                                       packer_config: Any) -> None:
    verdict = verify_bundle(MERGED, label_order=label_order, packer_config=packer_config)
    assert verdict.stage != "arguments", verdict


def test_legacy_loading_with_both_passes_the_arguments() -> None:
    # the bundle has a manifest, so it still wins (spec section 7): the packer given must equal the stored one
    verdict = verify_bundle(MERGED, allow_legacy=True, label_order=ORDER, packer_config={})
    assert verdict.stage != "arguments", verdict


@pytest.mark.parametrize(("layer", "shown"), [
    ("x" * 78, "'" + "x" * 78 + "'"),  # repr of 80 characters: whole
    ("x" * 79, "'" + "x" * 79),        # repr of 81: its first 80
    ("y" * 200, "'" + "y" * 79),
    (["full"] * 20, "[" + ", ".join(["'full'"] * 20)[:79]),
])
def test_a_wrong_layer_is_shown_as_its_repr_cut_to_80_characters(layer: Any, shown: str) -> None:
    assert len(shown) == min(80, len(repr(layer)))
    assert _refusal(layer=layer) == (False, "arguments", "arguments.layer",
                                     f"layer must be 'manifest' or 'full', not {shown}")


@pytest.mark.parametrize(("packer_config", "message"), [
    ({"max_length": 0}, "max_length must be a positive integer"),
    ({"max_length": True}, "max_length must be a positive integer"),
    ({"min_tail_budget": -1}, "min_tail_budget must be a non-negative integer"),
    ({"add_bos": "yes"}, "add_bos must be a boolean"),
    ({"add_eos": 1}, "add_eos must be a boolean"),
    ({"ellipsis": 3}, "ellipsis must be a string"),
    ({"round_header": None}, "round_header must be a string"),
    ({"ratios": [0.5, 0.5]}, "ratios must have 3 entries, got 2"),
    ({"packing_format": "balanced_v3"}, "packing_format must be balanced_v2 or competition_v1"),
    ({"prompt_prefix": "no placeholder"}, "prompt_prefix must contain exactly one {text} placeholder"),
])
def test_a_given_packer_is_checked_as_the_reference_builds_it_before_the_bundle_is_read(
        tmp_path: Path, packer_config: dict[str, Any], message: str) -> None:
    missing = tmp_path / "no-such-bundle"  # nothing is read: the refusal comes from the argument alone
    verdict = verify_bundle(missing, packer_config=packer_config)
    assert (verdict.ok, verdict.stage, verdict.message) == (False, "arguments", message)
    assert verdict.code is not None and verdict.code.startswith("packer.")


def test_an_adapters_own_side_files_are_the_ones_warned_about_when_unlisted(tmp_path: Path) -> None:
    verdict = verify_recipe(tmp_path, [{"op": "delete", "path": "/files/adapter_config.json"},
                                       {"op": "delete", "path": "/files/base~1config.json"}],
                            name="lora-run/adapter")
    assert verdict.ok, verdict
    unlisted = [w for w in verdict.warnings if "is loaded but not listed" in w]
    assert unlisted == [
        f"{name} is loaded but not listed in pairjudge.json files, so its digest is not checked (the reference "
        "accepts this)" for name in ("adapter_config.json", "base/config.json")]
