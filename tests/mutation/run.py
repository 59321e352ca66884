"""Mutation testing on demand (issue 16): ``python -m tests.mutation.run [GROUP ...]`` (or ``tox -e mutation``).

For each group of ``tests/mutation/modules.toml`` it lays a scratch copy of the checkout, writes the
group's mutmut configuration there (the modules to mutate, the group's own test directory), runs
``mutmut run`` and reads the verdict of every mutant from mutmut's ``.meta`` files. mutmut's mutants
are the *tuning* set: tests are written against their survivors. The *review* sample, which no test
was written against, comes from another generator (``tests/mutation/review.py``). Equivalent mutants
(``tests/mutation/equivalent.toml``, each with its reason) are left out of the scores. The summary is printed and written as JSON
(``--report``). Nothing in the checkout is modified; the scratch copy is removed unless ``--keep``.

mutmut runs one mutant at a time per child (``--max-children``, default 1: the machine is shared).
The Hypothesis profile of the mutant runs is ``quick`` unless ``--hypothesis-profile`` says otherwise: a
surviving mutant runs every test that calls it, and at the ``default`` profile one property test costs
half a minute per mutant; the exact-outcome tests, not the properties, are what kill mutants.
Tests marked ``slow`` (end-to-end runs, the corpus's parser-exhausting cases) and ``source`` (they read
the source text, which under mutmut is its rewritten copy) are left out: a surviving mutant runs every
test that calls its function, and one 9-second test called by 800 mutants is two hours.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

REPO: Final = Path(__file__).resolve().parents[2]
HERE: Final = Path(__file__).resolve().parent
COPIED: Final = ("contract", "tests", "schema", "grammar", "golden", "generators", "pyproject.toml")
KILLED: Final = frozenset({"killed", "timeout", "caught by type check", "segfault"})
# Not in a score: equivalent mutants and mutants of code that runs only at import (both listed, with
# reasons, in equivalent.toml). A mutant no test of the group calls ("no tests") counts as not killed.
EXCLUDED: Final = frozenset({"equivalent", "import-time", "skipped", "not checked"})
NOT_RUN: Final = "not checked"  # mutmut's word for a mutant it has not run yet (a run stopped early)


@dataclass(frozen=True)
class Group:
    name: str
    tests: list[str]
    exclude_tests: list[str]
    modules: list[str]
    deselect: list[str] = field(default_factory=list)
    timeout_multiplier: float | None = None  # mutmut's default is 15: a mutant gets 30x its tests' time
    select_by_coverage: bool = False  # each mutant's tests chosen by statement (tests/mutation/selection.py)


def load_groups(path: Path = HERE / "modules.toml") -> dict[str, Group]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return {name: Group(name, g["tests"], g.get("exclude_tests", []), g["modules"], g.get("deselect", []),
                        g.get("timeout_multiplier"), g.get("select_by_coverage", False))
            for name, g in data["groups"].items()}


def load_equivalent(path: Path = HERE / "equivalent.toml") -> dict[str, str]:
    """Mutant name -> its kind: ``equivalent`` (cannot change behaviour) or ``import-time`` (see the file)."""
    if not path.exists():
        return {}
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return {entry["mutant"]: entry.get("kind", "equivalent") for entry in data.get("equivalent", [])}


def listed_kind(mutant: str, equivalent: dict[str, str]) -> str | None:
    """The kind under which ``mutant`` is listed (a name, or a pattern such as ``...x__read_string__mutmut_*``)."""
    if mutant in equivalent:
        return equivalent[mutant]
    return next((kind for pattern, kind in equivalent.items() if fnmatch.fnmatchcase(mutant, pattern)), None)


def pytest_args(group: Group) -> list[str]:
    """pytest's options for any mutant run of ``group`` (mutmut's and the review tool's): no cache, no
    ``slow`` or ``source`` tests, the group's ignored files and deselected tests."""
    return ["-p", "no:cacheprovider", "-q", "-m", "not source and not slow",
            *[f"--ignore={t}" for t in group.exclude_tests], *[f"--deselect={t}" for t in group.deselect]]


