"""engineCompatibility: the recorded 62-case corpus, the exact §3.3 texts, and grammar/schema agreement."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from budget import share
from hypothesis import given, settings
from hypothesis import strategies as st
from testids import plain_id

from contract.model import compatibility as _compatibility
from contract.model.compatibility import Outcome, evaluate, parse_constraint
from contract.model.manifest_schema import manifest_versions

VERDICTS = Path(__file__).resolve().parents[2] / "golden" / "recorded" / "engine-compatibility-verdicts.json"
CASES = json.loads(VERDICTS.read_text(encoding="utf-8"))["cases"]


@pytest.mark.parametrize("case", CASES, ids=[f"'{plain_id(c['constraint'])}'@'{plain_id(c['engineVersion'])}'" for c in CASES])
def test_every_recorded_case_gets_the_engines_outcome(case: dict[str, str]) -> None:
    assert evaluate(case["constraint"], case["engineVersion"]).outcome == case["engine"]


def test_every_recorded_case_names_its_engine_outcome() -> None:
    assert CASES, "the recorded verdicts file holds no case"
    assert all(case["engine"] in {o.value for o in Outcome} for case in CASES)


# The engine's exact texts, spec/contract.md §3.3 (and the test-sourced message of §3.4).
@pytest.mark.parametrize(
    ("constraint", "version", "message"),
    [
        (">=0.12.0 <1.0.0", "0.11.0",
         "engineCompatibility '>=0.12.0 <1.0.0' does not include engine version '0.11.0'"),
        ("  ", "0.12.0", "engineCompatibility must not be blank"),
        (">=0.12", "0.12.0",
         "invalid engineCompatibility '>=0.12'; expected space-separated comparators such as '>=0.12.0 <1.0.0'"),
        (">=0.12.0 <1.0.0", "0.12.1-SNAPSHOT",
         "invalid engine version: invalid semantic version '0.12.1-SNAPSHOT'; expected MAJOR.MINOR.PATCH"),
        (">=0.12.0 <1.0.0", "99999999999.0.0",
         "invalid engine version: invalid semantic version '99999999999.0.0'; a component does not fit in an Int"),
    ],
)
def test_messages_are_the_engines_texts(constraint: str, version: str, message: str) -> None:
    assert evaluate(constraint, version).message == message


def test_satisfied_has_no_message() -> None:
    verdict = evaluate(">=0.12.0 <1.0.0", "0.12.0")
    assert verdict.ok and verdict.message is None and verdict.outcome is Outcome.SATISFIED


def test_every_comparator_is_parsed_before_any_is_evaluated() -> None:
    # The first comparator already excludes 0.12.0; the second is garbage: invalid, not excluded.
    assert evaluate("<0.1.0 bogus", "0.12.0").outcome is Outcome.INVALID_CONSTRAINT


def test_leading_zeros_parse_as_their_value() -> None:
    assert parse_constraint("0012.0.0") == [("=", (12, 0, 0))]


def _schema_pattern() -> re.Pattern[str]:
    spec = manifest_versions()["1.1.0"].document["properties"]["engineCompatibility"]
    return re.compile(spec["pattern"])


def _grammar_accepts(text: str) -> bool:
    return evaluate(text, "0.12.0").outcome in (Outcome.SATISFIED, Outcome.EXCLUDED)


@pytest.mark.parametrize("constraint", sorted({c["constraint"] for c in CASES}))
def test_schema_pattern_and_grammar_agree_on_every_corpus_constraint(constraint: str) -> None:
    assert (_schema_pattern().search(constraint) is not None) == _grammar_accepts(constraint)


_ALPHABET = st.sampled_from(
    [*"0123456789.<>=~^*|,-+vx ", "\t", "\n", "\x0b", "\x01", "\xa0", "\u0663", "\uff11", "\u2003"]
)


@settings(share(4))
@given(st.text(_ALPHABET, max_size=24))
def test_schema_pattern_and_grammar_agree_on_arbitrary_strings(text: str) -> None:
    assert (_schema_pattern().search(text) is not None) == _grammar_accepts(text)


@settings(share(2))
@given(
    st.lists(
        st.tuples(st.sampled_from(["", "=", ">", ">=", "<", "<="]),
                  st.tuples(*[st.integers(0, 2**31 + 5)] * 3)),
        min_size=1, max_size=4,
    ),
    st.tuples(*[st.integers(0, 2**31 + 5)] * 3),
)
def test_schema_pattern_and_grammar_agree_on_well_formed_comparators(
    comparators: list[tuple[str, tuple[int, int, int]]], host: tuple[int, int, int]
) -> None:
    text = " ".join(f"{op}{a}.{b}.{c}" for op, (a, b, c) in comparators)
    assert (_schema_pattern().search(text) is not None) == _grammar_accepts(text)
    in_range = all(max(v) <= 2**31 - 1 for _, v in comparators)
    assert _grammar_accepts(text) == in_range


@given(st.text(max_size=30), st.text(max_size=16))
@settings(share(3))
def test_evaluate_never_raises(constraint: str, version: str) -> None:
    verdict = evaluate(constraint, version)
    assert (verdict.message is None) == (verdict.outcome is Outcome.SATISFIED)


@pytest.mark.parametrize(("constraint", "version", "outcome"), [
    # Components longer than Python's 4300-digit int() limit: refused by value, never a ValueError.
    (">=" + "1" * 5000 + ".0.0", "0.12.0", Outcome.INVALID_CONSTRAINT),
    (">=0.12.0", "1" * 5000 + ".0.0", Outcome.INVALID_ENGINE_VERSION),
    # Leading zeros parse as their value at any length (§3.2), so these are small components.
    (">=" + "0" * 5000 + "1.0.0", "1.0.0", Outcome.SATISFIED),
    (">=0.12.0", "0" * 5000 + "1.0.0", Outcome.SATISFIED),
    ("<=" + "0" * 20 + "2147483648.0.0", "0.12.0", Outcome.INVALID_CONSTRAINT),
])
def test_components_of_any_length_get_an_outcome(constraint: str, version: str, outcome: Outcome) -> None:
    assert evaluate(constraint, version).outcome is outcome


# --- the fast path for canonical text (issue 35 start-up) ----------------------------------------------------

_OPS = st.sampled_from(["", "=", ">", ">=", "<", "<="])
_DIGITS = st.text(alphabet="0123456789", min_size=1, max_size=12)
_CANONICAL_TEXT = st.lists(st.tuples(_OPS, _DIGITS, _DIGITS, _DIGITS), min_size=1, max_size=4).map(
    lambda parts: " ".join(f"{op}{a}.{b}.{c}" for op, a, b, c in parts))


def _by_the_grammar(text: str) -> list[tuple[str, tuple[int, int, int]]] | str:
    """What the lark parser compiled from the grammar makes of ``text`` (the path every other text takes)."""
    from lark import LarkError, Token, Tree

    try:
        tree = _compatibility.parser().parse(text)
    except LarkError:
        return "unparsable"
    found: list[tuple[str, tuple[int, int, int]]] = []
    for node in (child for child in tree.children if isinstance(child, Tree)):
        op = next((str(c) for c in node.children if isinstance(c, Token) and c.type == "OP"), "=")
        version = next(c for c in node.children if isinstance(c, Tree))
        parts = [_compatibility._component(str(t)) for t in version.children]
        if None in parts:
            return "unparsable"
        found.append((op, (parts[0], parts[1], parts[2])))  # type: ignore[arg-type]
    return found


def _fast(text: str) -> list[tuple[str, tuple[int, int, int]]] | str:
    try:
        return _compatibility.parse_constraint(text)
    except _compatibility._Unparsable:
        return "unparsable"


@given(_CANONICAL_TEXT)
def test_canonical_text_read_without_the_parser_is_read_as_the_grammar_reads_it(text: str) -> None:
    assert _compatibility._CANONICAL.fullmatch(text) is not None
    assert _fast(text) == _by_the_grammar(text)


@given(st.text(alphabet="0123456789.<>= \t\x01v-+", max_size=24))
def test_any_text_gets_the_grammars_answer(text: str) -> None:
    if text.strip("".join(chr(c) for c in range(0x21))) == "":
        return  # blank: reported before parsing
    assert _fast(text) == _by_the_grammar(text)


def test_the_parser_free_reading_was_checked_against_this_grammar() -> None:
    """A changed grammar turns the canonical subset off (every text goes to the grammar) until the properties above
    pass on the new text and VERIFIED_GRAMMAR_SHA256 names it."""
    import hashlib

    grammar = (_compatibility.grammar_dir() / _compatibility.GRAMMAR_FILE).read_bytes()
    assert hashlib.sha256(grammar).hexdigest() == _compatibility.VERIFIED_GRAMMAR_SHA256
    assert _compatibility._subset_verified()
