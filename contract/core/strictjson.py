"""Strict JSON: one text means one thing, or it is refused.

Python's ``json`` accepts ``NaN``/``Infinity``, keeps the *last* of duplicate keys, turns ``1e999``
into infinity (and an integer literal of 400 digits into an int no float can hold) and recurses
without bound. The engine's reader takes the *first* duplicate; so a file
with duplicate keys means different things to different readers. This reader refuses all of those
before any field is looked at, and every refusal is a :class:`StrictJsonError` whose message starts with
``not valid JSON:`` (except the size cap, which names the limit).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from typing import Any

from contract.core.errors import ContractError
from contract.core.refusal import Refusal, refusal

MAX_DEPTH = 64
MAX_BYTES = 1024 * 1024


class StrictJsonError(ContractError, ValueError):
    """Raised by :func:`parse`: ``refusal`` says why (its message is fit to show a user)."""

    def __init__(self, code: str, /, **fields: object) -> None:
        self.refusal: Refusal = refusal(code, **fields)
        super().__init__(self.refusal.message)




def _refuse_constant(name: str) -> Any:
    raise StrictJsonError("json.notANumber", name=name)


def _too_big(text: str) -> StrictJsonError:
    # The whole literal, as js/src/strict-json.js quotes it (its Number() overflows the same way).
    return StrictJsonError("json.numberRange", text=text)


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _too_big(text)
    return value


def _bounded_int(text: str) -> int:
    """An integer literal that a 64-bit float can hold in magnitude (as every reader's double can)."""
    if not math.isfinite(float(text)):  # float() has no digit limit; int() refuses > 4300 digits
        raise _too_big(text)
    return int(text)


def _unique_object(pairs: Iterable[tuple[str, Any]]) -> dict[str, Any]:
    obj: dict[str, Any] = {}
    for key, value in pairs:
        if key in obj:
            raise StrictJsonError("json.duplicateKey", key=repr(key))
        obj[key] = value
    return obj


def _check_depth(text: str, max_depth: int) -> None:
    """Refuse nesting deeper than ``max_depth`` without recursing (strings are skipped)."""
    depth = 0
    in_string = False
    escaped = False
    for index, char in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > max_depth:
                raise StrictJsonError("json.tooDeep", limit=max_depth, offset=index)
        elif char in "]}":
            depth -= 1


def parse(data: bytes | str, *, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH) -> Any:
    """Parse one JSON document strictly; raise :class:`StrictJsonError` on anything ambiguous."""
    if isinstance(data, bytes):
        if len(data) > max_bytes:
            raise StrictJsonError("json.tooLarge", limit=max_bytes, size=len(data))
        if data.startswith(b"\xef\xbb\xbf"):
            raise StrictJsonError("json.byteOrderMark")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise StrictJsonError("json.notUtf8", offset=exc.start) from None
    else:
        text = data
        if len(text.encode("utf-8", "surrogatepass")) > max_bytes:
            raise StrictJsonError("json.textTooLarge", limit=max_bytes)
    _check_depth(text, max_depth)
    try:
        return json.loads(
            text,
            parse_constant=_refuse_constant,
            parse_float=_finite_float,
            parse_int=_bounded_int,
            object_pairs_hook=_unique_object,
        )
    except StrictJsonError:
        raise
    except json.JSONDecodeError as exc:
        raise StrictJsonError("json.syntax", detail=f"{exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except (ValueError, RecursionError) as exc:  # e.g. an integer literal too long to convert
        raise StrictJsonError("json.syntax", detail=exc) from None


def dumps(value: Any) -> str:
    """The kit's canonical text: sorted keys, two-space indent, no NaN, trailing newline."""
    return json.dumps(value, indent=2, sort_keys=True, allow_nan=False, ensure_ascii=False) + "\n"
