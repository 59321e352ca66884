"""Strict JSON: what a malformed document is told, and which characters the depth scanner counts.

The syntax detail is Python's own JSON decoder's (its message, line and column): the expected texts are
built from ``json.JSONDecodeError`` here, an oracle independent of the kit.
"""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from contract.core.refusal import Refusal
from contract.core.strictjson import StrictJsonError, parse


def refused(data: str | bytes) -> Refusal:
    with pytest.raises(StrictJsonError) as caught:
        parse(data)
    return caught.value.refusal


@pytest.mark.parametrize("text", ['{"a": }', "[1, 2", '{"a" 1}', "nul", "[1,]", "X" * 1000],
                         ids=["no-value", "unclosed", "no-colon", "partial-literal", "trailing-comma", "not-json"])
def test_a_malformed_document_gets_the_decoders_own_reason(text: str) -> None:
    with pytest.raises(json.JSONDecodeError) as decoder:
        json.loads(text)
    reason = f"{decoder.value.msg} at line {decoder.value.lineno} column {decoder.value.colno}"
    assert refused(text) == Refusal(f"not valid JSON: {reason}", "json.syntax")
    assert refused(text.encode()) == Refusal(f"not valid JSON: {reason}", "json.syntax")


def test_only_brackets_and_braces_count_as_nesting() -> None:
    # 'X' is no JSON at all: it neither opens a level ("X" * 1000 above is a syntax error) nor closes one
    assert refused("[X" * 65) == Refusal("not valid JSON: nesting deeper than 64 levels at character 128",
                                         "json.tooDeep")
    assert refused("[" * 65) == Refusal("not valid JSON: nesting deeper than 64 levels at character 64", "json.tooDeep")
    assert refused("{" * 32 + "[" * 33) == Refusal("not valid JSON: nesting deeper than 64 levels at character 64",
                                                   "json.tooDeep")


def test_an_unknown_manifest_field_name_is_a_key_error_that_names_it() -> None:
    from contract.model.manifest_schema import manifest_fields

    with pytest.raises(KeyError) as caught:
        manifest_fields().field("nope")
    assert caught.value.args == ("manifest-fields.json defines no field 'nope'",)


@pytest.mark.parametrize("error", [ValueError("Exceeds the limit (4300 digits) for integer string conversion"),
                                   RecursionError("maximum recursion depth exceeded")])
def test_any_other_decoder_failure_is_a_syntax_refusal_not_a_traceback(monkeypatch: pytest.MonkeyPatch,
                                                                       error: Exception) -> None:
    # Fail closed: the checks before the decoder (digit counts, the depth scan) should leave nothing for
    # these to catch, but if Python's decoder raises anyway the caller gets a refusal
    from contract.core import strictjson

    def failing(*args: object, **kwargs: object) -> object:
        raise error

    # the module's own name for json, not the json module (the check table is read with json.loads too)
    monkeypatch.setattr(strictjson, "json", SimpleNamespace(loads=failing, JSONDecodeError=json.JSONDecodeError))
    assert refused("[1]") == Refusal(f"not valid JSON: {error}", "json.syntax")
