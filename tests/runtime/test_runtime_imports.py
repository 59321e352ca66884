"""No import cycles between modules of the kit and its generators.

Static: every ``import``/``from ... import`` anywhere in a module (function-level ones too, relative
ones resolved) is an edge. A package's ``__init__`` is a module like any other: importing a package, or
a name it re-exports (``from contract.features import parse_fen``), is an edge into its ``__init__``,
and the ``__init__``'s own imports of its submodules are edges out of it, so a cycle that runs through
a re-export is found. ``from package import submodule`` is an edge to the submodule. ``contract.golden``
imports the generators by name at run time, so no generator may import ``contract.golden``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

pytestmark = pytest.mark.source  # reads the source, not the behaviour

ROOT = Path(__file__).resolve().parents[2]


def _modules(root: Path = ROOT, bases: tuple[str, ...] = ("contract", "generators")) -> dict[str, Path]:
    found = {}
    for base in bases:
        for path in (root / base).rglob("*.py"):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def _imports(name: str, path: Path) -> set[str]:
    """Dotted names this module imports; ``from a import b`` gives ``a.b`` (a submodule or a name in ``a``)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            names |= {f"{module}.{alias.name}" for alias in node.names}
    return names


def _graph(modules: dict[str, Path] | None = None) -> dict[str, set[str]]:
    """Module -> the modules it imports; a name that is no module resolves to its nearest enclosing module."""
    modules = _modules() if modules is None else modules
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for imported in _imports(name, path):
            target = imported
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name:
                graph[name].add(target)
    return graph


def _cycle_from(graph: dict[str, set[str]], start: str) -> list[str] | None:
    """A path start -> ... -> start, if there is one (iterative depth-first search)."""
    stack = [(start, [start])]
    seen: set[str] = set()
    while stack:
        node, path = stack.pop()
        for nxt in graph[node]:
            if nxt == start:
                return [*path, start]
            if nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, [*path, nxt]))
    return None


def test_no_cycle_between_modules() -> None:
    graph = _graph()
    assert len(graph) > 50 and any(graph.values())  # the scan sees the tree and its imports
    cycles = [cycle for name in graph if (cycle := _cycle_from(graph, name)) is not None]
    assert cycles == []


def test_a_cycle_through_a_package_re_export_is_found(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("from pkg.a import f\n", encoding="utf-8")
    (package / "a.py").write_text("from .b import g\n\ndef f() -> None:\n    g()\n", encoding="utf-8")
    (package / "b.py").write_text("def g() -> None:\n    from pkg import f\n", encoding="utf-8")
    graph = _graph(_modules(tmp_path, ("pkg",)))
    assert graph == {"pkg": {"pkg.a"}, "pkg.a": {"pkg.b"}, "pkg.b": {"pkg"}}
    assert _cycle_from(graph, "pkg.b") == ["pkg.b", "pkg", "pkg.a", "pkg.b"]


def test_an_import_of_a_re_exported_name_is_an_edge_into_the_package() -> None:
    graph = _graph()
    # contract/features/__init__.py re-exports parse_fen from dfen; importing the package's names
    # goes through the __init__, whose own imports are edges to its submodules
    assert "contract.features.dfen" in graph["contract.features"]
    importers = {name for name, targets in graph.items() if "contract.features" in targets}
    assert importers - {"contract.features"}


def test_generators_never_import_the_golden_package() -> None:
    graph = _graph()
    offenders = {name: sorted(t for t in targets if t.startswith("contract.golden"))
                 for name, targets in graph.items() if name.startswith("generators")}
    assert {name: targets for name, targets in offenders.items() if targets} == {}
    # generators.vectors reads the recordings through the neutral readers (it labels each file with recordedBy)
    assert "contract.recordings.recorded" in graph["generators.vectors"]


def test_the_recording_readers_import_nothing_of_the_golden_package_or_the_generators() -> None:
    graph = _graph()
    readers = [name for name in graph if name.startswith("contract.recordings")]
    assert sorted(readers) == ["contract.recordings", "contract.recordings.enginelive", "contract.recordings.recorded",
                               "contract.recordings.rulelabel", "contract.recordings.vectorfile"]
    for name in readers:
        assert not [t for t in graph[name] if t.startswith(("contract.golden", "generators"))], name


def test_core_imports_nothing_of_vendoring() -> None:
    # vendoring is a feature (contract/vendoring/), not what every feature shares (contract/core/)
    graph = _graph()
    assert "contract.vendoring.vendored" in graph and "contract.core.cappedread" in graph
    offenders = {name: sorted(t for t in targets if t.startswith("contract.vendoring"))
                 for name, targets in graph.items() if name.startswith("contract.core")}
    assert {name: targets for name, targets in offenders.items() if targets} == {}
    assert not [name for name in graph if name.startswith("contract.core.vendor")]
