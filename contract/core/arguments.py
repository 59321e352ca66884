"""Wrong types given to the public API: refused as values, never raised.

Every public function that answers with a value or a :class:`~contract.core.refusal.Refusal` checks the
types of its arguments first; a wrong one is the table's ``api.argument.type`` refusal naming the
argument, what it must be and what it was (``directory must be a path (str or os.PathLike), not
NoneType``).
"""

from __future__ import annotations

import os
from typing import Final, TypeGuard

from contract.core.refusal import Refusal, refusal

A_PATH: Final = "a path (str or os.PathLike)"
A_STRING: Final = "a string"
TEXT_OR_BYTES: Final = "str or bytes"


def type_name(value: object) -> str:
    """The name a message gives the type of ``value`` (``NoneType``, ``bytes``, ``int``, ``PosixPath``)."""
    return type(value).__name__


def wrong_type(argument: str, expected: str, value: object) -> Refusal:
    return refusal("api.argument.type", argument=argument, expected=expected, got=type_name(value))


def is_text_path(value: object) -> TypeGuard[str | os.PathLike[str]]:
    """A ``str`` or an ``os.PathLike`` whose ``__fspath__`` gives a ``str`` (not bytes, not an error)."""
    if isinstance(value, str):
        return True
    if not isinstance(value, os.PathLike):
        return False
    try:
        return isinstance(os.fspath(value), str)
    except Exception:  # a PathLike of the caller's whose __fspath__ fails: not a path
        return False


def unusable_path(text: str) -> str | None:
    """Why the path ``text`` cannot name a file at all (a NUL character, or a character the file system's
    encoding cannot hold, such as a lone surrogate), or ``None``. The OS calls raise for those."""
    if "\0" in text:
        return "it holds a NUL character"
    try:
        os.fsencode(text)
    except UnicodeError:
        return "it holds a character the file system's encoding cannot hold (a lone surrogate)"
    return None


def not_a_path(argument: str, value: object) -> Refusal | None:
    """None when ``value`` is a text path, else the refusal naming ``argument``."""
    return None if is_text_path(value) else wrong_type(argument, A_PATH, value)


def not_a_string(argument: str, value: object, optional: bool = False) -> Refusal | None:
    """None when ``value`` is a ``str`` (or None, when ``optional``), else the refusal naming ``argument``."""
    if isinstance(value, str) or (optional and value is None):
        return None
    return wrong_type(argument, A_STRING + (" or None" if optional else ""), value)


__all__ = [
    "A_PATH",
    "A_STRING",
    "TEXT_OR_BYTES",
    "is_text_path",
    "not_a_path",
    "not_a_string",
    "type_name",
    "wrong_type",
]
