"""A bundle's tokenizer as its files declare it: special tokens, their ids and the padding side.

The reference compares the manifest's ``tokenizer`` block with a tokenizer object that
Transformers 5 loads (its ``tokenizers`` backend, built from ``tokenizer.json``); this module
derives the same attributes from the files alone, following what a differential fuzz against the
reference observed (docs/pairjudge.md): ``tokenizer.json`` is required and must be one the
tokenizers library reads (:mod:`contract.pairjudge.tokenizerjson`); ``tokenizer_config.json`` must
name a tokenizer class the reference was observed to load; token strings come from
``special_tokens_map.json`` (it overrides), else ``tokenizer_config.json`` (a string: an object
there makes the reference fail), else (pad only) ``tokenizer.json``'s ``padding``; ids come from
``tokenizer.json`` ``model.vocab`` (it wins over ``added_tokens``), else ``added_tokens``, else
``tokenizer_config.json`` ``added_tokens_decoder``; ``padding_side`` and ``truncation_side`` must be
``"left"`` or ``"right"`` (default ``"right"``). ``model_max_length``, ``vocab_size`` and
``is_fast`` are derived too, for manifests that name them.

It refuses (a :class:`TokenizerProblem`) what the reference cannot load, and never raises.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from contract.core.checktable import PAIRJUDGE_TABLE as TABLE
from contract.pairjudge import sidejson, tokenizerjson
from contract.pairjudge.packer import json_kind

CONFIG_FILE = "tokenizer_config.json"
SPECIAL_TOKENS_FILE = "special_tokens_map.json"
TOKENIZER_FILE = "tokenizer.json"
# Observed loaded by the reference (Transformers 5.24): the class its own bundles record.
# Others (missing, GPT2Tokenizer, ...) were observed to fail or are not known to the kit.
LOADABLE_CLASSES = frozenset({"TokenizersBackend", "PreTrainedTokenizerFast"})
SIDES = ("left", "right")
DEFAULT_MODEL_MAX_LENGTH = int(1e30)  # Transformers' VERY_LARGE_INTEGER
ROLES = ("pad", "eos", "bos", "unk")
DEFAULT_SIDE = "right"


@dataclass(frozen=True)
class TokenizerProblem:
    problem: str


@dataclass(frozen=True)
class Tokenizer:
    """Attributes a Transformers tokenizer would have, derived from files."""

    attributes: dict[str, Any]
    document: dict[str, Any]  # the parsed tokenizer.json
    warnings: tuple[str, ...] = ()

    @property
    def pad_token_id(self) -> Any:
        return self.attributes["pad_token_id"]


class _Files:
    """Lazily parsed tokenizer files of one directory."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.cache: dict[str, Any] = {}
        self.warnings: list[str] = []

    def get(self, name: str) -> Any:
        """The parsed file (None when absent); raises _Refusal when unreadable or not JSON."""
        if name not in self.cache:
            self.cache[name] = self._load(name)
        return self.cache[name]

    def _load(self, name: str) -> Any:
        parsed = sidejson.read_side_json(self.directory / name, name)
        if parsed is None:
            return None
        if isinstance(parsed, str):
            raise _Refusal(parsed)
        self.warnings.extend(parsed.warnings)
        if not isinstance(parsed.value, dict):
            raise _Refusal(TABLE.text("detail.file.notObject", name=name))
        return parsed.value

    def field(self, name: str, key: str) -> Any:
        document = self.get(name)
        return None if document is None else document.get(key)


class _Refusal(Exception):
    pass


def _token_string(value: Any, where: str, objects: bool) -> str | None:
    if value is None:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and not objects and value.get("__type") != "AddedToken":
        raise _Refusal(TABLE.text("detail.tokenizer.tokenObject", where=where))
    if isinstance(value, dict) and isinstance(value.get("content"), str):
        return str(value["content"])
    raise _Refusal(TABLE.text("detail.tokenizer.tokenType", where=where))


def _special_token(files: _Files, role: str) -> str | None:
    key = f"{role}_token"
    for name in (SPECIAL_TOKENS_FILE, CONFIG_FILE):  # special_tokens_map.json overrides
        token = _token_string(files.field(name, key), f"{name} {key}", objects=name == SPECIAL_TOKENS_FILE)
        if token is not None:
            return token
    if role == "pad":
        padding = files.field(TOKENIZER_FILE, "padding")
        if isinstance(padding, dict):
            return _token_string(padding.get("pad_token"), f"{TOKENIZER_FILE} padding.pad_token", objects=False)
    return None


def _id_from_vocab(files: _Files, token: str) -> int | None:
    model = files.field(TOKENIZER_FILE, "model")
    vocab = model.get("vocab") if isinstance(model, dict) else None
    if isinstance(vocab, dict) and _is_id(vocab.get(token)):
        return int(vocab[token])
    if isinstance(vocab, list):  # Unigram: [[piece, score], ...], the id is the index
        for index, entry in enumerate(vocab):
            if isinstance(entry, list) and entry and entry[0] == token:
                return index
    return None


