"""The strict JSON reader at its edges (issue 16): every refusal with its full text, every limit both sides.

Each case here was a surviving mutant of ``contract.core.strictjson``: a change to the code that no test
in ``tests/runtime`` noticed.
"""

from __future__ import annotations

import json
import math

import pytest

from contract.core import strictjson
from contract.core.strictjson import StrictJsonError, dumps, parse


def refusal(data: bytes | str, **limits: int) -> str:
    with pytest.raises(StrictJsonError) as caught:
        parse(data, **limits)
    return str(caught.value)


# --- the depth scanner ------------------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    '"[[[["',                 # brackets inside a string are text
    '"{{{{"',
    '["\\"[[[["]',            # an escaped quote does not end the string
    '["\\\\", "x"]',          # an escaped backslash does not escape the closing quote
    '[["", ""]]',             # an empty string ends where it starts
    '{"a": "]]]]]]"}',        # closing brackets inside a string do not lower the depth either
])
def test_brackets_inside_strings_are_not_nesting(text: str) -> None:
    assert parse(text, max_depth=2) == json.loads(text)


@pytest.mark.parametrize(("text", "index"), [
    ('[[[1]]]', 2),
    ('["\\"", [[1]]]', 8),            # after an escaped quote the string ends and real nesting counts
    ('["\\\\", [[1]]]', 8),           # after an escaped backslash too
    ('["", [[1]]]', 6),               # after an empty string too
    ('{"]]]]": [[1]]}', 10),          # brackets in a key never lower the depth
    ('[[]] [[[1]]]', 7),              # depth returns to zero between values (then the JSON is refused)
])
def test_real_nesting_after_strings_is_counted(text: str, index: int) -> None:
    assert refusal(text, max_depth=2) == f"not valid JSON: nesting deeper than 2 levels at character {index}"


def test_the_depth_limit_is_inclusive_and_closing_brackets_count_down() -> None:
    assert parse("[[1]]", max_depth=2) == [[1]]
    assert parse("[[1],[2],[3]]", max_depth=2) == [[1], [2], [3]]
    assert parse("[" * 64 + "]" * 64) == parse("[" * 64 + "]" * 64, max_depth=strictjson.MAX_DEPTH)
    assert refusal("[" * 65 + "]" * 65) == "not valid JSON: nesting deeper than 64 levels at character 64"


# --- numbers -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("literal", ["1e999", "-1e999", "1.5e400", "1" + "0" * 400, "-" + "9" * 400])
def test_a_number_no_double_holds_is_refused_whole(literal: str) -> None:
    assert refusal(f"[{literal}]") == f"not valid JSON: number {literal} does not fit in a 64-bit float"


def test_the_largest_double_and_long_integers_that_fit_are_read() -> None:
    assert parse("1.7976931348623157e308") == 1.7976931348623157e308
    assert parse("1" + "0" * 300) == 10**300
    assert parse("[1.5, -2]") == [1.5, -2]


@pytest.mark.parametrize("name", ["NaN", "Infinity", "-Infinity"])
def test_non_finite_constants_are_refused(name: str) -> None:
    assert refusal(f"[{name}]") == f"not valid JSON: {name} is not a JSON number"


def test_dumps_refuses_nan_and_writes_the_canonical_text() -> None:
    with pytest.raises(ValueError, match=r"^Out of range float values are not JSON compliant"):
        dumps({"x": math.nan})
    assert dumps({"b": 1, "a": ["é"]}) == '{\n  "a": [\n    "é"\n  ],\n  "b": 1\n}\n'


# --- size --------------------------------------------------------------------------------------------


def test_a_document_of_exactly_max_bytes_is_read_and_one_more_is_refused() -> None:
    assert parse(b'"' + b"x" * 8 + b'"', max_bytes=10) == "x" * 8
    assert refusal(b'"' + b"x" * 9 + b'"', max_bytes=10) == "larger than 10 bytes (11 bytes)"


def test_text_input_is_held_to_the_same_limit_in_utf8_bytes() -> None:
    assert parse('"' + "é" * 4 + '"', max_bytes=10) == "é" * 4      # 10 bytes
    assert refusal('"' + "é" * 5 + '"', max_bytes=10) == "larger than 10 bytes"
    assert refusal('"' + "x" * strictjson.MAX_BYTES + '"') == f"larger than {strictjson.MAX_BYTES} bytes"


def test_a_lone_surrogate_in_text_input_is_counted_and_read_not_raised() -> None:
    assert parse('"\ud800"', max_bytes=5) == "\ud800"               # 3 bytes as surrogatepass writes it
    assert refusal('"\ud800\ud800"', max_bytes=5) == "larger than 5 bytes"


# --- bytes ----------------------------------------------------------------------------------------------


def test_a_byte_order_mark_is_refused() -> None:
    assert refusal(b"\xef\xbb\xbf{}") == "not valid JSON: starts with a UTF-8 byte-order mark"
    assert parse(b"{}") == {}


@pytest.mark.parametrize(("data", "byte"), [(b'"\xff"', 1), (b'["ok", "\xed\xa0\x80"]', 8), (b"\xc3", 0)])
def test_bytes_that_are_not_utf8_are_refused_with_the_offset(data: bytes, byte: int) -> None:
    assert refusal(data) == f"not valid JSON: not UTF-8 text (byte {byte})"


@pytest.mark.parametrize(("text", "message"), [
    ("", "not valid JSON: Expecting value at line 1 column 1"),
    ("{", "not valid JSON: Expecting property name enclosed in double quotes at line 1 column 2"),
    ("[1]\n[2]", "not valid JSON: Extra data at line 2 column 1"),
    ('{"a": 1, "a": 2}', "not valid JSON: duplicate key 'a'"),
])
def test_malformed_json_is_refused_with_where(text: str, message: str) -> None:
    assert refusal(text) == message
    assert refusal(text.encode()) == message
