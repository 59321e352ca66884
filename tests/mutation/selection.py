"""Each mutmut mutant's tests chosen by coverage (issue 27): only the tests that run the mutated statement.

mutmut 3.8.1 runs a mutant against every test that *calls* the mutated function. For capture that is every
capture test: the search is one function called by all of them, and most of its mutants change a branch only
a few boards reach. The review tool (``tests/mutation/review.py``) already chooses by statement, from one
run of the group's unmutated tests under coverage with one context per test; this module applies the same map
to mutmut's own mutants:

- which lines a mutant changes: mutmut writes, beside each mutated file, the line span of every generated
  function (``mutants/<path>.spans``); the mutant's lines are compared with the unmutated copy's
  (``..._mutmut_orig``), and an offset from the ``def`` line is an offset in the checkout's function;
- which tests run them: the tests that ran any line of the statement around a changed line (a compound
  statement's header only), by the review tool's coverage map, at the review tool's grain (a test function,
  all its parameters);
- the mutant's tests are mutmut's own tests of the function that are among those. A mutant whose lines the
  map does not know (a signature, a line that runs only at import, a mutant the spans do not place) keeps
  mutmut's selection: the choice never runs fewer tests than a test that can see the change.

``python -m tests.mutation.selection run ...`` is ``mutmut run ...`` with that choice (``tests.mutation.run``
starts it so when the group says ``select_by_coverage = true``); ``python -m tests.mutation.selection
estimate SCRATCH`` prints, for a kept run, how many tests and how many estimated test seconds each mutant
costs under mutmut's choice and under this one.
"""

from __future__ import annotations

import ast
import difflib
import fnmatch
import json
import statistics
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

COVERAGE_FILE: Final = "coverage-selection.json"  # in the scratch copy, beside mutants/
SETTLED_FILE: Final = "settled-equivalent.json"  # names and patterns of equivalent.toml, written by run.py


def settled(name: str, listed: list[str]) -> bool:
    """Whether mutant ``name`` is listed (by name or fnmatch pattern) as equivalent or import-time: it is not
    run (mutmut records "no tests"; the score leaves it out by its listing)."""
    return any(name == entry or fnmatch.fnmatchcase(name, entry) for entry in listed)


def load_settled(scratch: Path) -> list[str]:
    path = scratch / SETTLED_FILE
    return [str(entry) for entry in json.loads(path.read_text(encoding="utf-8"))] if path.exists() else []


def changed_offsets(original: list[str], mutant: list[str]) -> set[int]:
    """Offsets (0-based, from the function's first line) of the lines of ``original`` that ``mutant``
    replaces or deletes; an insertion counts on the line it follows."""
    changed: set[int] = set()
    for tag, start, end, _, _ in difflib.SequenceMatcher(a=original, b=mutant, autojunk=False).get_opcodes():
        if tag in ("replace", "delete"):
            changed.update(range(start, end))
        elif tag == "insert":
            changed.add(max(start - 1, 0))
    return changed


def _def_offset(lines: list[str]) -> int:
    return next(i for i, line in enumerate(lines) if line.lstrip().startswith(("def ", "async def ")))


def function_def_lines(source: str) -> dict[tuple[str | None, str], int]:
    """(class or None, function) -> the line of its ``def`` in ``source`` (module level and methods)."""
    found: dict[tuple[str | None, str], int] = {}
    tree = ast.parse(source)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found[(None, node.name)] = node.lineno
        elif isinstance(node, ast.ClassDef):
            for child in node.body:
                if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                    found[(node.name, child.name)] = child.lineno
    return found


def statement_spans(source: str) -> list[tuple[int, int]]:
    """(first, last) line of every statement; for a compound statement, of its header only."""
    spans: list[tuple[int, int]] = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.stmt):
            continue
        end = node.end_lineno or node.lineno
        bodies = [getattr(node, name) for name in ("body", "orelse", "finalbody", "handlers", "cases")
                  if getattr(node, name, None)]
        if bodies:
            end = min(block[0].lineno for block in bodies) - 1
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                end = max(end, node.lineno)
        spans.append((node.lineno, max(end, node.lineno)))
    return spans


def statement_lines(spans: list[tuple[int, int]], line: int) -> range:
    """The lines of the innermost statement around ``line`` (the line alone when none is)."""
    around = [s for s in spans if s[0] <= line <= s[1]]
    if not around:
        return range(line, line + 1)
    first, last = min(around, key=lambda s: s[1] - s[0])
    return range(first, last + 1)