def tally(counts: Counter[str], killed: frozenset[str], excluded: frozenset[str]) -> dict[str, Any]:
    """One module's row: how many mutants, killed, considered (not ``excluded``), and the score."""
    considered = sum(n for status, n in counts.items() if status not in excluded)
    dead = sum(counts[status] for status in killed)
    return {"mutants": sum(counts.values()), "killed": dead, "considered": considered,
            "score": round(100 * dead / considered, 1) if considered else None, "counts": dict(counts)}


def _setup_cfg(group: Group) -> str:
    lines = ["[mutmut]", "source_paths = contract", "only_mutate ="]
    lines += [f"    {module}" for module in group.modules]
    lines += ["pytest_add_cli_args_test_selection ="] + [f"    {t}" for t in group.tests]
    lines += ["pytest_add_cli_args ="] + [f"    {arg}" for arg in pytest_args(group)]
    lines += ["also_copy ="] + [f"    {name}" for name in COPIED if name not in ("contract", "tests")]
    if group.timeout_multiplier is not None:
        lines += [f"timeout_multiplier = {group.timeout_multiplier}"]
    lines += ["use_git_change_detection = false", ""]
    return "\n".join(lines)


def _status_names() -> dict[int | None, str]:
    from mutmut.stats import status_by_exit_code

    return dict(status_by_exit_code)


def _verdicts(scratch: Path) -> dict[str, str]:
    names = _status_names()
    verdicts: dict[str, str] = {}
    for meta in (scratch / "mutants").rglob("*.py.meta"):
        data = json.loads(meta.read_text(encoding="utf-8"))
        for mutant, code in data.get("exit_code_by_key", {}).items():
            verdicts[mutant] = names.get(code, "suspicious")
    return verdicts


def module_of(mutant: str) -> str:
    """``contract.core.strictjson.x_parse__mutmut_3`` -> ``contract.core.strictjson``."""
    return mutant.rsplit(".", 1)[0]


def score(verdicts: dict[str, str], equivalent: dict[str, str]) -> dict[str, Any]:
    by_module: dict[str, Counter[str]] = {}
    for mutant, verdict in verdicts.items():
        by_module.setdefault(module_of(mutant), Counter())[listed_kind(mutant, equivalent) or verdict] += 1
    return {module: {**tally(counts, KILLED, EXCLUDED), "not_run": counts[NOT_RUN]}
            for module, counts in sorted(by_module.items())}


def copy_checkout(scratch: Path, names: tuple[str, ...] = COPIED) -> None:
    """The checkout's files into ``scratch``; a file whose content changed gets a fresh modification time.

    mutmut re-mutates a source file only when it is newer than its mutated copy; a checkout file can be
    older than that copy and still differ (a rebase, a merge), so the time is set from the content.
    """
    skipped = {"__pycache__", "node_modules"}
    for name in names:
        source = REPO / name
        files = [source] if source.is_file() else []
        for root, dirs, found in os.walk(source):
            dirs[:] = [d for d in dirs if d not in skipped]
            files += [Path(root) / f for f in found]
        for path in files:
            target = scratch / path.relative_to(REPO)
            if target.exists() and target.read_bytes() == path.read_bytes():
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)  # a new modification time: mutmut sees the change


def _mutmut(scratch: Path, max_children: int, profile: str, names: list[str], by_coverage: bool = False) -> int:
    # by coverage: mutmut's own run loop, started by a script outside the tests package (mutmut's pytest
    # imports the scratch copy's tests/ from mutants/), with each mutant's tests chosen by statement
    launcher = [str(HERE / "selection.py")] if by_coverage else ["-m", "mutmut"]
    mutmut = [sys.executable, *launcher, "run", f"--max-children={max_children}", *names]
    env = dict(os.environ, DICECHESS_HYPOTHESIS_PROFILE=profile)
    with open(scratch / "mutmut.log", "ab") as log:  # mutmut's progress spinner is for a terminal
        done = subprocess.run(mutmut, cwd=scratch, env=env, check=False, stdout=log, stderr=subprocess.STDOUT)
    return done.returncode


