"""The review sample (issue 16): mutants made without mutmut, scored the way the issue's reviewer did.

``python -m tests.mutation.review [GROUP ...]`` (or ``tox -e mutation-review``). mutmut's mutants are the
*tuning* set: tests were written against its survivors, so its scores say how well that was done, not how
well the tests catch bugs nobody looked for. This tool draws a second set from a different generator —
the reviewer's kinds: comparison flips, ``and``/``or`` swaps, constants changed, ``return`` values dropped,
``raise`` deleted, conditions negated — ``--per-module`` of them (default 60) per module of
``tests/mutation/modules.toml``, by a seeded choice (``--seed``), and runs each against its group's own
test directory. Only the tests that run the mutated statement are run, quickest first (a map from statement to
test case, recorded once with coverage's contexts in the scratch copy, with each test's time); a mutated line
no test runs is a survivor.

A verdict: ``killed`` (pytest failed, or collection broke), ``timeout`` (counted as killed, reported
apart), ``survived``, ``no tests`` (not killed), ``error`` (pytest itself could not run: neither killed
nor considered, and named in the report — a run with errors is not a score). Equivalent mutants of this
sample are listed, with reasons, in ``tests/mutation/review-equivalent.toml``; each listing quotes the
original and mutated text, so an edit that moves the code makes the listing stale (named) rather than
silently wrong.

Keeping the sample a review sample: write no test from this tool's survivors before its score is
recorded in docs/testing.md. Tests written from them afterwards make that seed a tuning sample too; the
next review takes a new ``--seed``.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from collections import Counter
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Final

from tests.mutation.run import REPO, Group, copy_checkout, load_groups, pytest_args, tally
from tests.mutation.selection import ordered

HERE: Final = Path(__file__).resolve().parent
KINDS: Final = ("comparison", "boolean", "constant", "return", "raise", "condition")
FLIPS: Final[dict[type[ast.cmpop], type[ast.cmpop]]] = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq, ast.NotEq: ast.Eq,
    ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is,
}
KILLED: Final = frozenset({"killed", "timeout"})
NOT_CONSIDERED: Final = frozenset({"equivalent", "error"})
TIMEOUT_SECONDS: Final = 180


@dataclass(frozen=True)
class Mutant:
    """One mutation: the source text from (line, col) to (end_line, end_col) replaced."""

    module: str  # path in the checkout, e.g. contract/core/strictjson.py
    function: str  # qualified name of the enclosing function
    kind: str
    line: int
    col: int
    end_line: int
    end_col: int
    statement_line: int  # first line of the enclosing statement: what coverage records
    original: str
    replacement: str
    variant: int = 0  # the operator's index in a chained comparison

    @property
    def name(self) -> str:
        return f"{self.module}:{self.line}:{self.col}:{self.kind}" + (f":{self.variant}" if self.variant else "")

    def apply(self, source: str) -> str:
        lines = source.splitlines(keepends=True)
        start = sum(len(text) for text in lines[: self.line - 1]) + _byte_to_char(lines[self.line - 1], self.col)
        end = sum(len(text) for text in lines[: self.end_line - 1]) + _byte_to_char(lines[self.end_line - 1], self.end_col)
        if source[start:end] != self.original:
            raise ValueError(f"{self.name}: the source no longer reads {self.original!r} there")
        return source[:start] + self.replacement + source[end:]


def _byte_to_char(line: str, offset: int) -> int:
    """ast's column offsets count UTF-8 bytes."""
    return len(line.encode("utf-8")[:offset].decode("utf-8"))


def _constant(value: object) -> str | None:
    if isinstance(value, bool):
        return repr(not value)
    if isinstance(value, int):
        return repr(value + 1)
    if isinstance(value, float):
        return repr(value + 1.0)
    if isinstance(value, str):
        return repr(value + "X") if value else repr("X")
    if isinstance(value, bytes):
        return repr(value + b"X")
    return None


