"""``tokenizer.json`` as the tokenizers library reads it, and token counts for the packer's strings.

The reference builds its tokenizer from ``tokenizer.json`` (the tokenizers library, strict serde
JSON) and, when it constructs the judge's packer, tokenises ``ellipsis`` and ``final_instruction``.
:func:`tokenizer_json_problem` refuses what that library cannot read: JSON it does not accept
(``NaN``, ``Infinity``, a lone surrogate escape), an unknown top-level key, a ``version`` other
than ``"1.0"``, a model or pipeline component the kit does not know (said as undecided), a model
missing its required fields. :func:`token_count` gives the number of tokens a text encodes to
without special tokens, exactly for a ``WordLevel`` model behind a ``Whitespace`` or
``WhitespaceSplit`` pre-tokenizer with no normalizer (the recorded bundles), or as bounds for
other known models; it reports a text that cannot be encoded at all.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from contract.core.checktable import PAIRJUDGE_TABLE as TABLE

TOP_LEVEL = frozenset(
    {
        "version",
        "truncation",
        "padding",
        "added_tokens",
        "normalizer",
        "pre_tokenizer",
        "model",
        "post_processor",
        "decoder",
    }
)
VERSION = "1.0"
MODEL_FIELDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    # type: (required fields, allowed fields)
    "WordLevel": (frozenset({"vocab", "unk_token"}), frozenset({"type", "vocab", "unk_token"})),
    "BPE": (
        frozenset({"vocab", "merges"}),
        frozenset(
            {
                "type",
                "dropout",
                "unk_token",
                "continuing_subword_prefix",
                "end_of_word_suffix",
                "fuse_unk",
                "byte_fallback",
                "ignore_merges",
                "vocab",
                "merges",
            }
        ),
    ),
    "WordPiece": (
        frozenset({"vocab"}),
        frozenset({"type", "unk_token", "continuing_subword_prefix", "max_input_chars_per_word", "vocab"}),
    ),
    "Unigram": (frozenset({"vocab"}), frozenset({"type", "unk_id", "vocab", "byte_fallback"})),
}
_NO_FIELDS: frozenset[str] = frozenset()
_BYTE_LEVEL = frozenset({"add_prefix_space", "trim_offsets", "use_regex"})
_METASPACE = frozenset({"replacement", "prepend_scheme", "split"})
_REPLACE = frozenset({"pattern", "content"})
# Component type -> the fields (besides "type") the tokenizers library writes for it; "Sequence"
# holds a list of components of the same kind under the named field. A missing field can fail
# the library (observed: a ByteLevel pre-tokenizer without add_prefix_space), an extra one may.
COMPONENTS: dict[str, dict[str, frozenset[str]]] = {
    "normalizer": {
        "NFC": _NO_FIELDS, "NFD": _NO_FIELDS, "NFKC": _NO_FIELDS, "NFKD": _NO_FIELDS, "Lowercase": _NO_FIELDS,
        "StripAccents": _NO_FIELDS, "Nmt": _NO_FIELDS, "Strip": frozenset({"strip_left", "strip_right"}),
        "Replace": _REPLACE, "Prepend": frozenset({"prepend"}), "Sequence": frozenset({"normalizers"}),
        "BertNormalizer": frozenset({"clean_text", "handle_chinese_chars", "strip_accents", "lowercase"}),
        "Precompiled": frozenset({"precompiled_charsmap"}),
    },
    "pre_tokenizer": {
        "Whitespace": _NO_FIELDS, "WhitespaceSplit": _NO_FIELDS, "BertPreTokenizer": _NO_FIELDS,
        "UnicodeScripts": _NO_FIELDS, "ByteLevel": _BYTE_LEVEL, "Metaspace": _METASPACE,
        "Digits": frozenset({"individual_digits"}), "Punctuation": frozenset({"behavior"}),
        "Split": frozenset({"pattern", "behavior", "invert"}), "Sequence": frozenset({"pretokenizers"}),
    },
    "post_processor": {
        "TemplateProcessing": frozenset({"single", "pair", "special_tokens"}), "ByteLevel": _BYTE_LEVEL,
        "BertProcessing": frozenset({"sep", "cls"}),
        "RobertaProcessing": frozenset({"sep", "cls", "trim_offsets", "add_prefix_space"}),
        "Sequence": frozenset({"processors"}),
    },
    "decoder": {
        "ByteLevel": _BYTE_LEVEL, "WordPiece": frozenset({"prefix", "cleanup"}), "Metaspace": _METASPACE,
        "BPEDecoder": frozenset({"suffix"}), "CTC": frozenset({"pad_token", "word_delimiter_token", "cleanup"}),
        "Sequence": frozenset({"decoders"}), "Replace": _REPLACE, "Fuse": _NO_FIELDS,
        "Strip": frozenset({"content", "start", "stop"}), "ByteFallback": _NO_FIELDS,
    },
}
_SEQUENCE_FIELD = {"normalizer": "normalizers", "pre_tokenizer": "pretokenizers", "post_processor": "processors",
                   "decoder": "decoders"}
MAX_COMPONENT_DEPTH = 8
# Truncation and padding parameters as the tokenizers library writes them; the kit requires all of
# them (which ones the library defaults is not known to it: a missing one is undecided).
PARAMETERS = {
    "truncation": frozenset({"direction", "max_length", "strategy", "stride"}),
    "padding": frozenset({"strategy", "direction", "pad_to_multiple_of", "pad_id", "pad_type_id", "pad_token"}),
}
# Whitespace pre-tokenizer: runs of word characters, or runs of other non-space characters.
_WHITESPACE = re.compile(r"\w+|[^\w\s]+")


@dataclass(frozen=True)
class Count:
    """Token count bounds for a text (``low == high`` when exact; ``high`` None: no bound known)."""

    low: int
    high: int | None


def _lone_surrogate(value: Any) -> bool:
    if isinstance(value, str):
        return any("\ud800" <= ch <= "\udfff" for ch in value)
    if isinstance(value, list):
        return any(_lone_surrogate(v) for v in value)
    if isinstance(value, dict):
        return any(_lone_surrogate(k) or _lone_surrogate(v) for k, v in value.items())
    return False


def _non_finite(value: Any) -> bool:
    if isinstance(value, float):
        return not math.isfinite(value)
    if isinstance(value, list):
        return any(_non_finite(v) for v in value)
    if isinstance(value, dict):
        return any(_non_finite(v) for v in value.values())
    return False


def _component_problem(key: str, value: Any, depth: int = 0) -> str | None:
    if value is None and depth == 0:
        return None
    if not isinstance(value, dict):
        return TABLE.text("detail.tokenizerJson.componentType", key=key)
    kind = value.get("type")
    known = COMPONENTS[key]
    if not isinstance(kind, str) or kind not in known:
        return TABLE.text("detail.tokenizerJson.componentKind", key=key, kind=repr(kind))
    fields = set(value) - {"type"}
    if fields != known[kind]:
        return TABLE.text("detail.tokenizerJson.componentFields", key=key, kind=kind, fields=sorted(fields),
                          known=sorted(known[kind]))
    if kind == "Sequence":
        items = value[_SEQUENCE_FIELD[key]]
        if not isinstance(items, list) or depth >= MAX_COMPONENT_DEPTH:
            return TABLE.text("detail.tokenizerJson.sequence", key=key)
        for item in items:
            problem = _component_problem(key, item, depth + 1)
            if problem is not None:
                return problem
    return None


def _model_problem(model: Any) -> str | None:
    if not isinstance(model, dict):
        return TABLE.text("detail.tokenizerJson.noModel")
    kind = model.get("type")
    if not isinstance(kind, str) or kind not in MODEL_FIELDS:
        return TABLE.text("detail.tokenizerJson.modelType", kind=repr(kind))
    required, allowed = MODEL_FIELDS[kind]
    missing = sorted(required - set(model))
    if missing:
        return TABLE.text("detail.tokenizerJson.modelLacks", kind=kind, missing=", ".join(missing))
    unknown = sorted(set(model) - allowed)
    if unknown:
        return TABLE.text("detail.tokenizerJson.modelField", kind=kind, field=repr(unknown[0]))
    vocab = model["vocab"]
    dict_vocab = kind in ("WordLevel", "BPE", "WordPiece")
    if dict_vocab and (not isinstance(vocab, dict) or not all(_is_id(v) for v in vocab.values())):
        return TABLE.text("detail.tokenizerJson.vocab", kind=kind)
    if kind == "WordLevel" and not isinstance(model["unk_token"], str):
        return TABLE.text("detail.tokenizerJson.unkToken")
    return None


def _is_id(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def tokenizer_json_problem(document: dict[str, Any]) -> str | None:
    """Why the tokenizers library would not build a tokenizer from ``document``, or None."""
    if _non_finite(document):
        return TABLE.text("detail.tokenizerJson.nonFinite")
    if _lone_surrogate(document):
        return TABLE.text("detail.tokenizerJson.surrogate")
    unknown = sorted(set(document) - TOP_LEVEL)
    if unknown:
        return TABLE.text("detail.tokenizerJson.topLevel", key=repr(unknown[0]))
    missing = sorted(TOP_LEVEL - set(document))
    if missing:
        return TABLE.text("detail.tokenizerJson.lacks", missing=", ".join(missing))
    if document["version"] != VERSION:
        return TABLE.text("detail.tokenizerJson.version", value=repr(document["version"]), expected=repr(VERSION))
    added = document["added_tokens"]
    if not isinstance(added, list) or not all(
        isinstance(t, dict) and isinstance(t.get("content"), str) and _is_id(t.get("id")) for t in added
    ):
        return TABLE.text("detail.tokenizerJson.addedTokens")
    for key in COMPONENTS:
        problem = _component_problem(key, document[key])
        if problem is not None:
            return problem
    for key, fields in PARAMETERS.items():
        value = document[key]
        if value is None:
            continue
        if not isinstance(value, dict):
            return TABLE.text("detail.tokenizerJson.componentType", key=key)
        if set(value) != fields:
            return TABLE.text("detail.tokenizerJson.parameterFields", key=key, fields=sorted(value), count=len(fields))
    return _model_problem(document["model"])


def _segments(text: str, added: list[dict[str, Any]]) -> tuple[int, list[str]] | None:
    """(number of added tokens in ``text``, the text between them); None if a flag makes the split
    something the kit does not model (lstrip, rstrip, single_word, normalized)."""
    contents = []
    for token in added:
        if token.get("lstrip") or token.get("rstrip") or token.get("single_word"):
            return None
        if token.get("normalized") and not token.get("special"):
            return None
        if token["content"]:
            contents.append(token["content"])
    if not contents:
        return 0, [text]
    pattern = re.compile("|".join(re.escape(c) for c in sorted(contents, key=len, reverse=True)))
    return len(pattern.findall(text)), pattern.split(text)


def token_count(document: dict[str, Any], text: str) -> Count | str:
    """Tokens ``text`` encodes to (no special tokens) under the valid ``document``, or why it cannot
    be encoded (the reference fails)."""
    if any("\ud800" <= ch <= "\udfff" for ch in text):
        return TABLE.text("detail.encode.surrogate")
    model = document["model"]
    split = _segments(text, document["added_tokens"])
    bound = Count(0, 2 * len(text.encode("utf-8")) + 2)
    if split is None or document["normalizer"] is not None:
        return bound if document["normalizer"] is None else Count(0, None)
    added_count, pieces = split
    pre = document["pre_tokenizer"]
    pre_type = None if pre is None else pre.get("type")
    if model["type"] != "WordLevel" or pre_type not in ("Whitespace", "WhitespaceSplit"):
        return Count(0, (bound.high or 0) + added_count)
    words = [w for piece in pieces for w in (_WHITESPACE.findall(piece) if pre_type == "Whitespace" else piece.split())]
    vocab, unk = model["vocab"], model["unk_token"]
    if any(w not in vocab for w in words) and unk not in vocab:
        return TABLE.text("detail.encode.unknownWord", unk=repr(unk))
    return Count(added_count + len(words), added_count + len(words))