def _prune_stats(scratch: Path, group: Group) -> None:
    """Drop tests that no longer exist from mutmut's test map (it adds new tests, never forgets old ones,
    and a stale test id makes pytest refuse the whole run)."""
    stats_path = scratch / "mutants" / "mutmut-stats.json"
    if not stats_path.exists():
        return
    args = [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *group.tests,
            *[f"--ignore={t}" for t in group.exclude_tests]]
    listed = subprocess.run(args, cwd=scratch / "mutants", capture_output=True, text=True, check=False)
    existing = {line for line in listed.stdout.splitlines() if "::" in line}
    if not existing:
        return
    stats = json.loads(stats_path.read_text(encoding="utf-8"))
    stats["duration_by_test"] = {t: d for t, d in stats["duration_by_test"].items() if t in existing}
    stats["tests_by_mangled_function_name"] = {
        name: [t for t in tests if t in existing] for name, tests in stats["tests_by_mangled_function_name"].items()}
    stats_path.write_text(json.dumps(stats), encoding="utf-8")


def _record_coverage(group: Group, scratch: Path) -> None:
    """The review tool's statement-to-test map of the unmutated copy, where the selection script reads it."""
    from tests.mutation.review import coverage_map
    from tests.mutation.selection import save_coverage

    (scratch / f"coverage-{group.name}.json").unlink(missing_ok=True)  # the tests may have changed since
    save_coverage(scratch, coverage_map(group, scratch, cases=True))


def _record_settled(scratch: Path) -> None:
    """The listings of equivalent.toml where the selection script reads them: those mutants are not run."""
    from tests.mutation.selection import SETTLED_FILE

    (scratch / SETTLED_FILE).write_text(json.dumps(sorted(load_equivalent())), encoding="utf-8")


def _not_killed(verdicts: dict[str, str], equivalent: dict[str, str]) -> list[str]:
    return sorted(m for m, v in verdicts.items() if v not in KILLED and listed_kind(m, equivalent) is None)


def stale_listings(group: Group, verdicts: dict[str, str], equivalent: dict[str, str]) -> list[str]:
    """Names listed in equivalent.toml for this group's modules that no longer name a surviving mutant.

    mutmut numbers mutants within a function, so an edit to the function renumbers them: a listing that
    now names a killed mutant (or none) would hide a real survivor from the score. Patterns are not checked.
    """
    modules = {m.removesuffix(".py").replace("/", ".") for m in group.modules}
    return sorted(name for name in equivalent
                  if not any(c in name for c in "*?[") and module_of(name) in modules
                  and verdicts.get(name, "killed") in KILLED)


def _matching(name: str, only: list[str]) -> bool:
    return not only or any(fnmatch.fnmatchcase(name, pattern) for pattern in only)


