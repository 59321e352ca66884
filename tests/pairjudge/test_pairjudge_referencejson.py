"""JSON as the reference reads it (``referencejson.load``): what Python's json accepts beyond JSON is
kept with a warning, what it refuses is refused, each in full (schema/pairjudge-check-table.json,
``detail.json.*`` and ``warning.json.*``); the two depth limits, the main one (900) and the side files' (64).
The oracle for what Python's json does is Python's json itself (``json.loads`` below)."""

from __future__ import annotations

import json
import math

import pytest

from contract.pairjudge.referencejson import MAX_DEPTH, SIDE_MAX_DEPTH, JsonDocument, JsonProblem, load

TOO_DEEP_SIDE = ("s.json is nested deeper than 64 levels (undecided: Transformers copies it recursively and fails "
                 "with RecursionError at a depth the kit cannot predict)")
TOO_DEEP = ("m.json is nested deeper than 900 levels (undecided: whether Python's json parser reaches that depth "
            "depends on the reference's call stack)")


def _nested(depth: int) -> bytes:
    return b"[" * depth + b"]" * depth


@pytest.mark.parametrize(("data", "name", "depth", "problem"), [
    (b"\xff", "x.json", MAX_DEPTH, "x.json is not UTF-8 text (byte 0)"),
    (b'{"a": "\xe9"}', "x.json", MAX_DEPTH, "x.json is not UTF-8 text (byte 7)"),
    ("\ufeff{}".encode(), "x.json", MAX_DEPTH, "x.json is not valid JSON: it starts with a byte-order mark"),
    (_nested(901), "m.json", MAX_DEPTH, TOO_DEEP),
    (_nested(65), "s.json", SIDE_MAX_DEPTH, TOO_DEEP_SIDE),
    (b'{\n "a": }', "x.json", MAX_DEPTH, "x.json is not valid JSON: Expecting value at line 2 column 7"),
])
def test_what_the_reference_cannot_read_is_refused_in_full(data: bytes, name: str, depth: int, problem: str) -> None:
    assert load(data, name, depth) == JsonProblem(problem)


def test_an_integer_python_will_not_convert_is_refused_with_pythons_reason() -> None:
    with pytest.raises(ValueError) as caught:
        json.loads("1" * 5000)
    assert load(b"1" * 5000, "x.json") == JsonProblem(f"x.json is not valid JSON: {caught.value}")


@pytest.mark.parametrize(("depth", "limit"), [(900, MAX_DEPTH), (64, SIDE_MAX_DEPTH)])
def test_a_document_at_the_depth_limit_is_read(depth: int, limit: int) -> None:
    assert load(_nested(depth), "x.json", limit) == JsonDocument(json.loads(_nested(depth)), ())


def test_nan_and_infinities_are_read_as_floats_with_one_warning_each() -> None:
    document = load(b'{"a": NaN, "b": -Infinity, "c": NaN, "d": [1e999, -1e999, 1.5]}', "x.json")
    assert isinstance(document, JsonDocument)
    assert math.isnan(document.value["a"]) and document.value["b"] == -math.inf
    assert document.value["d"] == [math.inf, -math.inf, 1.5]
    assert document.warnings == (
        "x.json contains NaN, which is not JSON; the reference reads it as a float",
        "x.json contains -Infinity, which is not JSON; the reference reads it as a float",
        "x.json contains the number 1e999, which only fits a float as infinity",
        "x.json contains the number -1e999, which only fits a float as infinity",
    )


def test_a_repeated_key_keeps_the_last_value_and_is_named() -> None:
    assert load(b'{"a": 1, "b": 0, "a": 2}', "x.json") == JsonDocument(
        {"a": 2, "b": 0},
        ("x.json repeats the key 'a'; the reference keeps the last value, other readers may keep the first",))
