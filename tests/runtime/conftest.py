"""Fixtures for the runtime tests: the reference manifests and the §8.1 synthetic graphs.

The manifests are the engine's and training repository's own files, vendored under
``tests/data/manifests`` (see its README). The graphs are rebuilt by ``generators/fixtures.py`` and
must reproduce the engine's SHA-256 digests, so they are the engine's graphs byte for byte.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
MANIFESTS = REPO / "tests" / "data" / "manifests"
# Append (not prepend): an installed kit stays the one under test; only ``generators`` comes from here.
if str(REPO) not in sys.path:
    sys.path.append(str(REPO))


@pytest.fixture(scope="session")
def graphs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    from generators.fixtures import RENAMED, STATIC_BATCH, VALUE, build_graph

    out = tmp_path_factory.mktemp("graphs")
    paths = {}
    for key, graph in (("value", VALUE), ("renamed", RENAMED), ("static", STATIC_BATCH)):
        path = out / graph.file
        path.write_bytes(build_graph(graph))
        paths[key] = path
    return paths


@pytest.fixture(scope="session")
def manifests() -> Path:
    return MANIFESTS
