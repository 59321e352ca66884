"""No JSON error message says a word twice (issue #35, newcomer item: "at at" in a JSON error). Python's json
module words two syntax errors so that they end in "at" ("Unterminated string starting at", "Invalid control
character at"), and the kit appended " at line L column C" to them. A sweep over malformed documents through
every reader of JSON text the kit has: the strict reader (both paths) and pairjudge's reference-like reader."""

from __future__ import annotations

import re

import pytest

from contract.core.strictjson import StrictJsonError, parse, parse_fast
from contract.pairjudge.referencejson import JsonProblem, load

MALFORMED = ['', ' ', '{', '}', '[', ']', '{"a":}', '{"a" 1}', '{"a":1,}', '[1,]', '"abc', '{"a": "b', '"\\x"',
             '"\\u12"', 'tru', 'nul', '01', '1.', '1e', '-', '{"a":1}x', '{"a":1 "b":2}', '[1 2]', '{1:2}',
             '"\x01"', '["a\tb"]', '{"a":[1,2,{"b":}]}', "{'a':1}", '{"a":1}\n{"b":2}', 'at', '"at', '{"at":at}']
DOUBLED = re.compile(r"\b(\w+) \1\b", re.IGNORECASE)


def _messages(text: str) -> list[str]:
    with pytest.raises(StrictJsonError) as strict:
        parse(text)
    with pytest.raises(StrictJsonError) as fast:
        parse_fast(text.encode("utf-8"))
    found = [str(strict.value), str(fast.value)]
    problem = load(text.encode("utf-8"), "pairjudge.json")
    assert isinstance(problem, JsonProblem), text
    return [*found, problem.problem]


@pytest.mark.parametrize("text", MALFORMED)
def test_no_json_error_message_says_a_word_twice(text: str) -> None:
    for message in _messages(text):
        assert DOUBLED.search(message) is None, message


def test_the_two_texts_that_said_at_twice() -> None:
    assert str(_refusal('"abc')) == "not valid JSON: Unterminated string starting at line 1 column 1"
    assert str(_refusal('"\x01"')) == "not valid JSON: Invalid control character at line 1 column 2"
    problem = load(b'{"a": "b', "pairjudge.json")
    assert isinstance(problem, JsonProblem)
    assert problem.problem.endswith("is not valid JSON: Unterminated string starting at line 1 column 7")


def _refusal(text: str) -> StrictJsonError:
    with pytest.raises(StrictJsonError) as caught:
        parse(text)
    return caught.value