class _Finder(ast.NodeVisitor):
    """Every mutation point inside a function body (not annotations, decorators, docstrings, f-strings)."""

    def __init__(self, module: str, source: str) -> None:
        self.module = module
        self.source = source
        self.found: list[Mutant] = []
        self.scope: list[str] = []
        self.statement: list[int] = []

    def _add(self, node: ast.AST, kind: str, replacement: str, variant: int = 0) -> None:
        original = ast.get_source_segment(self.source, node)
        if original is None or original == replacement:
            return
        self.found.append(Mutant(self.module, ".".join(self.scope), kind, node.lineno, node.col_offset,  # type: ignore[attr-defined]
                                 node.end_lineno, node.end_col_offset, self.statement[-1], original,  # type: ignore[attr-defined]
                                 replacement, variant))

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.scope.append(node.name)
        body = node.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                and isinstance(body[0].value.value, str):
            body = body[1:]  # the docstring
        for default in node.args.defaults + [d for d in node.args.kw_defaults if d is not None]:
            # evaluated once, at import; what runs it per test is the body
            self.statement.append(body[0].lineno if body else node.lineno)
            self.visit(default)
            self.statement.pop()
        for statement in body:
            self.visit(statement)
        self.scope.pop()

    visit_FunctionDef = _function
    visit_AsyncFunctionDef = _function

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.scope.append(node.name)
        for statement in node.body:
            if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                self.visit(statement)
        self.scope.pop()

    def visit_Module(self, node: ast.Module) -> None:
        for statement in node.body:  # module-level code runs at import only: not sampled
            if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                self.visit(statement)

    def generic_visit(self, node: ast.AST) -> None:
        if not self.scope:
            return
        is_statement = isinstance(node, ast.stmt)
        if is_statement:
            self.statement.append(node.lineno)  # type: ignore[attr-defined]
        self._mutate(node)
        for name, value in ast.iter_fields(node):
            if name in ("annotation", "returns", "decorator_list", "type_comment"):
                continue
            for child in value if isinstance(value, list) else [value]:
                if isinstance(child, ast.AST):
                    self.visit(child)
        if is_statement:
            self.statement.pop()

    def visit_JoinedStr(self, node: ast.JoinedStr) -> None:
        for value in node.values:  # the placeholders' expressions, not the literal text
            if isinstance(value, ast.FormattedValue):
                self.visit(value.value)

    def _mutate(self, node: ast.AST) -> None:
        if isinstance(node, ast.Compare):
            for index, op in enumerate(node.ops):
                flipped = FLIPS.get(type(op))
                if flipped is not None:
                    ops = list(node.ops)
                    ops[index] = flipped()
                    self._add(node, "comparison", f"({ast.unparse(ast.Compare(node.left, ops, node.comparators))})", index)
        elif isinstance(node, ast.BoolOp):
            other = ast.Or() if isinstance(node.op, ast.And) else ast.And()
            self._add(node, "boolean", f"({ast.unparse(ast.BoolOp(other, node.values))})")
        elif isinstance(node, ast.Constant):
            replacement = _constant(node.value)
            if replacement is not None:
                self._add(node, "constant", replacement)
        elif isinstance(node, ast.Return) and node.value is not None \
                and not (isinstance(node.value, ast.Constant) and node.value.value is None):
            self._add(node, "return", "return None")
        elif isinstance(node, ast.Raise):
            self._add(node, "raise", "pass")
        elif isinstance(node, (ast.If, ast.While, ast.IfExp)):
            self._negate(node.test)
        elif isinstance(node, ast.comprehension):
            for condition in node.ifs:
                self._negate(condition)

    def _negate(self, test: ast.expr) -> None:
        if isinstance(test, ast.Compare) and len(test.ops) == 1 \
                and isinstance(test.ops[0], (ast.Eq, ast.NotEq, ast.In, ast.NotIn, ast.Is, ast.IsNot)):
            return  # negating it is its comparison flip, already a mutant
        original = ast.get_source_segment(self.source, test)
        if original is not None:
            self._add(test, "condition", f"(not ({original}))")


