"""The caller's ``packer_config`` and ``label_order`` against a bundle's stored ones (spec §5,
/work/shared/spec/pairjudge.md: after R1-R11, ``packer override conflicts with the trained artifact`` when
the caller's packer differs from the stored one in any field, absent fields taking the defaults of §3,
then ``label_order conflicts with the artifact`` when the caller's order, validated first, differs).
Each field of the packer changed alone, each left out with a stored value that is and is not the default,
and the order as given, permuted and as a tuple; on the recorded full bundle (its packer is not the
default one: max_length 100, ratios [0.3, 0.35, 0.35], ...), manifest layer."""

from __future__ import annotations

from typing import Any

import pytest
from pairjudge_support import BUNDLES, LABEL_ORDER, original_packer

from contract.pairjudge import verify_bundle

BUNDLE = BUNDLES / "full-run/merged"
STORED: dict[str, Any] = original_packer("full-run/merged") or {}
PACKER = ("refused", "override.packer", "packer override conflicts with the trained artifact")
ORDER = ("refused", "override.label_order", "label_order conflicts with the artifact")
OK = ("ok", None, None)

# one valid value per field that differs from the stored one
CHANGED: dict[str, Any] = {
    "max_length": 101, "ratios": [0.3, 0.3, 0.4], "min_tail_budget": 1, "ellipsis": "cut.",
    "final_instruction": "judge r", "round_header": "\n## Round {round}:", "first_round_header": "# Round {round}:",
    "prompt_prefix": "\nPrompt:\n{text}", "response_a_prefix": "\nA:\n{text}", "response_b_prefix": "\nB:\n{text}",
    "add_bos": False, "add_eos": False, "packing_format": "competition_v1",
}
# the defaults of spec §3 for the fields the recorded bundle stores with their default value
DEFAULT_HERE = ("round_header", "first_round_header", "prompt_prefix", "response_a_prefix", "response_b_prefix",
                "add_bos", "add_eos", "packing_format")


def _outcome(**arguments: Any) -> tuple[Any, ...]:
    verdict = verify_bundle(BUNDLE, layer="manifest", **arguments)
    assert verdict.stage == (None if verdict.ok else "manifest")
    return ("ok" if verdict.ok else "refused"), verdict.code, verdict.message


def test_the_stored_packer_has_thirteen_fields_some_of_them_defaults() -> None:
    assert set(STORED) == set(CHANGED)
    assert (STORED["max_length"], STORED["ellipsis"], STORED["min_tail_budget"]) == (100, "cut", 0)
    assert {k: STORED[k] for k in DEFAULT_HERE} == {
        "round_header": "\n\n## Round {round}:", "first_round_header": "## Round {round}:",
        "prompt_prefix": "\n### Prompt:\n{text}", "response_a_prefix": "\n\n### Response A:\n{text}",
        "response_b_prefix": "\n\n### Response B:\n{text}", "add_bos": True, "add_eos": True,
        "packing_format": "balanced_v2"}


@pytest.mark.parametrize("field", list(CHANGED))
def test_a_packer_that_differs_in_one_field_conflicts(field: str) -> None:
    assert _outcome(packer_config={**STORED, field: CHANGED[field]}) == PACKER


@pytest.mark.parametrize("field", list(CHANGED))
def test_a_packer_field_left_out_takes_its_default(field: str) -> None:
    given = {k: v for k, v in STORED.items() if k != field}
    assert _outcome(packer_config=given) == (OK if field in DEFAULT_HERE else PACKER)


@pytest.mark.parametrize(("given", "expected"), [
    (None, OK), ("stored", OK), ({}, PACKER),
], ids=["none", "stored", "defaults"])
def test_a_packer_given_whole_or_not_at_all(given: Any, expected: tuple[Any, ...]) -> None:
    arguments = {} if given is None else {"packer_config": dict(STORED) if given == "stored" else given}
    assert _outcome(**arguments) == expected


@pytest.mark.parametrize(("order", "expected"), [
    (list(LABEL_ORDER), OK),
    (tuple(LABEL_ORDER), OK),
    (["a_wins", "b_wins", "tie"], ORDER),
    (["tie", "b_wins", "a_wins"], ORDER),
    (("b_wins", "a_wins", "tie"), ORDER),
], ids=["stored", "stored-tuple", "default", "swapped", "tuple-permuted"])
def test_a_label_order_given_by_the_caller_must_be_the_stored_one(order: Any, expected: tuple[Any, ...]) -> None:
    assert _outcome(label_order=order) == expected


def test_the_packer_conflict_is_reported_before_the_label_order_conflict() -> None:
    assert _outcome(packer_config={**STORED, "max_length": 101}, label_order=["a_wins", "b_wins", "tie"]) == PACKER
    assert _outcome(packer_config=dict(STORED), label_order=["a_wins", "b_wins", "tie"]) == ORDER
