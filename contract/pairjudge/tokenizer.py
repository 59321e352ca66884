"""A bundle's tokenizer as its files declare it: special tokens, their ids and the padding side.

The reference compares the manifest's ``tokenizer`` block with a tokenizer object that
Transformers loads; this module derives the same attributes from the files alone (spec §5):
token strings from ``tokenizer_config.json`` (a string, or an object with ``content``), else
``special_tokens_map.json``, else (pad only) ``tokenizer.json``'s ``padding``; ids from
``tokenizer_config.json`` ``added_tokens_decoder``, else ``tokenizer.json`` ``added_tokens``, else
its ``model.vocab``, else ``vocab.json``; ``padding_side`` and ``truncation_side`` from
``tokenizer_config.json``, else ``tokenizer.json``'s padding direction, else ``"right"``.

It refuses (a :class:`TokenizerProblem`) a bundle with no tokenizer file, a tokenizer file that is
not JSON, a special token that is neither a string nor an object with ``content``, and a named
special token whose id no file gives. It never raises for bad files.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from contract.pairjudge import referencejson

CONFIG_FILE = "tokenizer_config.json"
SPECIAL_TOKENS_FILE = "special_tokens_map.json"
TOKENIZER_FILE = "tokenizer.json"
VOCAB_FILE = "vocab.json"
MAX_TOKENIZER_BYTES = 512 * 1024 * 1024
ROLES = ("pad", "eos", "bos", "unk")
DEFAULT_SIDE = "right"


@dataclass(frozen=True)
class TokenizerProblem:
    problem: str


@dataclass(frozen=True)
class Tokenizer:
    """Attributes a Transformers tokenizer would have, derived from files."""

    attributes: dict[str, Any]
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
        path = self.directory / name
        if not os.path.isfile(path):
            return None
        try:
            if path.stat().st_size > MAX_TOKENIZER_BYTES:
                raise _Refusal(f"{name} is larger than {MAX_TOKENIZER_BYTES} bytes")
            data = path.read_bytes()
        except OSError as exc:
            raise _Refusal(f"{name} cannot be read ({exc.strerror or exc})") from None
        parsed = referencejson.load(data, name)
        if isinstance(parsed, referencejson.JsonProblem):
            raise _Refusal(parsed.problem)
        self.warnings.extend(parsed.warnings)
        if not isinstance(parsed.value, dict):
            raise _Refusal(f"{name} is not a JSON object")
        return parsed.value

    def field(self, name: str, key: str) -> Any:
        document = self.get(name)
        return None if document is None else document.get(key)


class _Refusal(Exception):
    pass


def _token_string(value: Any, where: str) -> str | None:
    if value is None:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and isinstance(value.get("content"), str):
        return str(value["content"])
    raise _Refusal(f"{where} is neither a token string nor an object with a string 'content'")


def _special_token(files: _Files, role: str) -> str | None:
    key = f"{role}_token"
    for name in (CONFIG_FILE, SPECIAL_TOKENS_FILE):
        token = _token_string(files.field(name, key), f"{name} {key}")
        if token is not None:
            return token
    if role == "pad":
        padding = files.field(TOKENIZER_FILE, "padding")
        if isinstance(padding, dict):
            return _token_string(padding.get("pad_token"), f"{TOKENIZER_FILE} padding.pad_token")
    return None


def _id_from_added_decoder(files: _Files, token: str) -> int | None:
    decoder = files.field(CONFIG_FILE, "added_tokens_decoder")
    if not isinstance(decoder, dict):
        return None
    for key, entry in decoder.items():
        if isinstance(entry, dict) and entry.get("content") == token and key.isascii() and key.isdigit():
            return int(key)
    return None


def _id_from_tokenizer_json(files: _Files, token: str) -> int | None:
    added = files.field(TOKENIZER_FILE, "added_tokens")
    if isinstance(added, list):
        for entry in added:
            if isinstance(entry, dict) and entry.get("content") == token and _is_id(entry.get("id")):
                return int(entry["id"])
    model = files.field(TOKENIZER_FILE, "model")
    vocab = model.get("vocab") if isinstance(model, dict) else None
    if isinstance(vocab, dict) and _is_id(vocab.get(token)):
        return int(vocab[token])
    if isinstance(vocab, list):  # Unigram: [[piece, score], ...], the id is the index
        for index, entry in enumerate(vocab):
            if isinstance(entry, list) and entry and entry[0] == token:
                return index
    return None


def _id_from_vocab_json(files: _Files, token: str) -> int | None:
    vocab = files.get(VOCAB_FILE)
    if isinstance(vocab, dict) and _is_id(vocab.get(token)):
        return int(vocab[token])
    return None


def _is_id(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _token_id(files: _Files, token: str) -> int | None:
    for source in (_id_from_added_decoder, _id_from_tokenizer_json, _id_from_vocab_json):
        found = source(files, token)
        if found is not None:
            return found
    return None


def _side(files: _Files, key: str, padding_key: str | None) -> Any:
    document = files.get(CONFIG_FILE)
    if document is not None and key in document:
        return document[key]
    if padding_key is not None:
        padding = files.field(TOKENIZER_FILE, "padding")
        if isinstance(padding, dict) and isinstance(padding.get(padding_key), str):
            return str(padding[padding_key]).lower()
    return DEFAULT_SIDE


def read_tokenizer(directory: Path) -> Tokenizer | TokenizerProblem:
    """The tokenizer attributes the files in ``directory`` define; never raises."""
    files = _Files(directory)
    try:
        if files.get(CONFIG_FILE) is None and files.get(TOKENIZER_FILE) is None:
            return TokenizerProblem(f"no tokenizer files ({CONFIG_FILE} or {TOKENIZER_FILE}) in the bundle")
        attributes: dict[str, Any] = {}
        for role in ROLES:
            token = _special_token(files, role)
            attributes[f"{role}_token"] = token
            token_id = None if token is None else _token_id(files, token)
            if token is not None and token_id is None:
                raise _Refusal(f"the tokenizer files name the {role} token {token!r} but give no id for it")
            attributes[f"{role}_token_id"] = token_id
        attributes["padding_side"] = _side(files, "padding_side", "direction")
        attributes["truncation_side"] = _side(files, "truncation_side", None)
    except _Refusal as refusal:
        return TokenizerProblem(str(refusal))
    return Tokenizer(attributes, tuple(files.warnings))
