"""JSON read the way the pairjudge reference reads it (Python ``json``), with its quirks made visible.

The reference loader parses ``pairjudge.json``, ``config.json`` and the tokenizer files with
Python's ``json``: ``NaN``/``Infinity`` are accepted, ``1e999`` becomes infinity, and of duplicate
keys the *last* wins while keeping the *first* key's position. To give the reference's verdict the
kit parses the same way, but reports each of those quirks as a warning, because another reader may
see a different document. It refuses (returns :class:`JsonProblem`) what the reference cannot parse
at all: bytes that are not UTF-8, a byte-order mark, malformed JSON, nesting too deep for the
reference's recursion, integer literals too long for Python's ``int``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from contract.core import strictjson

# Deeper than Python's json can go with the default recursion limit is refused by the reference
# (RecursionError); refusing well before that keeps the kit from recursing deeply itself.
MAX_DEPTH = 512


@dataclass(frozen=True)
class JsonProblem:
    """Why a file cannot be read as JSON at all (a sentence fragment naming the problem)."""

    problem: str


@dataclass(frozen=True)
class JsonDocument:
    value: Any
    warnings: tuple[str, ...]


def load(data: bytes, name: str) -> JsonDocument | JsonProblem:
    """Parse ``data`` as the reference does; warnings name ``name``. Never raises."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return JsonProblem(f"{name} is not UTF-8 text (byte {exc.start})")
    if text.startswith("\ufeff"):
        return JsonProblem(f"{name} is not valid JSON: it starts with a byte-order mark")
    try:
        strictjson._check_depth(text, MAX_DEPTH)
    except strictjson.JsonRefusal:
        return JsonProblem(f"{name} is not valid JSON: nesting deeper than {MAX_DEPTH} levels")
    warnings: list[str] = []

    def constant(token: str) -> float:
        warnings.append(f"{name} contains {token}, which is not JSON; the reference reads it as a float")
        return float(token)

    def number(token: str) -> float:
        value = float(token)
        if value in (float("inf"), float("-inf")):
            warnings.append(f"{name} contains the number {token}, which only fits a float as infinity")
        return value

    def pairs_hook(pairs: Iterable[tuple[str, Any]]) -> dict[str, Any]:
        obj: dict[str, Any] = {}
        for key, value in pairs:
            if key in obj:
                warnings.append(
                    f"{name} repeats the key {key!r}; the reference keeps the last value, "
                    "other readers may keep the first"
                )
            obj[key] = value
        return obj

    try:
        value = json.loads(text, parse_constant=constant, parse_float=number, object_pairs_hook=pairs_hook)
    except json.JSONDecodeError as exc:
        return JsonProblem(f"{name} is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}")
    except (ValueError, RecursionError) as exc:  # e.g. an integer literal longer than int allows
        return JsonProblem(f"{name} is not valid JSON: {exc}")
    return JsonDocument(value, tuple(dict.fromkeys(warnings)))
