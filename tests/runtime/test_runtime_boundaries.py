"""Edges of the compatibility grammar, the manifest's number fields and the tensor contract (issue 16).

Each case was a surviving mutant: an off-by-one, a swapped branch or a dropped message that no test in
``tests/runtime`` noticed. Every assertion is on the whole outcome (verdict and full message).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from typing import Any

import pytest

from contract.core.refusal import Refusal
from contract.model.compatibility import Compatibility, Outcome, evaluate
from contract.model.manifest import read_manifest
from contract.model.tensors import check_session, runtime_message

RANGE = "a component does not fit in an Int"


@pytest.mark.parametrize("host", ["2147483648.0.0", "0.2147483648.0", "0.0.2147483648", "0.0.99999999999"])
def test_an_oversized_host_component_in_any_position_is_out_of_range(host: str) -> None:
    assert evaluate(">=0.0.0", host) == Compatibility(
        Outcome.INVALID_ENGINE_VERSION, f"invalid engine version: invalid semantic version '{host}'; {RANGE}")


@pytest.mark.parametrize("host", ["2147483647.0.0", "0.2147483647.0", "0.0.2147483647", "0.0.0002147483647"])
def test_the_largest_host_component_in_any_position_is_a_version(host: str) -> None:
    assert evaluate(">=0.0.0", host) == Compatibility(Outcome.SATISFIED, None)


@pytest.mark.parametrize("bound", ["2147483648.0.0", "0.2147483648.0", "0.0.2147483648"])
def test_an_oversized_constraint_component_in_any_position_is_invalid(bound: str) -> None:
    assert evaluate(f">={bound}", "0.1.0") == Compatibility(
        Outcome.INVALID_CONSTRAINT,
        f"invalid engineCompatibility '>={bound}'; expected space-separated comparators such as '>=0.12.0 <1.0.0'")


@pytest.mark.parametrize("host", ["0.1", "0.1.0\n", " 0.1.0", "v0.1.0", "0.1.0-rc1", "\u0660.1.0"])
def test_a_host_that_is_not_major_minor_patch_is_a_syntax_error(host: str) -> None:
    assert evaluate(">=0.0.0", host) == Compatibility(
        Outcome.INVALID_ENGINE_VERSION,
        f"invalid engine version: invalid semantic version '{host}'; expected MAJOR.MINOR.PATCH")


@pytest.mark.parametrize("blank", ["", " ", "\x00", "\x1f", "\x20\t\n", "\x20" * 5])
def test_characters_up_to_u0020_are_blank(blank: str) -> None:
    assert evaluate(blank, "0.1.0") == Compatibility(Outcome.BLANK, "engineCompatibility must not be blank")


@pytest.mark.parametrize("text", ["!", "\x21", "\x7f", "\xa0", "\u3000"])
def test_the_first_character_above_u0020_is_not_blank(text: str) -> None:
    assert evaluate(text, "0.1.0") == Compatibility(
        Outcome.INVALID_CONSTRAINT,
        f"invalid engineCompatibility '{text}'; expected space-separated comparators such as '>=0.12.0 <1.0.0'")


@pytest.mark.parametrize(("constraint", "host", "ok"), [
    ("=0.1.0", "0.1.0", True), ("=0.1.0", "0.1.1", False), ("0.1.0", "0.1.0", True),
    (">0.1.0", "0.1.0", False), (">0.1.0", "0.1.1", True), (">=0.1.0", "0.0.9", False),
    ("<0.1.0", "0.1.0", False), ("<0.1.0", "0.0.9", True), ("<=0.1.0", "0.1.0", True),
    ("<=0.1.0", "0.1.1", False), (">=0.1.0 <0.2.0", "0.2.0", False), (">=0.1.0 <0.2.0", "0.1.5", True),
])
def test_each_operator_at_its_bound(constraint: str, host: str, ok: bool) -> None:
    expected = (Compatibility(Outcome.SATISFIED, None) if ok else
                Compatibility(Outcome.EXCLUDED,
                              f"engineCompatibility '{constraint}' does not include engine version '{host}'"))
    assert evaluate(constraint, host) == expected


def test_a_verdict_cannot_be_changed_after_the_fact() -> None:
    verdict = evaluate(">=0.1.0", "0.1.0")
    with pytest.raises(dataclasses.FrozenInstanceError):
        verdict.outcome = Outcome.EXCLUDED  # type: ignore[misc]
    assert verdict.ok and not evaluate(">=0.2.0", "0.1.0").ok


# --- manifest numbers and the engine-version argument ---------------------------------------------------


BASE = {"manifestVersion": "1.0.0", "modelId": "m", "modelSha256": "0" * 64, "featureSchema": "kcp-13",
        "engineCompatibility": ">=0.0.0"}
WHOLE = "field 'featureCount' must be a whole number"


@pytest.mark.parametrize(("count", "message"), [
    (2_147_483_647, "featureCount 2147483647 does not match featureSchema 'kcp-13' (13 columns)"),
    (2_147_483_648, WHOLE),
    (-2_147_483_648, "featureCount -2147483648 does not match featureSchema 'kcp-13' (13 columns)"),
    (-2_147_483_649, WHOLE),
    (2_147_483_647.0, "featureCount 2147483647 does not match featureSchema 'kcp-13' (13 columns)"),
    (2_147_483_648.0, WHOLE),
    (-2_147_483_648.0, "featureCount -2147483648 does not match featureSchema 'kcp-13' (13 columns)"),
    (-2_147_483_649.0, WHOLE),
    (12.5, WHOLE), (True, WHOLE), ("13", WHOLE),
])
def test_feature_count_at_the_32_bit_bounds(count: Any, message: str) -> None:
    assert read_manifest(json.dumps({**BASE, "featureCount": count}), "0.12.0").message == message


def test_a_whole_float_feature_count_is_the_same_width() -> None:
    result = read_manifest(json.dumps({**BASE, "featureCount": 13.0}), "0.12.0")
    assert result.message is None and result.manifest is not None and result.manifest.feature_count == 13


@pytest.mark.parametrize("version", [12, None, b"0.12.0", ["0.12.0"]])
def test_an_engine_version_that_is_not_text_is_refused_by_name(version: Any) -> None:
    result = read_manifest(json.dumps({**BASE, "featureCount": 13}), version)
    assert (result.manifest, result.refusal) == (None, Refusal("engine version must be a string",
                                                                    "manifest.engineVersion.notString"))


# --- the tensor contract on a session that misbehaves ---------------------------------------------------


class _Node:
    def __init__(self, name: str, type_: str = "tensor(float)", shape: Sequence[object] = ("batch", 13)) -> None:
        self.name, self.type, self.shape = name, type_, list(shape)


class _Session:
    def __init__(self, inputs: Exception | list[_Node], outputs: Exception | list[_Node]) -> None:
        self._inputs, self._outputs = inputs, outputs

    def get_inputs(self) -> list[_Node]:
        if isinstance(self._inputs, Exception):
            raise self._inputs
        return self._inputs

    def get_outputs(self) -> list[_Node]:
        if isinstance(self._outputs, Exception):
            raise self._outputs
        return self._outputs


def _manifest() -> Any:
    manifest = read_manifest(json.dumps({**BASE, "featureCount": 13}), "0.12.0").manifest
    assert manifest is not None
    return manifest


GOOD_OUT = [_Node("output", shape=("batch", 1))]


@pytest.mark.parametrize(("inputs", "outputs", "message"), [
    (RuntimeError("graph metadata is gone"), GOOD_OUT, "cannot read the ONNX graph: graph metadata is gone"),
    ([_Node("input")], OSError("outputs vanished"), "cannot read the ONNX graph: outputs vanished"),
])
def test_a_session_whose_metadata_cannot_be_read_is_refused_not_served(inputs: Any, outputs: Any,
                                                                       message: str) -> None:
    assert check_session(_Session(inputs, outputs), _manifest()) == Refusal(message, "tensor.graph.unreadable")


def test_a_healthy_session_is_served() -> None:
    assert check_session(_Session([_Node("input")], GOOD_OUT), _manifest()) is None


@pytest.mark.parametrize(("inputs", "outputs", "message"), [
    ([], GOOD_OUT, "ONNX model must expose exactly one input named 'input'; found []"),
    ([_Node("b"), _Node("a")], GOOD_OUT, "ONNX model must expose exactly one input named 'input'; found [a, b]"),
    ([_Node("input")], [], "ONNX model must expose exactly one output named 'output'; found []"),
    ([_Node("input", "tensor(double)")], GOOD_OUT, "input 'input' must have FLOAT dtype"),
    ([_Node("input", "seq(tensor(float))")], GOOD_OUT, "input 'input' must be a tensor; got seq(tensor(float))"),
    ([_Node("input", shape=(1, 13))], GOOD_OUT,
     "input 'input' must have shape [batch,13] with a dynamic batch dimension; got [1,13]"),
    ([_Node("input", shape=(-1, 13))], [_Node("output", shape=(None, 2))],
     "output 'output' must have shape [batch,1] with a dynamic batch dimension; got [batch,2]"),
    ([_Node("input", shape=("n", 13, 1))], GOOD_OUT,
     "input 'input' must have shape [batch,13] with a dynamic batch dimension; got [batch,13,1]"),
    ([_Node("input")], [_Node("output", "tensor(int64)", ("batch", 1))], "output 'output' must have FLOAT dtype"),
])
def test_each_tensor_refusal_in_full(inputs: list[_Node], outputs: list[_Node], message: str) -> None:
    refused = check_session(_Session(inputs, outputs), _manifest())
    assert refused is not None and refused.message == message
    # The code names the check whose message this is (schema/check-table.json, spec §5.1 order).
    kind = "input" if message.startswith(("input", "ONNX model must expose exactly one input")) else "output"
    check = ("names" if message.startswith("ONNX") else "notTensor" if "must be a tensor" in message
             else "dtype" if "FLOAT dtype" in message else "shape")
    assert refused.code == f"tensor.{kind}.{check}"


@pytest.mark.parametrize(("error", "text"), [
    (RuntimeError("first line\nsecond line"), "first line"),
    (RuntimeError("  padded  \n"), "padded"),
    (RuntimeError(""), "RuntimeError"),
    (ValueError("   "), "ValueError"),
    (KeyError(), "KeyError"),
])
def test_runtime_message_is_the_first_line_or_the_exception_type(error: BaseException, text: str) -> None:
    assert runtime_message(error) == text
