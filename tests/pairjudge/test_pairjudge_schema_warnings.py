"""The writer's-schema warnings are cut at 160 characters (docs/pairjudge.md): a warning of exactly
160 is kept whole, one of 161 keeps its first 157 and ends in ``...``. The problem text is
jsonschema's own for an unexpected top-level key."""

from __future__ import annotations

import json

import pytest
from pairjudge_support import BUNDLES

from contract.pairjudge.manifest import schema_warnings

HEAD = "pairjudge.json / is not as pairjudge 0.3.0 writes it: Additional properties are not allowed ('"
TAIL = "' was unexpected)"


@pytest.mark.parametrize("length", [159, 160, 161, 200])
def test_pairjudge_schema_warning_cut_at_160(length: int) -> None:
    document = json.loads((BUNDLES / "full-run" / "merged" / "pairjudge.json").read_text())
    key = "k" * (length - len(HEAD) - len(TAIL))
    document[key] = 1
    whole = HEAD + key + TAIL
    assert len(whole) == length
    expected = whole if length <= 160 else whole[:157] + "..."
    assert schema_warnings(document) == [expected]
