"""The enrichment package's layout: which folder may import which, and no import cycle between its modules.

The imports are read with :mod:`ast` from the source (nothing is imported), every ``import`` and ``from … import``
statement counted wherever it stands (inside functions too). ``LAYERS`` is the allowed direction as data: a module
may import from its own layer or a lower one, never from a higher one. The package's ``__init__`` (the public
names) is outside the layers: it imports from every layer and nothing imports it by module path.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = "contract.enrichment"
ROOT = Path(__file__).resolve().parents[2] / "contract" / "enrichment"

# folder (a sub-package; "" = the package's own modules) -> layer; imports go to the same or a lower layer only
LAYERS: dict[str, int] = {"": 0, "parquet": 1, "formats": 2, "runs": 3}


def module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join((PACKAGE, *parts))


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """The package's modules ``path`` imports (``from pkg import mod`` counted as ``pkg.mod`` when that is a module)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module is not None and node.level == 0:
            names = [f"{node.module}.{alias.name}" for alias in node.names] + [node.module]
        else:
            continue
        found.update(name for name in names if name in modules)
    return found


def graph(root: Path = ROOT) -> dict[str, set[str]]:
    paths = {module_name(path, root): path for path in root.rglob("*.py")}
    modules = set(paths)
    edges = {name: imports_of(path, modules) - {name} for name, path in paths.items()}
    # a package's __init__ is imported with any of its modules: count nothing else for it (packages hold docstrings)
    return {name: {target for target in targets if target != PACKAGE} for name, targets in edges.items()
            if name != PACKAGE}


def folder(module: str) -> str:
    parts = module[len(PACKAGE) + 1:].split(".") if module != PACKAGE else []
    return parts[0] if len(parts) > 1 or (parts and parts[0] in LAYERS) else ""


def upward(edges: dict[str, set[str]]) -> list[str]:
    return sorted(f"{source} imports {target} ({folder(source) or 'base'} -> {folder(target) or 'base'})"
                  for source, targets in edges.items() for target in targets
                  if LAYERS[folder(target)] > LAYERS[folder(source)])


def cycle(edges: dict[str, set[str]]) -> list[str]:
    """One import cycle as a path of modules, or ``[]``."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        stack.append(node)
        for target in sorted(edges.get(node, ())):
            if state.get(target) == 1:
                return [*stack[stack.index(target):], target]
            if target not in state and (found := visit(target)):
                return found
        stack.pop()
        state[node] = 2
        return []

    for node in sorted(edges):
        if node not in state and (found := visit(node)):
            return found
    return []


def test_every_folder_has_a_layer() -> None:
    folders = {path.parent.name for path in ROOT.glob("*/__init__.py")}
    assert folders == set(LAYERS) - {""}


def test_no_module_imports_from_a_higher_layer() -> None:
    assert upward(graph()) == []


def test_no_import_cycle() -> None:
    assert cycle(graph()) == []


def test_the_checks_see_a_bad_import(tmp_path: Path) -> None:
    """A copy of the package with one planted upward import (which also closes a cycle) fails both checks."""
    import shutil

    copy = tmp_path / "enrichment"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns("__pycache__"))
    pool = copy / "runs" / "pool.py"
    budget = copy / "parquet" / "budget.py"
    budget.write_text(budget.read_text(encoding="utf-8") + "\nfrom contract.enrichment.runs import shards\n",
                      encoding="utf-8")
    assert "import pool" not in pool.read_text(encoding="utf-8")
    edges = graph(copy)
    assert upward(edges) == [
        "contract.enrichment.parquet.budget imports contract.enrichment.runs (parquet -> runs)",
        "contract.enrichment.parquet.budget imports contract.enrichment.runs.shards (parquet -> runs)"]
    assert cycle(edges)[0] == cycle(edges)[-1]