def mutants_of(module: str, source: str) -> list[Mutant]:
    finder = _Finder(module, source)
    finder.visit(ast.parse(source))
    return finder.found


def sample(mutants: list[Mutant], per_module: int, seed: str) -> list[Mutant]:
    """``per_module`` of ``mutants`` (all of them if fewer), by a choice seeded with ``seed`` and the module."""
    if len(mutants) <= per_module:
        return list(mutants)
    module = mutants[0].module
    chosen = random.Random(f"{seed}:{module}").sample(range(len(mutants)), per_module)
    return [mutants[i] for i in sorted(chosen)]


# --- which tests run which statement -------------------------------------------------------------------

_COVERAGE_SCRIPT: Final = """
import json, sys
import coverage, pytest
out, modules, args = sys.argv[1], sys.argv[2].split(","), sys.argv[3:]
cov = coverage.Coverage(data_file=None, include=modules)
durations = {}
class Contexts:
    def pytest_runtest_setup(self, item): cov.switch_context(item.nodeid)
    def pytest_runtest_logreport(self, report):
        if report.when == "call": durations[report.nodeid] = report.duration
cov.start()
code = pytest.main(args, plugins=[Contexts()])
cov.stop()
data = cov.get_data()
found = {}
for path in data.measured_files():
    lines = data.contexts_by_lineno(path)
    found[path] = {str(line): sorted(contexts) for line, contexts in lines.items()}
json.dump({"exit": int(code), "files": found, "durations": durations}, open(out, "w"))
"""


def _environment(scratch: Path) -> dict[str, str]:
    # MUTANT_UNDER_TEST: tests/conftest.py then clears the kit's cached loaders before each test, so a
    # cached function runs (and is recorded) in every test that calls it, not only in the first
    return dict(os.environ, PYTHONPATH=str(scratch), PYTHONDONTWRITEBYTECODE="1",
                DICECHESS_HYPOTHESIS_PROFILE="mutation", MUTANT_UNDER_TEST="review")


def coverage_map(group: Group, scratch: Path, *, cases: bool = False) -> dict[str, dict[int, set[str]]]:
    """Module -> statement line -> test functions (node ids without parameters) that run it; with ``cases``,
    the node ids as recorded, one per parametrized case."""
    out = scratch / f"coverage-{group.name}.json"
    if not out.exists():
        modules = ",".join(str(scratch / m) for m in group.modules)
        args = [sys.executable, "-c", _COVERAGE_SCRIPT, str(out), modules, *group.tests, *pytest_args(group)]
        with open(scratch / f"coverage-{group.name}.log", "wb") as log:
            subprocess.run(args, cwd=scratch, env=_environment(scratch), check=False, stdout=log, stderr=log)
    data = json.loads(out.read_text(encoding="utf-8"))
    if data["exit"] != 0:
        raise SystemExit(f"the unmutated tests of group {group.name} did not pass (pytest exit {data['exit']}); "
                         f"see {scratch / f'coverage-{group.name}.log'}")
    found: dict[str, dict[int, set[str]]] = {}
    for path, lines in data["files"].items():
        module = str(Path(path).relative_to(scratch))
        found[module] = {int(line): {c if cases else c.split("[", 1)[0] for c in contexts}
                         for line, contexts in lines.items()}
    return found


def test_durations(group: Group, scratch: Path) -> dict[str, float]:
    """Seconds each test (node id) took in the coverage pass (recorded by :func:`coverage_map`)."""
    data = json.loads((scratch / f"coverage-{group.name}.json").read_text(encoding="utf-8"))
    return {test: float(seconds) for test, seconds in data.get("durations", {}).items()}