def _decoder_tokens(files: _Files) -> list[str]:
    """The token contents of ``tokenizer_config.json``'s ``added_tokens_decoder`` as the reference reads
    them (observed with transformers 5.24.0): the value an object (``null`` or a list fails the load);
    each key through Python's ``int()`` (``" 5"``, ``"+9"``, ``"-1"``, ``"1_0"`` are numbers, ``"x"`` or
    ``"5.0"`` fails it: ValueError); each entry an object (anything else fails: TypeError) whose
    ``content``, when present, is a string (else TypeError; an entry without one adds nothing); a key of
    the same number as an earlier one replaces it (``"05"`` after ``"5"``); in ascending number order."""
    document = files.get(CONFIG_FILE)
    if document is None or "added_tokens_decoder" not in document:
        return []
    decoder = document["added_tokens_decoder"]
    if not isinstance(decoder, dict):
        raise _Refusal(TABLE.text("detail.tokenizer.decoderType", file=CONFIG_FILE, kind=json_kind(decoder)))
    by_number: dict[int, Any] = {}
    for key, entry in decoder.items():
        if not isinstance(entry, dict) or not isinstance(entry.get("content", ""), str):
            raise _Refusal(TABLE.text("detail.tokenizer.decoderEntry", file=CONFIG_FILE, key=repr(key)))
        try:
            number = int(key)
        except ValueError:
            raise _Refusal(TABLE.text("detail.tokenizer.decoderKey", file=CONFIG_FILE, key=repr(key))) from None
        by_number[number] = entry.get("content")
    return [content for _, content in sorted(by_number.items()) if isinstance(content, str)]


def _id_from_added_tokens(files: _Files, token: str) -> int | None:
    """The id a token outside the model's vocabulary gets: such tokens are appended after the
    vocabulary, first ``tokenizer.json``'s ``added_tokens`` in file order (the ``id`` written there is
    not used: observed, deleting ``[PAD]`` from ``model.vocab`` changes its id), then the tokens of
    ``tokenizer_config.json``'s ``added_tokens_decoder`` not met yet, in ascending number order
    (:func:`_decoder_tokens`; the number is not the id either: observed with transformers 5.24.0,
    ``{"100": A, "5": B}`` after 8 ids gives B 8 and A 9)."""
    added = files.field(TOKENIZER_FILE, "added_tokens")
    model = files.field(TOKENIZER_FILE, "model")
    vocab = model.get("vocab") if isinstance(model, dict) else None
    if not isinstance(vocab, dict | list):
        return None
    known = set(vocab) if isinstance(vocab, dict) else {e[0] for e in vocab if isinstance(e, list) and e}
    appended = [entry.get("content") for entry in (added if isinstance(added, list) else [])
                if isinstance(entry, dict)]
    appended = [content for content in appended if content not in known]
    met = known | {content for content in appended if isinstance(content, str)}
    for content in _decoder_tokens(files):
        if content not in met:
            met.add(content)
            appended.append(content)
    if token in appended:
        return len(vocab) + appended.index(token)
    return None


def _vocab_size(document: dict[str, Any]) -> int:
    vocab = document["model"]["vocab"]
    return len(vocab)


def _is_id(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _token_id(files: _Files, token: str) -> int | None:
    for source in (_id_from_vocab, _id_from_added_tokens):
        found = source(files, token)
        if found is not None:
            return found
    return None


def _side(files: _Files, key: str, padding_key: str | None) -> Any:
    document = files.get(CONFIG_FILE)
    if document is not None and key in document:
        value = document[key]
    elif padding_key is not None and isinstance(padding := files.field(TOKENIZER_FILE, "padding"), dict) and isinstance(
        padding.get(padding_key), str
    ):
        value = str(padding[padding_key]).lower()
    else:
        value = DEFAULT_SIDE
    if value not in SIDES:
        raise _Refusal(TABLE.text("detail.tokenizer.side", file=CONFIG_FILE, key=key, value=repr(value)))
    return value


def _tokenizer_class(files: _Files) -> None:
    extra = files.field(CONFIG_FILE, "extra_special_tokens")
    if extra is not None and not isinstance(extra, list | dict):
        raise _Refusal(TABLE.text("detail.tokenizer.extraTokens", file=CONFIG_FILE, value=repr(extra)))
    document = files.get(CONFIG_FILE)
    name = None if document is None else document.get("tokenizer_class")
    if not isinstance(name, str) or name not in LOADABLE_CLASSES:
        raise _Refusal(TABLE.text("detail.tokenizer.class", file=CONFIG_FILE, value=repr(name),
                                  known=" and ".join(sorted(LOADABLE_CLASSES))))


def _tokenizer_document(files: _Files) -> dict[str, Any]:
    document = files.get(TOKENIZER_FILE)
    if document is None:
        raise _Refusal(TABLE.text("detail.tokenizer.noFile", file=TOKENIZER_FILE))
    problem = tokenizerjson.tokenizer_json_problem(document)
    if problem is not None:
        raise _Refusal(problem)
    return dict(document)


def read_tokenizer(directory: Path) -> Tokenizer | TokenizerProblem:
    """The tokenizer attributes the files in ``directory`` define; never raises."""
    files = _Files(directory)
    try:
        document = _tokenizer_document(files)
        _tokenizer_class(files)
        _decoder_tokens(files)  # read by the reference whether or not a special token needs it
        attributes: dict[str, Any] = {}
        for role in ROLES:
            token = _special_token(files, role)
            attributes[f"{role}_token"] = token
            token_id = None if token is None else _token_id(files, token)
            if token is not None and token_id is None:
                raise _Refusal(TABLE.text("detail.tokenizer.noId", role=role, token=repr(token)))
            attributes[f"{role}_token_id"] = token_id
        attributes["padding_side"] = _side(files, "padding_side", "direction")
        attributes["truncation_side"] = _side(files, "truncation_side", None)
        max_length = files.field(CONFIG_FILE, "model_max_length")
        if max_length is not None and not isinstance(max_length, int | float):
            raise _Refusal(TABLE.text("detail.tokenizer.maxLength", file=CONFIG_FILE, value=repr(max_length)))
        attributes["model_max_length"] = DEFAULT_MODEL_MAX_LENGTH if max_length is None else max_length
        attributes["vocab_size"] = _vocab_size(document)
        attributes["is_fast"] = True
    except _Refusal as refusal:
        return TokenizerProblem(str(refusal))
    return Tokenizer(attributes, document, tuple(files.warnings))
