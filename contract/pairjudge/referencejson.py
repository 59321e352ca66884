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
from contract.core.checktable import PAIRJUDGE_TABLE as TABLE

# Python's json parses nesting up to its recursion limit (about 1000 levels, less the caller's
# frames): observed, the reference reads a 713-level pairjudge.json. Beyond MAX_DEPTH whether it
# parses depends on the reference's call depth, so the kit refuses rather than guess.
MAX_DEPTH = 900
# Side files (config.json, tokenizer files) are copied recursively by Transformers, which fails
# with RecursionError far earlier (observed at 550 levels in a config.json, 906 in a
# tokenizer_config.json); where exactly depends on the copy, so the kit refuses beyond this depth.
SIDE_MAX_DEPTH = 64


@dataclass(frozen=True)
class JsonProblem:
    """Why a file cannot be read as JSON at all (a sentence fragment naming the problem)."""

    problem: str


@dataclass(frozen=True)
class JsonDocument:
    value: Any
    warnings: tuple[str, ...]


def load(data: bytes, name: str, max_depth: int = MAX_DEPTH) -> JsonDocument | JsonProblem:
    """Parse ``data`` as the reference does; warnings name ``name``. Never raises."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return JsonProblem(TABLE.text("detail.json.notUtf8", name=name, offset=exc.start))
    if text.startswith("\ufeff"):
        return JsonProblem(TABLE.text("detail.json.byteOrderMark", name=name))
    try:
        strictjson._check_depth(text, max_depth)
    except strictjson.StrictJsonError:
        if max_depth < MAX_DEPTH:
            return JsonProblem(TABLE.text("detail.json.tooDeepSide", name=name, limit=max_depth))
        return JsonProblem(TABLE.text("detail.json.tooDeep", name=name, limit=max_depth))
    warnings: list[str] = []

    def constant(token: str) -> float:
        warnings.append(TABLE.text("warning.json.constant", name=name, token=token))
        return float(token)

    def number(token: str) -> float:
        value = float(token)
        if value in (float("inf"), float("-inf")):
            warnings.append(TABLE.text("warning.json.infinity", name=name, token=token))
        return value

    def pairs_hook(pairs: Iterable[tuple[str, Any]]) -> dict[str, Any]:
        obj: dict[str, Any] = {}
        for key, value in pairs:
            if key in obj:
                warnings.append(TABLE.text("warning.json.duplicateKey", name=name, key=repr(key)))
            obj[key] = value
        return obj

    try:
        value = json.loads(text, parse_constant=constant, parse_float=number, object_pairs_hook=pairs_hook)
    except json.JSONDecodeError as exc:
        return JsonProblem(
            TABLE.text("detail.json.syntax", name=name, problem=strictjson.syntax_text(exc), line=exc.lineno,
                       column=exc.colno)
        )
    except (ValueError, RecursionError) as exc:  # e.g. an integer literal longer than int allows
        return JsonProblem(TABLE.text("detail.json.invalid", name=name, problem=exc))
    except MemoryError:
        return JsonProblem(TABLE.text("detail.json.invalid", name=name, problem="out of memory while parsing"))
    return JsonDocument(value, tuple(dict.fromkeys(warnings)))