def selection_for(mutant: Mutant, lines: dict[str, dict[int, set[str]]], group: Group,
                  durations: dict[str, float] | None = None) -> list[str]:
    """The tests that run the mutated statement, quickest first (``pytest -x`` stops at the first failure); the
    group's whole selection for a statement that runs only at import (every test imports it); none for a
    statement nothing runs."""
    tests = lines.get(mutant.module, {}).get(mutant.statement_line)
    if tests is None:
        return []
    return ordered(tests - {""}, durations or {}) or list(group.tests)


# --- running one mutant ----------------------------------------------------------------------------------

def run_mutant(mutant: Mutant, tests: list[str], group: Group, scratch: Path) -> str:
    if not tests:
        return "no tests"
    path = scratch / mutant.module
    original = path.read_text(encoding="utf-8")
    for stale in (path.parent / "__pycache__").glob(f"{path.stem}.*.pyc"):
        stale.unlink()
    path.write_text(mutant.apply(original), encoding="utf-8")
    try:
        done = subprocess.run([sys.executable, "-m", "pytest", "-x", *pytest_args(group), *tests], cwd=scratch,
                              env=_environment(scratch), check=False, capture_output=True, text=True,
                              errors="replace", timeout=TIMEOUT_SECONDS)
    except subprocess.TimeoutExpired:
        return "timeout"
    finally:
        path.write_text(original, encoding="utf-8")
    return verdict_of(done.returncode, done.stdout + done.stderr)


def verdict_of(code: int, output: str) -> str:
    """pytest's exit code: 0 every test passed; 1 a test failed; 2 collection broke (a test module did not
    import); 4 with a conftest or a named test module that did not import (the mutant breaks the kit's
    import: pytest then reports the named tests as not found); 5 none ran. Any other 3 or 4 is pytest's
    own failure (a test id not found, say): an error, never a kill."""
    if code == 4 and ("while loading conftest" in output or "ERROR collecting" in output):
        return "killed"
    return {0: "survived", 1: "killed", 2: "killed", 5: "no tests"}.get(code, "error")


def load_review_equivalent(path: Path = HERE / "review-equivalent.toml") -> dict[str, dict[str, str]]:
    """Listed mutant name -> its listing (``original``, ``replacement``, ``reason``)."""
    if not path.exists():
        return {}
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return {entry["mutant"]: entry for entry in data.get("equivalent", [])}


def is_listed(mutant: Mutant, equivalent: dict[str, dict[str, str]]) -> bool:
    """Listed under its name with the same texts: a listing whose code moved or changed does not apply."""
    listing = equivalent.get(mutant.name)
    return listing is not None and (listing["original"], listing["replacement"]) == (mutant.original, mutant.replacement)


def stale_listings(mutants: list[Mutant], equivalent: dict[str, dict[str, str]]) -> list[str]:
    """Listings for the sampled modules that match no sampled mutant (moved, changed, or not sampled)."""
    modules = {m.module for m in mutants}
    matched = {m.name for m in mutants if is_listed(m, equivalent)}
    return sorted(name for name in equivalent if name.split(":", 1)[0] in modules and name not in matched)


