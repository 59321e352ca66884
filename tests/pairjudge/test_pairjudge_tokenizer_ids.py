"""Token ids of special tokens that are not in the model's vocabulary: the tokenizers library numbers
``added_tokens`` it does not find in the vocabulary from the vocabulary's size on, in file order
(the ``id`` written in the file is not used); then tokens only ``tokenizer_config.json``'s
``added_tokens_decoder`` names, in ascending key order (the key is not used as the id either).

Each expected id was observed live on 2026-11-30: ``AutoTokenizer.from_pretrained`` of transformers
5.24.0 (tokenizers 0.23.3, the reference's environment) on exactly these two files, edited as the
case says, from the recorded ``full-run/merged`` bundle (WordLevel vocabulary ``[UNK]`` 0, ``[PAD]``
1, ``[EOS]`` 2, then five words; ``added_tokens`` ``[UNK]``, ``[PAD]``, ``[EOS]``)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pairjudge_support import BUNDLES

from contract.pairjudge.tokenizer import Tokenizer, TokenizerProblem, read_tokenizer

Edit = Callable[[dict[str, Any], dict[str, Any]], None]


def _drop(*names: str) -> Edit:
    def edit(document: dict[str, Any], config: dict[str, Any]) -> None:
        for name in names:
            del document["model"]["vocab"][name]

    return edit


def _new_token_first(document: dict[str, Any], config: dict[str, Any]) -> None:
    del document["model"]["vocab"]["[PAD]"]
    document["added_tokens"].insert(0, {"id": 9, "content": "[NEW]", "single_word": False, "lstrip": False,
                                        "rstrip": False, "normalized": False, "special": True})


def _unigram(document: dict[str, Any], config: dict[str, Any]) -> None:
    document["model"] = {"type": "Unigram", "unk_id": 0, "byte_fallback": False,
                         "vocab": [["[UNK]", 0.0], ["q", -1.0], ["a", -1.0], ["[EOS]", 0.0]]}


def _decoder_only(**keys: str) -> Edit:
    """The pad token becomes [PAD2], a token only ``tokenizer_config.json``'s ``added_tokens_decoder``
    names (under the given keys, with any other token there too)."""
    def edit(document: dict[str, Any], config: dict[str, Any]) -> None:
        config["pad_token"] = "[PAD2]"
        config["added_tokens_decoder"] = {
            key: {"content": content, "special": True, "lstrip": False, "rstrip": False, "normalized": False,
                  "single_word": False} for content, key in keys.items()}

    return edit


def _read(tmp_path: Path, edit: Edit) -> Any:
    source = BUNDLES / "full-run" / "merged"
    for name in ("tokenizer.json", "tokenizer_config.json"):
        shutil.copyfile(source / name, tmp_path / name)
    document = json.loads((tmp_path / "tokenizer.json").read_text())
    config = json.loads((tmp_path / "tokenizer_config.json").read_text())
    edit(document, config)
    (tmp_path / "tokenizer.json").write_text(json.dumps(document))
    (tmp_path / "tokenizer_config.json").write_text(json.dumps(config))
    return read_tokenizer(tmp_path)


@pytest.mark.parametrize(
    ("edit", "ids"),
    [
        # [PAD] numbered after the 7 remaining entries (it shares 7 with "bad": observed)
        (_drop("[PAD]"), {"pad_token_id": 7, "eos_token_id": 2, "unk_token_id": 0}),
        # [PAD] then [EOS], in added_tokens order, from 6 on
        (_drop("[PAD]", "[EOS]"), {"pad_token_id": 6, "eos_token_id": 7, "unk_token_id": 0}),
        # an added token before [PAD] that the vocabulary lacks takes 7 first
        (_new_token_first, {"pad_token_id": 8, "eos_token_id": 2, "unk_token_id": 0}),
        # a Unigram vocabulary (a list of [piece, score]): ids are positions; [PAD] comes after it
        (_unigram, {"pad_token_id": 4, "eos_token_id": 3, "unk_token_id": 0}),
        # a token only added_tokens_decoder names is appended after the 8 ids: its key is not its id
        (_decoder_only(**{"[PAD2]": "5"}), {"pad_token_id": 8, "eos_token_id": 2, "unk_token_id": 0}),
        # several are appended in ascending key order (numeric: "5" before "100"), whatever the file order
        (_decoder_only(**{"[PAD2]": "100", "[X1]": "5"}), {"pad_token_id": 9, "eos_token_id": 2, "unk_token_id": 0}),
        (_decoder_only(**{"[X1]": "5", "[PAD2]": "3"}), {"pad_token_id": 8, "eos_token_id": 2, "unk_token_id": 0}),
    ],
    ids=["no-pad-in-vocab", "no-pad-no-eos", "new-token-first", "unigram", "decoder-only", "decoder-key-order",
         "decoder-file-order"],
)
def test_pairjudge_added_token_ids_as_observed(tmp_path: Path, edit: Edit, ids: dict[str, int]) -> None:
    found = _read(tmp_path, edit)
    assert isinstance(found, Tokenizer), found
    assert {key: found.attributes[key] for key in ids} == ids
    assert found.attributes["bos_token_id"] is None


def _entry(content: str) -> dict[str, Any]:
    return {"content": content, "special": True, "lstrip": False, "rstrip": False, "normalized": False,
            "single_word": False}


def _decoder(entries: Any) -> Edit:
    """The pad token becomes [PAD2]; ``added_tokens_decoder`` is ``entries`` exactly as given."""
    def edit(document: dict[str, Any], config: dict[str, Any]) -> None:
        config["pad_token"] = "[PAD2]"
        config["added_tokens_decoder"] = entries

    return edit


# Observed live on 2026-12-02 the same way (AutoTokenizer.from_pretrained, transformers 5.24.0, tokenizers
# 0.23.3): the decoder's keys are read with Python's int(), a later key of the same number replaces an earlier
# one, a token met before (in the vocabulary, in added_tokens, earlier in the decoder) is not appended again.
@pytest.mark.parametrize(("entries", "pad_id"), [
    ({"5": _entry("[X1]"), "6": _entry("[X1]"), "7": _entry("[PAD2]")}, 9),  # [X1] once, at 8
    ({"3": _entry("good"), "5": _entry("[PAD2]")}, 8),  # a vocabulary word keeps its id
    ({"1": _entry("[PAD]"), "5": _entry("[PAD2]")}, 8),  # an added token is not appended twice
    ({"05": _entry("[X1]"), "5": _entry("[PAD2]")}, 8),  # "5" replaces "05"
    ({"\u0665": _entry("[X1]"), "5": _entry("[PAD2]")}, 8),  # ARABIC-INDIC DIGIT FIVE is int 5
    ({" 5": _entry("[X1]"), "4": _entry("[PAD2]")}, 8),
    ({"9": _entry("[X1]"), "-1": _entry("[PAD2]")}, 8),  # -1 sorts first
    ({"1_0": _entry("[X1]"), "+9": _entry("[PAD2]")}, 8),
    ({"4": {"special": True}, "5": _entry("[PAD2]")}, 8),  # an entry without content adds nothing
    ({"5": {**_entry("[PAD2]"), "bogus": 1}}, 8),  # an unknown field is ignored
], ids=["same-content-twice", "vocabulary-word", "added-token", "zero-padded-replaced",
        "unicode-digit", "space", "negative", "underscore-plus", "no-content", "unknown-field"])
def test_pairjudge_decoder_numbers_as_observed(tmp_path: Path, entries: dict[str, Any], pad_id: int) -> None:
    found = _read(tmp_path, _decoder(entries))
    assert isinstance(found, Tokenizer), found
    assert (found.attributes["pad_token"], found.attributes["pad_token_id"]) == ("[PAD2]", pad_id)


def test_pairjudge_an_appended_added_token_named_again_by_the_decoder_is_not_appended_twice(tmp_path: Path) -> None:
    # the rule observed above ("a token met before ... in added_tokens ... is not appended again") for an added
    # token the vocabulary lacks: [EOS] dropped from the vocabulary takes 7 from added_tokens; the decoder names
    # it again before [PAD2], which then takes 8 (were [EOS] appended twice, [PAD2] would take 9)
    def edit(document: dict[str, Any], config: dict[str, Any]) -> None:
        _drop("[EOS]")(document, config)
        _decoder({"2": _entry("[EOS]"), "5": _entry("[PAD2]")})(document, config)

    found = _read(tmp_path, edit)
    assert isinstance(found, Tokenizer), found
    assert {key: found.attributes[key] for key in ("eos_token_id", "pad_token", "pad_token_id")} == {
        "eos_token_id": 7, "pad_token": "[PAD2]", "pad_token_id": 8}


DECODER = "tokenizer_config.json added_tokens_decoder"


@pytest.mark.parametrize(("entries", "problem"), [
    ({"x": _entry("[X1]"), "5": _entry("[PAD2]")},
     f"{DECODER} has the key 'x', which Python's int() does not read; the reference's tokenizer loading fails on "
     "it (ValueError)"),
    ({"5.0": _entry("[PAD2]")},
     f"{DECODER} has the key '5.0', which Python's int() does not read; the reference's tokenizer loading fails on "
     "it (ValueError)"),
    ({"4": None, "5": _entry("[PAD2]")},
     f"{DECODER}['4'] is not an object with a string content; the reference's tokenizer loading fails on it "
     "(TypeError)"),
    ({"4": "[X1]", "5": _entry("[PAD2]")},
     f"{DECODER}['4'] is not an object with a string content; the reference's tokenizer loading fails on it "
     "(TypeError)"),
    ({"4": {**_entry("[X1]"), "content": 7}, "5": _entry("[PAD2]")},
     f"{DECODER}['4'] is not an object with a string content; the reference's tokenizer loading fails on it "
     "(TypeError)"),
    ([_entry("[PAD2]")], f"{DECODER} is an array, not an object of numbered tokens; the reference's tokenizer "
                         "loading fails on it"),
    (None, f"{DECODER} is null, not an object of numbered tokens; the reference's tokenizer loading fails on it"),
    (3, f"{DECODER} is a number, not an object of numbered tokens; the reference's tokenizer loading fails on it"),
], ids=["key-x", "key-float", "entry-null", "entry-string", "content-number", "array", "null", "number"])
def test_pairjudge_decoder_the_reference_fails_on_is_refused(tmp_path: Path, entries: Any, problem: str) -> None:
    found = _read(tmp_path, _decoder(entries))
    assert found == TokenizerProblem(problem)
