"""The console helper (issue 10 item 10) and the conformance report's cut of long texts (item 14)."""

from __future__ import annotations

import json

import pytest

from contract.conformance.corpus import Case, Expected
from contract.conformance.report import as_json, as_text
from contract.conformance.runner import Implementation, Result, Run
from contract.core.consoletext import CUT_AT, console_json, console_text, cut


@pytest.mark.parametrize(("raw", "shown"), [
    ("\x1b[2K", r"\x1b[2K"), ("a\rb", r"a\rb"), ("a\nb", r"a\nb"), ("\t", r"\t"), ("\x00", r"\x00"),
    ("\x1f", r"\x1f"), ("\x7f", r"\x7f"), ("\x80", r"\x80"), ("\x9b", r"\x9b"), ("\x9f", r"\x9f"),
    ("\u061c", r"\u061c"), ("\u200e", r"\u200e"), ("\u200f", r"\u200f"), ("\u2028", r"\u2028"),
    ("\u2029", r"\u2029"), ("\u202a", r"\u202a"), ("\u202e", r"\u202e"), ("\u2066", r"\u2066"),
    ("\u2069", r"\u2069"), ("\udcff", r"\udcff"), ("\ud800", r"\ud800"),
])
def test_each_unsafe_character_is_shown_as_its_escape(raw: str, shown: str) -> None:
    assert console_text(f"<{raw}>") == f"<{shown}>"


@pytest.mark.parametrize("text", [" ", "~", "\xa0", "é", "\u200d", "\u2027", "\u202f", "\u2065", "\u206a",
                                  "\ue000", "\U0001f600", "back\\slash \\x1b"])
def test_printable_text_is_left_as_it_is(text: str) -> None:
    assert console_text(text) == text


def test_console_json_is_the_same_value_without_raw_controls() -> None:
    value = {"id": "m\x1b\x85\u2028\u202e\udcffé", "n": 1}
    text = console_json(value, indent=2)
    assert text == '{\n  "id": "m\\u001b\\u0085\\u2028\\u202e\\udcffé",\n  "n": 1\n}'
    assert json.loads(text) == value


def test_cut_keeps_a_short_text_and_shows_the_length_of_a_long_one() -> None:
    assert CUT_AT == 200
    assert cut("x" * 200) == "x" * 200
    assert cut("x" * 201) == "x" * 200 + "... (201 characters)"
    assert cut("\x1b" * 300, 2) == r"\x1b\x1b... (300 characters)"


def _run(message: str, expected: str) -> Run:
    case = Case("manifest/long", "manifest", {}, Expected({"verdict": "refused", "message": expected}), "test")
    result = Result("js", case, "disagree", {"id": case.id, "verdict": "refused", "message": message},
                    ("verdict", "message"))
    return Run([Implementation("js", "live")], ["manifest"], [result], [], unlisted=[result])


def test_the_runner_report_cuts_a_900_kb_message_and_says_how_long_it_was() -> None:
    huge = "[" * 900_000
    text = as_text(_run(huge, "short\x1b"))
    assert len(text) < 2_000
    assert f'      got      verdict="refused", message="{"[" * 200}"... (900000 characters)' in text
    assert '      expected verdict="refused", message="short\\u001b"' in text
    assert as_json(_run(huge, "x"))["unlisted"][0]["got"]["message"] == huge  # machines get the whole text


def test_an_error_answer_is_cut_and_escaped_in_the_report() -> None:
    case = Case("manifest/err", "manifest", {}, Expected({"verdict": "refused"}), "test")
    result = Result("js", case, "disagree", {"id": case.id, "status": "error", "message": "\x1b[2K" + "y" * 500},
                    ())
    text = as_text(Run([Implementation("js", "live")], ["manifest"], [result], [], unlisted=[result]))
    assert "      got      error: \\x1b[2K" + "y" * 196 + "... (504 characters)" in text