def _names(mutant: str) -> tuple[str | None, str, str]:
    """``contract.x.xǁCǁf__mutmut_3`` -> ("C", "f", "xǁCǁf"); ``contract.x.x_f__mutmut_3`` -> (None, "f", "x_f")."""
    mangled = mutant.rpartition(".")[2].partition("__mutmut_")[0]
    if mangled.startswith("xǁ"):
        _, cls, function = mangled.split("ǁ", 2)
        return cls, function, mangled
    return None, mangled.removeprefix("x_"), mangled


def mutant_lines(original: str, mutated: list[str], spans: dict[str, list[int]],
                 mutants: list[str]) -> dict[str, set[int]]:
    """Mutant name -> the lines of the checkout's ``original`` source it changes (mutants not placed: left out)."""
    defs = function_def_lines(original)
    placed: dict[str, set[int]] = {}
    for mutant in mutants:
        cls, function, mangled = _names(mutant)
        generated, orig = mutant.rpartition(".")[2], f"{mangled}__mutmut_orig"
        if generated not in spans or orig not in spans or (cls, function) not in defs:
            continue
        (a0, a1), (b0, b1) = spans[orig], spans[generated]
        orig_lines, mutant_lines_ = mutated[a0 - 1:a1], mutated[b0 - 1:b1]
        try:
            base = _def_offset(orig_lines)
            shift = _def_offset(mutant_lines_) - base
        except StopIteration:
            continue
        if shift != 0:
            continue
        changed = {off for off in changed_offsets(orig_lines, mutant_lines_) if off > base}
        if changed:
            placed[mutant] = {defs[(cls, function)] + off - base for off in changed}
    return placed


def choose_tests(scratch: Path, coverage: dict[str, dict[int, set[str]]],
                    tests_by_function: dict[str, set[str]], mutants: list[str]) -> dict[str, set[str]]:
    """Mutant name -> mutmut's tests of its function that run one of the statements it changes; mutants
    this cannot place are left out (mutmut's own choice stands for them)."""
    chosen: dict[str, set[str]] = {}
    by_module: dict[str, list[str]] = {}
    for mutant in mutants:
        by_module.setdefault(mutant.partition("__mutmut_")[0].rpartition(".")[0], []).append(mutant)
    for module, names in by_module.items():
        path = module.replace(".", "/") + ".py"
        spans_file = scratch / "mutants" / (path + ".spans")
        if not spans_file.exists() or not (scratch / path).exists() or path not in coverage:
            continue
        spans = json.loads(spans_file.read_text(encoding="utf-8"))["spans"]
        source = (scratch / path).read_text(encoding="utf-8")
        mutated = (scratch / "mutants" / path).read_text(encoding="utf-8").splitlines()
        statements = statement_spans(source)
        lines = coverage[path]
        for mutant, changed in mutant_lines(source, mutated, spans, names).items():
            running: set[str] = set()
            for line in changed:
                for statement_line in statement_lines(statements, line):
                    running |= lines.get(statement_line, set())
            running.discard("")
            if not running:
                continue  # only at import, or nothing the map knows: mutmut's choice stands
            mangled = mutant.partition("__mutmut_")[0]
            chosen[mutant] = {t for t in tests_by_function.get(mangled, set()) if ran(t, running)}
    return chosen


def ran(test: str, running: set[str]) -> bool:
    """Whether mutmut's test id ``test`` is among ``running``: the map names each parametrized case
    (``t.py::test_f[1]``), or, recorded at the review tool's grain, the test function (``t.py::test_f``)."""
    return test in running or test.split("[", 1)[0] in running


def ordered(tests: set[str], duration: dict[str, float]) -> list[str]:
    """``tests`` in the order a mutant runs them: the quickest first (mutmut's clean-run seconds; a test it
    has no time for last), so that ``pytest -x`` stops at the cheapest failure a mutant causes."""
    return sorted(tests, key=lambda t: (duration.get(t, float("inf")), t))


def load_coverage(scratch: Path) -> dict[str, dict[int, set[str]]]:
    data = json.loads((scratch / COVERAGE_FILE).read_text(encoding="utf-8"))
    return {module: {int(line): set(tests) for line, tests in lines.items()} for module, lines in data.items()}


def save_coverage(scratch: Path, coverage: dict[str, dict[int, set[str]]]) -> None:
    data = {module: {str(line): sorted(tests) for line, tests in lines.items()} for module, lines in coverage.items()}
    (scratch / COVERAGE_FILE).write_text(json.dumps(data), encoding="utf-8")


