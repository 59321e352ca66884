"""The tokenizer attributes the kit derives from the files (``read_tokenizer``), and each refusal of a
value the reference's tokenizer cannot take, in full (schema/pairjudge-check-table.json,
``detail.tokenizer.*``). The recorded full bundle: tokenizer_config.json with ``[PAD]`` (id 1), no
padding or truncation side, no model_max_length; tokenizer.json without a padding block."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pairjudge_support import apply_ops, copy_bundle

from contract.pairjudge.tokenizer import TokenizerProblem, read_tokenizer

CONFIG, TOKENIZER = "tokenizer_config.json", "tokenizer.json"
LEFT_PADDING = {"strategy": "BatchLongest", "direction": "Left", "pad_to_multiple_of": None, "pad_id": 1,
                "pad_type_id": 0, "pad_token": "[PAD]"}
UNSET = 1e30  # Transformers' VERY_LARGE_INTEGER, int(1e30): what model_max_length is when no file gives one


def _set(file: str, key: str, value: Any) -> dict[str, Any]:
    return {"op": "set", "file": file, "path": f"/{key}", "value": value}


def _read(tmp_path: Path, ops: list[dict[str, Any]]) -> Any:
    bundle = copy_bundle("full-run/merged", tmp_path)
    apply_ops(bundle, ops)
    return read_tokenizer(bundle)


@pytest.mark.parametrize(("ops", "expected"), [
    ([], ("right", "right", int(UNSET))),
    ([_set(CONFIG, "padding_side", "left")], ("left", "right", int(UNSET))),
    ([_set(TOKENIZER, "padding", LEFT_PADDING)], ("left", "right", int(UNSET))),
    ([_set(TOKENIZER, "padding", LEFT_PADDING), _set(CONFIG, "padding_side", "right")], ("right", "right", int(UNSET))),
    ([_set(CONFIG, "truncation_side", "left")], ("right", "left", int(UNSET))),
    ([_set(CONFIG, "model_max_length", 77)], ("right", "right", 77)),
    ([_set(CONFIG, "extra_special_tokens", ["[PAD]"])], ("right", "right", int(UNSET))),
], ids=["defaults", "config-side", "padding-direction", "config-over-padding", "truncation", "max-length",
        "extra-list"])
def test_the_sides_and_the_length_as_the_reference_reads_them(tmp_path: Path, ops: list[dict[str, Any]],
                                                                expected: tuple[str, str, int]) -> None:
    tokenizer = _read(tmp_path, ops)
    attributes = tokenizer.attributes
    assert (attributes["padding_side"], attributes["truncation_side"], attributes["model_max_length"]) == expected
    assert (attributes["pad_token"], attributes["pad_token_id"]) == ("[PAD]", 1)


CLASS_TAIL = ("(undecided: the kit knows the reference loads PreTrainedTokenizerFast and TokenizersBackend; "
              "GPT2Tokenizer was observed to bring its own default special tokens, an unknown name to fall back "
              "to the tokenizers backend)")


@pytest.mark.parametrize(("ops", "problem"), [
    ([_set(CONFIG, "padding_side", "middle")],
     "tokenizer_config.json padding_side is 'middle'; the reference's tokenizer accepts only 'left' or 'right'"),
    ([_set(CONFIG, "truncation_side", 1)],
     "tokenizer_config.json truncation_side is 1; the reference's tokenizer accepts only 'left' or 'right'"),
    ([_set(CONFIG, "extra_special_tokens", "x")],
     "tokenizer_config.json extra_special_tokens is 'x'; the reference needs a list of tokens or an object of "
     "named tokens (TypeError)"),
    ([_set(CONFIG, "tokenizer_class", "GPT2Tokenizer")], f"tokenizer_config.json tokenizer_class is 'GPT2Tokenizer' {CLASS_TAIL}"),
    ([{"op": "delete", "file": CONFIG, "path": "/tokenizer_class"}], f"tokenizer_config.json tokenizer_class is None {CLASS_TAIL}"),
    ([_set(CONFIG, "model_max_length", "5")],
     "tokenizer_config.json model_max_length is '5'; the reference compares it as a number"),
    ([_set(CONFIG, "pad_token", "[NOPE]")], "the tokenizer files name the pad token '[NOPE]' but give no id for it"),
    ([{"op": "remove_file", "file": TOKENIZER}],
     "no tokenizer.json: the reference's tokenizer (the tokenizers backend) is built from it"),
], ids=["padding-side", "truncation-side", "extra-tokens", "class", "no-class", "max-length", "no-id", "no-file"])
def test_a_value_the_reference_cannot_take_is_refused_in_full(tmp_path: Path, ops: list[dict[str, Any]],
                                                               problem: str) -> None:
    assert _read(tmp_path, ops) == TokenizerProblem(problem)
