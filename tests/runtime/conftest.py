"""Fixtures for the runtime tests: the reference manifests and the §8.1 synthetic graphs.

The manifests are the engine's and training repository's own files, vendored under
``golden/recorded/manifests`` (see ``golden/recorded/README.md``). The graphs are rebuilt by ``generators/fixtures.py`` and
must reproduce the engine's SHA-256 digests, so they are the engine's graphs byte for byte.
"""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
MANIFESTS = REPO / "golden" / "recorded" / "manifests"


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