def score(results: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per module: counts of each verdict, killed / considered (equivalents and errors left out)."""
    counts: dict[str, Counter[str]] = {}
    for result in results.values():
        counts.setdefault(result["module"], Counter())[result["verdict"]] += 1
    return {module: tally(seen, KILLED, NOT_CONSIDERED) for module, seen in sorted(counts.items())}


def _scratch(workdir: Path) -> Path:
    scratch = Path(tempfile.mkdtemp(prefix="mutation-review-", dir=workdir))
    copy_checkout(scratch)
    return scratch


def _chosen(group: Group, per_module: int, seed: str) -> Iterator[Mutant]:
    for module in group.modules:
        yield from sample(mutants_of(module, (REPO / module).read_text(encoding="utf-8")), per_module, seed)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.mutation.review", description=__doc__.splitlines()[0])
    parser.add_argument("groups", nargs="*", help="groups of tests/mutation/modules.toml (default: all)")
    parser.add_argument("--seed", default="review-1", help="seed of the sample (a new one once tests were written from it)")
    parser.add_argument("--per-module", type=int, default=60)
    parser.add_argument("--module", action="append", help="only these modules (paths as in modules.toml)")
    parser.add_argument("--report", type=Path, help="write verdicts and scores here as JSON (kept across runs: resumed)")
    parser.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()))
    parser.add_argument("--list", action="store_true", help="print the sample, run nothing")
    args = parser.parse_args(argv)
    groups = load_groups()
    chosen_groups = args.groups or list(groups)
    unknown = [g for g in chosen_groups if g not in groups]
    if unknown:
        parser.error(f"unknown group(s): {', '.join(unknown)}; known: {', '.join(groups)}")
    equivalent = load_review_equivalent()
    report: dict[str, Any] = {"seed": args.seed, "per_module": args.per_module, "results": {}}
    if args.report is not None and args.report.exists():
        earlier = json.loads(args.report.read_text(encoding="utf-8"))
        if (earlier.get("seed"), earlier.get("per_module")) == (args.seed, args.per_module):
            report = earlier
    results: dict[str, dict[str, Any]] = report["results"]
    sampled: list[Mutant] = []
    for name in chosen_groups:
        group = groups[name]
        mutants = [m for m in _chosen(group, args.per_module, args.seed) if not args.module or m.module in args.module]
        sampled += mutants
        if args.list:
            for mutant in mutants:
                print(f"{mutant.name}\t{mutant.original!r} -> {mutant.replacement!r}")
            continue
        scratch = _scratch(args.workdir)
        try:
            started = time.monotonic()
            lines = coverage_map(group, scratch, cases=True)
            durations = test_durations(group, scratch)
            for mutant in mutants:
                if is_listed(mutant, equivalent):
                    verdict = "equivalent"
                elif mutant.name in results and results[mutant.name]["verdict"] != "error" \
                        and {**results[mutant.name], "verdict": None} == {**asdict(mutant), "verdict": None}:
                    continue  # resumed: this mutant, unchanged, has its verdict
                else:
                    verdict = run_mutant(mutant, selection_for(mutant, lines, group, durations), group, scratch)
                results[mutant.name] = {**asdict(mutant), "verdict": verdict}
                if args.report is not None:
                    report["scores"] = score(results)
                    _write(args.report, report)
            print(f"{name}: {len(mutants)} mutants in {time.monotonic() - started:.0f} s")
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
    if args.list:
        return 0
    # a mutant the generator no longer makes (the code or the generator changed) leaves the report
    names, modules = {m.name for m in sampled}, {m.module for m in sampled}
    results = report["results"] = {k: v for k, v in results.items() if k in names or v["module"] not in modules}
    report["scores"] = score(results)
    report["stale_listings"] = stale_listings(sampled, equivalent)
    if args.report is not None:
        _write(args.report, report)
    print(json.dumps(report["scores"], indent=2))
    for result in sorted(results.values(), key=lambda r: (r["module"], r["line"])):
        if result["verdict"] not in KILLED and result["verdict"] != "equivalent":
            print(f"{result['verdict']}: {result['module']}:{result['line']} {result['function']} "
                  f"{result['original']!r} -> {result['replacement']!r}")
    for stale in report["stale_listings"]:
        print(f"review-equivalent.toml lists {stale}, which no sampled mutant matches: moved or changed? check it")
    return 1 if any(r["verdict"] == "error" for r in results.values()) else 0


def _write(path: Path, data: dict[str, Any]) -> None:
    staged = path.with_name(f".{path.name}.partial")
    staged.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    staged.replace(path)


if __name__ == "__main__":
    sys.exit(main())
