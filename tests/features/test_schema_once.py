"""The row paths resolve a feature schema once per run, not once per chunk (issue 37, part 3).

Each test counts the calls of the registry's look-up (``contract.core.registry.feature_schemas``, which
reads and checks ``schema/feature-schemas.json``) while rows of many chunks go through
:func:`contract.features.rows.extract_matrix` / :func:`~contract.features.rows.extract_rows`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from contract.core import registry
from contract.features import backend, rows
from contract.features.extractors import ResolvedSchema, UnknownSchemaError, resolve

FEN = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
ROWS = [{"id": index, "fen": FEN} for index in range(5 * rows.CHUNK_ROWS + 7)]


@pytest.fixture
def lookups(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The number of registry look-ups since the fixture started (the backend resolved before it)."""
    backend.active()  # the backend binds its codes through the registry once per process: not counted here
    counted = [0]
    real: Callable[[], dict[str, Any]] = registry.feature_schemas

    def counting() -> dict[str, Any]:
        counted[0] += 1
        return real()

    monkeypatch.setattr(registry, "feature_schemas", counting)
    return counted


def test_extract_matrix_over_many_chunks_looks_the_schema_up_once(lookups: list[int]) -> None:
    vectors, errors, _ids = rows.extract_matrix("kcp-13", ROWS)
    assert vectors.shape == (len(ROWS), 13) and errors == [None] * len(ROWS)
    assert lookups[0] == 1


def test_extract_rows_over_many_chunks_looks_the_schema_up_once(lookups: list[int]) -> None:
    results = list(rows.extract_rows("kcp-13", ROWS))
    assert len(results) == len(ROWS) and all(result.ok for result in results)
    assert lookups[0] == 1


def test_a_resolved_schema_travels_without_another_look_up(lookups: list[int]) -> None:
    resolved = resolve("kcp-13")
    assert (resolved.id, resolved.width, resolved.columns[0]) == ("kcp-13", 13, registry.get("kcp-13").columns[0])
    looked = lookups[0]
    for start in range(0, len(ROWS), 1000):  # a run's chunks, each handed the run's resolved schema
        rows.extract_matrix(resolved, ROWS[start:start + 1000])
    list(rows.extract_rows(resolved, ROWS[:3]))
    assert lookups[0] == looked == 2  # resolve, then registry.get above; none per chunk


def test_an_unknown_schema_is_refused_at_the_call(lookups: list[int]) -> None:
    with pytest.raises(UnknownSchemaError):
        rows.extract_rows("kcp-14", ROWS)  # at the call, before any row is read
    with pytest.raises(UnknownSchemaError):
        resolve("kcp-14")
    assert isinstance(resolve("rich-9-v1"), ResolvedSchema)
