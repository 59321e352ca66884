"""Text from a manifest or an input, made safe to print: control characters are shown, not obeyed.

A served package's ``modelId`` holding ``ESC [ 2 K`` or a carriage return could otherwise erase the
line a console shows and print a fake one (``refusing to serve: …``). Every printer in the kit passes
what it prints through :func:`console_text` (plain text) or :func:`console_json` (``--json`` output).

Shown as escapes: the C0 controls and DEL (``\\x1b``, with ``\\n``, ``\\r``, ``\\t`` by their short
names), the C1 controls (``\\x9b`` is a CSI on some terminals), the line and paragraph separators
U+2028/U+2029, the bidirectional controls (U+061C, U+200E/F, U+202A-U+202E, U+2066-U+2069, which can
reorder what a reader sees) and lone surrogates (``\\udcff``, what undecodable bytes become). Other
text, non-ASCII letters included, is printed as it is. A backslash is not doubled: a literal ``\\x1b``
in the input prints the same as an escaped ESC, which can mislead a reader but cannot drive the
terminal.

:func:`cut` shortens a long text for a report line, saying how long it was.
"""

from __future__ import annotations

import json
import re
from typing import Any, Final

SHORT: Final = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
# DEL, C1, the Arabic letter mark, LRM/RLM, the separators, the embeddings/overrides/isolates, surrogates.
BEYOND_C0: Final = "\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff"
UNSAFE: Final = re.compile(f"[\x00-\x1f{BEYOND_C0}]")
# What json.dumps leaves raw: it escapes U+0000-U+001F itself (and a newline outside a string is layout).
UNSAFE_IN_JSON: Final = re.compile(f"[{BEYOND_C0}]")
CUT_AT: Final = 200


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    if char in SHORT:
        return SHORT[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def console_text(text: str) -> str:
    """``text`` with every character that could drive a terminal or reorder a line shown as an escape."""
    return UNSAFE.sub(_escape, text)


def _json_escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def console_json(value: Any, **options: Any) -> str:
    """``json.dumps(value, ensure_ascii=False, **options)`` with the same characters as ``\\uXXXX``.

    JSON already escapes U+0000-U+001F; DEL, the C1 controls, the separators and the bidirectional
    controls it would print raw. The result is the same JSON value.
    """
    return UNSAFE_IN_JSON.sub(_json_escape, json.dumps(value, ensure_ascii=False, **options))


def cut(text: str, limit: int = CUT_AT) -> str:
    """``text`` (escaped) if at most ``limit`` characters; else its first ``limit`` and its length."""
    if len(text) <= limit:
        return console_text(text)
    return f"{console_text(text[:limit])}... ({len(text)} characters)"
