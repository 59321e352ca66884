"""``packer.overhead`` where the kit cannot count final_instruction's tokens exactly: the bounds it can
give, and the message in full (schema/pairjudge-check-table.json, ``detail.overhead.undecided``).

The recorded full bundle's tokenizer is WordLevel over Whitespace, which the kit counts exactly
("judge q": 2 tokens, plus BOS; EOS has no id there). Another pre-tokenizer (BertPreTokenizer here) leaves it a range from 0 to
twice the UTF-8 bytes plus 2 (16 for the 7 bytes of "judge q"); a normalizer leaves no upper bound.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pairjudge_support import verify_recipe

UNDECIDED = ("max_length={} against the fixed overhead is undecided: the kit cannot count the tokens of "
             "final_instruction for this tokenizer exactly (between {} and {})")
BERT = {"op": "set", "file": "tokenizer.json", "path": "/pre_tokenizer", "value": {"type": "BertPreTokenizer"}}
LOWERCASE = {"op": "set", "file": "tokenizer.json", "path": "/normalizer", "value": {"type": "Lowercase"}}


def _overhead(tmp_path: Path, max_length: int, *ops: dict[str, Any]) -> tuple[str | None, str | None]:
    verdict = verify_recipe(tmp_path, [*ops, {"op": "set", "path": "/packer/max_length", "value": max_length}])
    return verdict.code, verdict.message


@pytest.mark.parametrize("max_length", [5, 17])
def test_a_range_that_reaches_max_length_is_undecided(tmp_path: Path, max_length: int) -> None:
    assert _overhead(tmp_path, max_length, BERT) == ("packer.overhead", UNDECIDED.format(max_length, 1, 17))


def test_a_max_length_above_the_whole_range_passes(tmp_path: Path) -> None:
    assert _overhead(tmp_path, 18, BERT) == (None, None)


def test_without_an_upper_bound_the_range_ends_in_a_question_mark(tmp_path: Path) -> None:
    assert _overhead(tmp_path, 5, LOWERCASE) == ("packer.overhead", UNDECIDED.format(5, 1, "?"))
    assert _overhead(tmp_path / "big", 10_000, LOWERCASE) == ("packer.overhead", UNDECIDED.format(10_000, 1, "?"))


@pytest.mark.parametrize(("max_length", "expected"), [
    (3, ("packer.overhead", "max_length=3 cannot even fit the fixed overhead (special tokens + final instruction = "
                            "3 tokens)")),
    (4, (None, None)),
])
def test_an_exact_count_decides_at_its_boundary(tmp_path: Path, max_length: int,
                                                 expected: tuple[str | None, str | None]) -> None:
    assert _overhead(tmp_path, max_length) == expected
