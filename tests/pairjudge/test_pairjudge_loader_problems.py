"""``architecture.loader_problem``: the config keys that fail the loader whatever the architecture, or
that the kit cannot decide, each case failing one rule with its whole message (the ``detail.config.*``
texts of schema/pairjudge-check-table.json, written out; a value is shown as its first 60 characters),
and the writer's-schema comparison that runs out of stack (``warning.schema.tooDeep``)."""

from __future__ import annotations

from typing import Any

import pytest

from contract.pairjudge import manifest
from contract.pairjudge.architecture import loader_problem

UNDECIDED = ("(undecided: the kit knows the reference loads {known}; 'auto' dtype and attention or quantization "
             "options it does not check were observed to fail)")
FIELD = "which GPT2Config's field type does not allow"
LONG = "a" * 100
LONG_DICT = {"type": "linear", "factor": 2.0, "x": "y" * 80}
CUT_DICT = "{'type': 'linear', 'factor': 2.0, 'x': 'yyyyyyyyyyyyyyyyyyyy"  # repr's first 60 characters

CASES = [
    ({}, None),
    ({"use_return_dict": True}, "config.json sets use_return_dict, a read-only property of the config class: the "
                                "reference fails to set it (AttributeError)"),
    ({"attn_implementation": 3}, f"config.json attn_implementation is 3, {FIELD}"),
    ({"attn_implementation": {"": 3}}, f"config.json attn_implementation is 3, {FIELD}"),
    ({"attn_implementation": {"text": 3}}, None),  # a sub-config's, not the model's own
    ({"attn_implementation": "eager"}, None),
    ({"attn_implementation": "sdpa"}, None),
    ({"attn_implementation": "flash"}, "config.json attn_implementation is 'flash' "
                                       + UNDECIDED.format(known="eager, sdpa")),
    ({"rope_scaling": False}, None),
    ({"rope_scaling": {}}, None),
    ({"rope_scaling": "auto"}, f"config.json rope_scaling is 'auto', {FIELD}"),
    ({"rope_scaling": LONG}, f"config.json rope_scaling is '{LONG[:59]}, {FIELD}"),
    ({"rope_scaling": LONG_DICT}, f"config.json rope_scaling is {CUT_DICT} " + UNDECIDED.format(known="none")),
    ({"quantization_config": None}, None),
    ({"quantization_config": LONG_DICT}, f"config.json quantization_config is {CUT_DICT} "
                                         + UNDECIDED.format(known="none")),
    ({"dtype": "float16"}, None),
    ({"dtype": "auto"}, "config.json dtype is 'auto' "
                        + UNDECIDED.format(known="float32, float16, bfloat16, float64, int8")),
    ({"dtype": None, "torch_dtype": "auto"}, "config.json torch_dtype is 'auto' "
                                             + UNDECIDED.format(known="float32, float16, bfloat16, float64, int8")),
    ({"dtype": "float32", "torch_dtype": "auto"}, None),  # torch_dtype counts only when dtype is null
    ({"dtype": [1] * 30}, "config.json dtype is " + repr([1] * 30)[:60]
                          + ": the reference fails reading a list as a dtype (IndexError)"),
    ({"dtype": {"a": 1}}, None),
]


@pytest.mark.parametrize(("config", "expected"), CASES, ids=[str(i) for i in range(len(CASES))])
def test_loader_problem_names_each_rule_with_its_message(config: dict[str, Any], expected: str | None) -> None:
    assert loader_problem(config) == expected


def test_a_schema_comparison_that_runs_out_of_stack_is_the_too_deep_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    # within MAX_SCHEMA_DEPTH, but the validator runs out of stack (how much stack its messages' reprs take
    # depends on the Python version: 3.11 and 3.12 count C frames differently), so the comparison is made to
    # raise RecursionError itself: one warning, never the exception
    value: Any = []
    for _ in range(manifest.MAX_SCHEMA_DEPTH - 4):
        value = [value]
    document = {"label_order": value}
    assert not manifest._deeper_than(document, manifest.MAX_SCHEMA_DEPTH)

    class OutOfStack:
        def iter_errors(self, instance: Any) -> Any:
            raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(manifest, "schema_validator", OutOfStack)
    warnings = manifest.schema_warnings(document)
    assert warnings == ["pairjudge.json is nested too deeply to compare with the writer's schema"]
