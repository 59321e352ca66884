"""The one base of every exception the kit raises on purpose.

A refused artifact is never an exception: checks return a :class:`~contract.core.refusal.Refusal`
value. An exception says the kit was misused (a bad argument, a batch of the wrong shape) or a file
it needs cannot be used (a corpus, a divergence list, a JSON text); each also keeps the builtin base
callers already catch (``ValueError``, ``KeyError``, ``RuntimeError``).

>>> from contract.core import errors
>>> from contract.core.strictjson import parse
>>> try:
...     parse(b'{"a": 1, "a": 2}')
... except errors.ContractError as exc:
...     print(type(exc).__name__, isinstance(exc, ValueError), exc.refusal.code)
StrictJsonError True json.duplicateKey
"""

from __future__ import annotations


class ContractError(Exception):
    """Base of the kit's exceptions: misuse, or a file the kit cannot use. Never a refused artifact."""


class CheckTableError(ContractError, KeyError):
    """A table file that lacks a check its interpreter implements: edited or stale. Refused when the
    interpreter is loaded, so that no reader runs with the check silently gone (fail closed)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class CorpusError(ContractError, RuntimeError):
    """A corpus that cannot be used: a generator that fails, a case file that breaks its schema."""
