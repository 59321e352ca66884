"""A re-expression of the training mirror's ``engine_compatible`` (spec/contract.md §3.2-3.3, Python
column), written from the spec's description only, so the example training adapter can be run live here.

It is test scaffolding for the adapter's plumbing, not a source of expected values: the test compares
what comes back through the adapter with the *recorded* python column of the verdicts file.
"""

from __future__ import annotations

import operator
import re

_SEMVER = re.compile(r"^(\d+)\.(\d+)\.(\d+)$")  # Python $: also before a final newline
_COMPARATOR = re.compile(r"^(>=|<=|>|<|=)?(\d+)\.(\d+)\.(\d+)$")
_OPS = {"=": operator.eq, ">": operator.gt, ">=": operator.ge, "<": operator.lt, "<=": operator.le}


class ContractError(ValueError):
    pass


def engine_compatible(constraint: str, engine_version: str) -> bool:
    if not constraint.strip():
        raise ContractError("engineCompatibility must not be blank")
    match = _SEMVER.match(engine_version)
    if match is None:
        raise ContractError(f"invalid semantic version {engine_version!r}; expected MAJOR.MINOR.PATCH")
    version = tuple(int(g) for g in match.groups())
    for token in constraint.split():  # any Unicode whitespace; tokens checked lazily
        comparator = _COMPARATOR.match(token)
        if comparator is None:
            raise ContractError(f"invalid engineCompatibility {constraint!r}; expected e.g. '>=0.4.0 <0.5.0'")
        bound = tuple(int(g) for g in comparator.groups()[1:])
        if not _OPS[comparator.group(1) or "="](version, bound):
            raise ContractError(
                f"engineCompatibility {constraint!r} does not include engine version {engine_version!r}")
    return True