def run_group(group: Group, workdir: Path, keep: bool, max_children: int, *, profile: str = "mutation",
              rerun: Path | None = None, only: list[str] | None = None,
              score_only: bool = False, survivors_only: bool = False,
              unrun_only: bool = False) -> tuple[dict[str, str], float, Path]:
    """One mutmut run of ``group``; with ``rerun``, continue the kept scratch copy of an earlier run.

    A rerun copies the checkout over the scratch copy: mutmut re-mutates the functions whose source
    changed (their earlier verdicts dropped), keeps every other verdict, and collects which new tests
    call what. Then the mutants not killed so far (equivalents aside) are run again: a test added since
    the first run can kill them, and a killed mutant stays killed when tests are only added. ``only``
    (mutmut name patterns) restricts the mutants run, ``survivors_only`` leaves out those never run,
    ``unrun_only`` those that ran (a survivor costs every test that calls it: rerun survivors once new
    tests exist); ``score_only`` runs nothing.
    """
    only = only or []
    scratch = rerun if rerun is not None else Path(tempfile.mkdtemp(prefix=f"mutation-{group.name}-", dir=workdir))
    started = time.monotonic()
    code = 0
    if not score_only:
        copy_checkout(scratch)
        (scratch / "setup.cfg").write_text(_setup_cfg(group), encoding="utf-8")
        (scratch / "group.txt").write_text(group.name + "\n", encoding="utf-8")
        by_coverage = group.select_by_coverage
        if by_coverage:
            _record_coverage(group, scratch)
            _record_settled(scratch)
        if rerun is None:
            code = _mutmut(scratch, max_children, profile, only, by_coverage)
        else:
            # first only re-mutate what changed and collect the new tests: mutmut must be given some mutant,
            # so it reruns one it killed before (a pattern naming none is an error to it)
            copy_checkout(scratch / "mutants", ("tests",))  # the tests as they are now (never contract/: mutated)
            _prune_stats(scratch, group)
            killed = sorted(m for m, v in _verdicts(scratch).items() if v in KILLED)
            code = _mutmut(scratch, max_children, profile, killed[:1] or only, by_coverage)
            verdicts = _verdicts(scratch)
            pending = [m for m in _not_killed(verdicts, load_equivalent()) if _matching(m, only)
                       and not (survivors_only and verdicts[m] == NOT_RUN)
                       and not (unrun_only and verdicts[m] != NOT_RUN)]
            if code == 0 and pending:
                code = _mutmut(scratch, max_children, profile, pending, by_coverage)
    elapsed = time.monotonic() - started
    if code != 0:  # e.g. the clean run failed: every verdict would read "not checked"
        raise SystemExit(f"mutmut failed for group {group.name} (exit {code}); see {scratch}/mutmut.log")
    verdicts = _verdicts(scratch)
    if not keep and rerun is None:
        shutil.rmtree(scratch, ignore_errors=True)
    return verdicts, elapsed, scratch


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.mutation.run", description=__doc__.splitlines()[0])
    parser.add_argument("groups", nargs="*", help="groups of tests/mutation/modules.toml (default: all)")
    parser.add_argument("--report", type=Path, help="write the summary here as JSON")
    parser.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()))
    parser.add_argument("--keep", action="store_true", help="keep the scratch copies (mutmut show works there)")
    parser.add_argument("--max-children", type=int, default=1)
    parser.add_argument("--rerun", type=Path, metavar="SCRATCH",
                        help="continue a kept scratch copy (its group): re-mutate what changed, rerun what survived")
    parser.add_argument("--only", action="append", metavar="PATTERN",
                        help="run only mutants whose mutmut name matches (fnmatch; repeatable)")
    parser.add_argument("--score-only", action="store_true", help="with --rerun: score the kept run, run nothing")
    parser.add_argument("--survivors-only", action="store_true",
                        help="with --rerun: run again only mutants that ran and were not killed (not those not run yet)")
    parser.add_argument("--unrun-only", action="store_true",
                        help="with --rerun: run only mutants not run yet (leave known survivors for later)")
    parser.add_argument("--hypothesis-profile", default="mutation", choices=("mutation", "quick", "default", "thorough"),
                        help="DICECHESS_HYPOTHESIS_PROFILE of the mutant runs (default: mutation)")
    args = parser.parse_args(argv)
    groups = load_groups()
    if args.rerun is not None:
        named = (args.rerun / "group.txt").read_text(encoding="utf-8").strip() if (args.rerun / "group.txt").exists() \
            else args.rerun.name.split("-")[1]
        if args.groups and args.groups != [named]:
            parser.error(f"{args.rerun} holds a run of group {named}")
        args.groups = [named]
    chosen = args.groups or list(groups)
    unknown = [g for g in chosen if g not in groups]
    if unknown:
        parser.error(f"unknown group(s): {', '.join(unknown)}; known: {', '.join(groups)}")
    equivalent = load_equivalent()
    summary: dict[str, Any] = {"hypothesis_profile": args.hypothesis_profile, "groups": {}}
    for name in chosen:
        verdicts, elapsed, scratch = run_group(groups[name], args.workdir, args.keep, args.max_children,
                                             profile=args.hypothesis_profile, rerun=args.rerun,
                                             only=args.only, score_only=args.score_only,
                                             survivors_only=args.survivors_only, unrun_only=args.unrun_only)
        survivors = _not_killed(verdicts, equivalent)
        summary["groups"][name] = {
            "seconds": round(elapsed), "scratch": str(scratch) if args.keep or args.rerun else None,
            "rerun": args.rerun is not None, "only": args.only,
            "modules": score(verdicts, equivalent),
            "survivors": {m: verdicts[m] for m in survivors},
            "stale_listings": stale_listings(groups[name], verdicts, equivalent),
        }
        print(json.dumps({name: summary["groups"][name]["modules"]}, indent=2))
        print(f"{name}: {len(verdicts)} mutants in {elapsed:.0f} s; {len(survivors)} not killed")
        for stale in summary["groups"][name]["stale_listings"]:
            print(f"  equivalent.toml lists {stale}, which is killed or gone: renumbered? check it")
    if args.report is not None:
        args.report.write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
