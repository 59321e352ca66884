"""No import cycles between modules of the kit and its generators.

Static: every ``import``/``from ... import`` anywhere in a module (function-level ones too) is an
edge. An edge into a package's ``__init__`` is left out: re-exporting submodules from a package is
not a cycle between modules. ``contract.golden`` imports the generators by name at run time, so no
generator may import ``contract.golden``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

pytestmark = pytest.mark.source  # reads the source, not the behaviour

ROOT = Path(__file__).resolve().parents[2]


def _modules() -> dict[str, Path]:
    found = {}
    for base in ("contract", "generators"):
        for path in (ROOT / base).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names |= {node.module} | {f"{node.module}.{alias.name}" for alias in node.names}
    return names


def _graph() -> tuple[dict[str, set[str]], set[str]]:
    modules = _modules()
    packages = {name for name, path in modules.items() if path.name == "__init__.py"}
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for imported in _imports(path):
            target = imported
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name:
                graph[name].add(target)
    return graph, packages


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
    graph, packages = _graph()
    assert len(graph) > 50 and any(graph.values())  # the scan sees the tree and its imports
    plain = {name: {t for t in targets if t not in packages} for name, targets in graph.items()}
    cycles = [cycle for name in plain if (cycle := _cycle_from(plain, name)) is not None]
    assert cycles == []


def test_generators_never_import_the_golden_package() -> None:
    graph, _ = _graph()
    offenders = {name: sorted(t for t in targets if t.startswith("contract.golden"))
                 for name, targets in graph.items() if name.startswith("generators")}
    assert {name: targets for name, targets in offenders.items() if targets} == {}
