"""Strict JSON: one text means one thing, or it is refused.

Python's ``json`` accepts ``NaN``/``Infinity``, keeps the *last* of duplicate keys, turns ``1e999``
into infinity (and an integer literal of 400 digits into an int no float can hold) and recurses
without bound. The engine's reader takes the *first* duplicate; so a file
with duplicate keys means different things to different readers. This reader refuses all of those
before any field is looked at, and every refusal is a :class:`StrictJsonError` whose message starts with
``not valid JSON:`` (except the size cap, which names the limit).

:func:`parse_fast` is :func:`parse` for bulk input (a JSONL reader's lines): the same value or the same
refusal for every input, several times faster on the usual plain line, which it reads with C-level
checks only and without the depth scan; anything it cannot prove plain goes through :func:`parse`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable
from typing import Any, cast

from contract.core.errors import ContractError
from contract.core.refusal import Refusal, refusal

MAX_DEPTH = 64
MAX_BYTES = 1024 * 1024


class StrictJsonError(ContractError, ValueError):
    """Raised by :func:`parse`: ``refusal`` says why (its message is fit to show a user)."""

    def __init__(self, code: str, /, **fields: object) -> None:
        self.refusal: Refusal = refusal(code, **fields)
        super().__init__(self.refusal.message)




def syntax_text(exc: json.JSONDecodeError) -> str:
    """The json module's words for a syntax error, to be followed by `` at line L column C``. Some of them
    end in "at" ("Unterminated string starting at", "Invalid control character at"): that one is dropped,
    so the message says "at" once."""
    return exc.msg.removesuffix(" at")


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
        detail = f"{syntax_text(exc)} at line {exc.lineno} column {exc.colno}"
        raise StrictJsonError("json.syntax", detail=detail) from None
    except (ValueError, RecursionError) as exc:  # e.g. an integer literal too long to convert
        raise StrictJsonError("json.syntax", detail=exc) from None


class _NotPlain(Exception):
    """Raised by the fast path's hooks: this document is left to the strict parser."""


def _plain_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):  # a duplicate key: refused by parse, which names it
        raise _NotPlain
    return obj


def _plain_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _NotPlain
    return value


def _plain_int(text: str) -> int:
    if len(text) > _PLAIN_INT_CHARS:
        raise _NotPlain
    return int(text)


def _not_plain(_name: str) -> Any:
    raise _NotPlain


# An integer literal of at most 308 characters is below 1e308 in magnitude, so a double holds it (and
# int() reads it: its limit is 4,300 digits); a document no longer than that has no longer literal.
_PLAIN_INT_CHARS = 308
_PLAIN = json.JSONDecoder(object_pairs_hook=_plain_object, parse_float=_plain_float, parse_constant=_not_plain)
_PLAIN_LONG = json.JSONDecoder(object_pairs_hook=_plain_object, parse_float=_plain_float, parse_constant=_not_plain,
                               parse_int=_plain_int)
# the decoders' C scanners (what JSONDecoder.decode calls; typeshed does not declare the attribute)
_SCAN_PLAIN: Callable[[str, int], tuple[Any, int]] = cast(Any, _PLAIN).scan_once
_SCAN_PLAIN_LONG: Callable[[str, int], tuple[Any, int]] = cast(Any, _PLAIN_LONG).scan_once


def parse_fast(data: bytes, *, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH) -> Any:
    """:func:`parse` of ``data``: the same value, or the same :class:`StrictJsonError`, for every input.

    A document is read here only when it is plain, which is proved with C-level checks: no larger than
    ``max_bytes``; ASCII (so UTF-8 without a byte-order mark); at most ``max_depth`` brackets and braces
    in all (so it cannot nest deeper, strings or not: no depth scan); and read by Python's decoder
    without a duplicate key, a NaN/Infinity constant, a number a double cannot hold or a syntax error
    (the hooks above stop at the first). Each of those is :func:`parse`'s own check or implied by it, and
    the value is built the same way, so what is read here is exactly what :func:`parse` returns. Anything
    else — every document :func:`parse` refuses among them — is handed to :func:`parse`, whose refusal
    is the answer."""
    if len(data) <= max_bytes and data.isascii() and data.count(b"[") + data.count(b"{") <= max_depth:
        # JSONDecoder.decode without its Python frames: JSON's whitespace around one value (a value never
        # ends in whitespace), the value read by the C scanner, and nothing after it
        text = data.decode("ascii").strip(" \t\n\r")
        scan = _SCAN_PLAIN if len(data) <= _PLAIN_INT_CHARS else _SCAN_PLAIN_LONG
        try:
            value, end = scan(text, 0)
            if end == len(text):
                return value
        except (_NotPlain, StopIteration, ValueError, RecursionError):
            pass
    return parse(data, max_bytes=max_bytes, max_depth=max_depth)


def dumps(value: Any) -> str:
    """The kit's canonical text: sorted keys, two-space indent, no NaN, trailing newline."""
    return json.dumps(value, indent=2, sort_keys=True, allow_nan=False, ensure_ascii=False) + "\n"
