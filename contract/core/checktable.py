"""The machinery of an ordered check table: entries run in order, the first failure wins.

A :class:`Check` is a stable code, a test and the message template the test's fields fill in. A
test returns ``None`` when the subject passes, or a mapping of template fields when it fails; it
may add warnings to the context but never raises for a bad artifact. :class:`Within` runs a
sub-table on one part of the subject (the ``packer`` object, say), and :class:`ForEach` runs a
sub-table on each item of a sequence in turn, so that checks on the same item interleave exactly
as the reference interleaves them (an earlier file's digest mismatch before a later unsafe path).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

S = TypeVar("S")

Fields = Mapping[str, object]
PASS: None = None


@dataclass(frozen=True)
class Failure:
    """The first failing check: its code and the message with the fields filled in."""

    code: str
    message: str


@dataclass(frozen=True)
class Check(Generic[S]):
    code: str
    test: Callable[[S], Fields | None]
    message: str


@dataclass(frozen=True)
class Within(Generic[S]):
    """Run ``checks`` on ``select(subject)``."""

    select: Callable[[S], Any]
    checks: Sequence[Entry[Any]]


@dataclass(frozen=True)
class ForEach(Generic[S]):
    """Run ``checks`` on each item of ``items(subject)``, one item at a time."""

    items: Callable[[S], Iterable[Any]]
    checks: Sequence[Entry[Any]]


Entry = Check[S] | Within[S] | ForEach[S]


def first_failure(entries: Sequence[Entry[S]], subject: S) -> Failure | None:
    """Run ``entries`` in order on ``subject``; the first failure, or None when all pass."""
    for entry in entries:
        failure: Failure | None
        if isinstance(entry, Check):
            fields = entry.test(subject)
            failure = None if fields is None else Failure(entry.code, entry.message.format_map(fields))
        elif isinstance(entry, Within):
            failure = first_failure(entry.checks, entry.select(subject))
        else:
            failure = None
            for item in entry.items(subject):
                failure = first_failure(entry.checks, item)
                if failure is not None:
                    break
        if failure is not None:
            return failure
    return None


def codes(entries: Sequence[Entry[Any]]) -> list[str]:
    """Every check code in table order (sub-tables flattened), for documentation and tests."""
    out: list[str] = []
    for entry in entries:
        if isinstance(entry, Check):
            out.append(entry.code)
        else:
            out.extend(codes(entry.checks))
    return out