def _patched_lookup(original: Callable[[str], str], scratch: Path) -> Callable[[str], str]:
    """mutmut's ``mangled_name_from_mutant_name`` as its run loop uses it to find a mutant's tests: for a mutant
    with a coverage choice, its own name, under which that choice is entered in mutmut's test map. The choice
    is made again whenever mutmut's map of function -> tests has grown (its stats pass adds new tests)."""
    chosen: dict[str, set[str]] = {}
    made_for: int | None = None
    listed = load_settled(scratch)

    def lookup(name: str) -> str:
        nonlocal chosen, made_for
        from mutmut.state import state

        mangled = original(name)
        if "__mutmut_" not in name or name.endswith("__mutmut_orig") or not (scratch / COVERAGE_FILE).exists():
            return mangled
        if _called_from("_check_test_to_mutant_associations"):
            # mutmut's check before the run (were tests recorded for the mutants' functions at all?) compares
            # function names: it gets them, not the names the choices are entered under
            return mangled
        tests = state().tests_by_mangled_function_name
        functions = {k: set(v) for k, v in tests.items() if "__mutmut_" not in k}
        size = sum(len(v) for v in functions.values())
        if size == 0:
            return mangled  # before the stats pass: mutmut's choice
        if settled(name, listed):
            tests[name] = []  # type: ignore[assignment]  # a listed equivalent: settled, not run
            return name
        if size != made_for:
            chosen = choose_tests(scratch, load_coverage(scratch), functions, _mutant_names(scratch))
            made_for = size
        # entered under the mutant's own name as a list: mutmut hands it to pytest in this order (a mutant not
        # placed keeps all of mutmut's tests of its function, ordered the same way)
        tests[name] = ordered(chosen.get(name, set(functions.get(mangled, set()))), state().duration_by_test)  # type: ignore[assignment]
        return name

    return lookup


def _called_from(function: str, depth: int = 4) -> bool:
    """Whether ``function`` is among the callers of the caller (a comprehension is a frame of its own)."""
    frame = sys._getframe(2)
    for _ in range(depth):
        if frame is None:
            return False
        if frame.f_code.co_name == function:
            return True
        frame = frame.f_back
    return False


def _mutant_names(scratch: Path) -> list[str]:
    return [m for meta in (scratch / "mutants").rglob("*.py.meta")
            for m in json.loads(meta.read_text(encoding="utf-8")).get("exit_code_by_key", {})]


def estimate(scratch: Path) -> dict[str, Any]:
    """For a kept run: tests and estimated test seconds per mutant, mutmut's choice against the coverage one."""
    stats = json.loads((scratch / "mutants" / "mutmut-stats.json").read_text(encoding="utf-8"))
    duration: dict[str, float] = stats["duration_by_test"]
    functions = {k: set(v) for k, v in stats["tests_by_mangled_function_name"].items() if "__mutmut_" not in k}
    mutants = _mutant_names(scratch)
    chosen = choose_tests(scratch, load_coverage(scratch), functions, mutants)
    rows: dict[str, dict[str, list[float]]] = {}
    for mutant in mutants:
        module = mutant.partition("__mutmut_")[0].rpartition(".")[0]
        by_function = functions.get(mutant.partition("__mutmut_")[0], set())
        by_coverage = chosen.get(mutant, by_function)
        row = rows.setdefault(module, {"function_tests": [], "coverage_tests": [], "function_s": [],
                                       "coverage_s": []})
        row["function_tests"].append(len(by_function))
        row["coverage_tests"].append(len(by_coverage))
        row["function_s"].append(sum(duration.get(t, 0.0) for t in by_function))
        row["coverage_s"].append(sum(duration.get(t, 0.0) for t in by_coverage))
    return {module: {"mutants": len(row["function_tests"]), "placed": sum(m in chosen for m in mutants
                                                                          if m.startswith(module + ".")),
                     "median_tests": {"function": statistics.median(row["function_tests"]),
                                      "coverage": statistics.median(row["coverage_tests"])},
                     "total_test_seconds": {"function": round(sum(row["function_s"])),
                                            "coverage": round(sum(row["coverage_s"]))}}
            for module, row in sorted(rows.items())}


def main(argv: list[str]) -> int:
    if argv[:1] == ["estimate"] and len(argv) == 2:
        print(json.dumps(estimate(Path(argv[1])), indent=2))
        return 0
    import mutmut.__main__ as mutmut_main

    mutmut_main.mangled_name_from_mutant_name = _patched_lookup(  # type: ignore[attr-defined,assignment]
        mutmut_main.mangled_name_from_mutant_name, Path.cwd())  # type: ignore[attr-defined]
    sys.argv = ["mutmut", *argv]
    mutmut_main.cli()
    return 0


if __name__ == "__main__":
    # started as a script: its own directory (run.py, review.py ...) must not shadow anything mutmut imports
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
    sys.exit(main(sys.argv[1:]))
