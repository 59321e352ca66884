"""Start-up (issue 35): what the commands hooks and CI call many times must not import.

Each command runs in a child process as the console script runs it; afterwards the child lists the
modules it holds. The table below is the budget: a later change that makes ``--version`` read a schema
with jsonschema, or ``validate`` load the signing or enrichment code without being asked, fails here
instead of showing up only in ``benchmarks/startup.py``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from contract.core.resources import golden_dir

REPO = Path(__file__).resolve().parents[2]

# third-party and standard-library modules no start-up path needs (importlib.metadata: the version is
# contract/_version.py)
HEAVY = ["jsonschema", "lark", "onnx", "pyarrow", "cryptography", "importlib.metadata", "pandas", "dask",
         # a temporary name is os.urandom(6).hex(), not secrets (which imports random); difflib only for a typo
         "secrets", "random", "difflib"]
NOT_WITHOUT_A_GRAPH = ["onnxruntime", "numpy", "contract.model"]
NOT_A_FEATURE = ["contract.enrichment", "contract.features", "contract.pairjudge", "contract.conformance",
                 "contract.golden"]

# Third pass: the standard library's own weight. dataclasses imports inspect (with ast, dis, tokenize); the
# kit's value classes are contract.core.record.Record. threading was imported only to ask whether this is the
# main thread; shutil (with bz2, lzma) by argparse for the terminal's width while a command was registered,
# and by vendoring for removing a staged copy.
NOT_AT_START = ["threading", "shutil", "bz2", "lzma"]
NO_DATACLASSES = ["dataclasses", "inspect", "ast", "dis", "tokenize"]

BUDGET: dict[str, tuple[list[str], list[str]]] = {
    # --version prints constants: no contract file is read, so nothing that lists or hashes them is imported
    "--version": (["--version"], HEAVY + NOT_WITHOUT_A_GRAPH + NOT_A_FEATURE + NOT_AT_START + NO_DATACLASSES
                  + ["contract.vendoring", "contract.core.regularfile", "hashlib", "pathlib",
                     "contract.core.checktable"]),
    "compat": (["compat", ">=0.12.0 <1.0.0", "--engine-version", "0.12.0"],
               HEAVY + NOT_WITHOUT_A_GRAPH[:2] + NOT_A_FEATURE + NOT_AT_START + NO_DATACLASSES
               + ["contract.vendoring"]),
    "vendor --check": (["vendor", "--check", "{vendored}"],
                       HEAVY + NOT_WITHOUT_A_GRAPH + NOT_A_FEATURE + NOT_AT_START + NO_DATACLASSES),
    # onnxruntime imports inspect itself; what validate adds is held to one dataclass (below)
    "validate": (["validate", str(golden_dir() / "example-package"), "--engine-version", "0.12.0"],
                 HEAVY + NOT_A_FEATURE + NOT_AT_START + ["contract.vendoring", "contract.model.signature",
                                                         "contract.model.builder"]),
}
# The kit's classes a command defines with @dataclass (each compiles its methods with exec when defined,
# ~0.5 ms); Manifest stays one: callers derive manifests with dataclasses.replace.
DATACLASSES_ALLOWED: dict[str, list[str]] = {"--version": [], "compat": [], "vendor --check": [],
                                             "validate": ["contract.model.manifest.Manifest"]}

_CHILD = ("import json, sys\nfrom contract.cli import main\n"
          "try:\n    code = main(sys.argv[1:])\nexcept SystemExit as done:\n    code = done.code\n"
          "kit = [(name, module) for name, module in list(sys.modules.items()) if name.startswith('contract')]\n"
          "made = sorted(f'{name}.{key}' for name, module in kit for key, value in vars(module).items()\n"
          "              if isinstance(value, type) and value.__module__ == name\n"
          "              and '__dataclass_fields__' in vars(value))\n"
          "print(json.dumps(made), file=sys.stderr)\n"
          "print(json.dumps(sorted(sys.modules)), file=sys.stderr)\nsys.exit(code)")


def _child(argv: list[str], cwd: Path) -> tuple[set[str], list[str]]:
    """The modules the command's process held at its end, and the kit's dataclasses among them."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", _CHILD, *argv], capture_output=True, text=True, check=False,
                          timeout=180, env=env, cwd=cwd)
    assert done.returncode == 0, done.stdout + done.stderr
    *_, made, held = done.stderr.strip().splitlines()
    return set(json.loads(held)), json.loads(made)


def _offending(held: set[str], forbidden: list[str]) -> list[str]:
    return sorted(m for m in held for f in forbidden if m == f or m.startswith(f + "."))


@pytest.mark.parametrize("command", list(BUDGET))
def test_a_start_up_command_imports_nothing_outside_its_budget(command: str, tmp_path: Path) -> None:
    argv, forbidden = BUDGET[command]
    if "{vendored}" in argv:
        vendored = tmp_path / "vendored"
        made = subprocess.run([sys.executable, "-m", "contract", "vendor", str(vendored)], capture_output=True,
                              text=True, check=False, timeout=300, cwd=tmp_path)
        assert made.returncode == 0, made.stderr
        argv = [str(vendored) if word == "{vendored}" else word for word in argv]
    held, dataclasses = _child(argv, tmp_path)
    assert _offending(held, forbidden) == []
    assert dataclasses == DATACLASSES_ALLOWED[command]


def test_the_budget_check_names_what_a_command_should_not_have_imported() -> None:
    held = {"contract", "contract.cli", "jsonschema", "jsonschema.validators", "contract.model.package", "numbers"}
    assert _offending(held, HEAVY + NOT_WITHOUT_A_GRAPH) == ["contract.model.package", "jsonschema",
                                                              "jsonschema.validators"]


def test_the_recorded_contract_versions_are_the_files_versions() -> None:
    # --version prints contract/_contract_versions.py instead of parsing 2.5 MB of JSON each time; a contract
    # file that adds, drops or changes a version without that table being rewritten fails here
    from contract._contract_versions import CONTRACT_VERSIONS
    from contract.vendoring.files import contract_versions

    from_files = {name: tuple(versions) for name, versions in contract_versions().items()}
    assert len(from_files) > 20
    assert from_files == CONTRACT_VERSIONS, f"rewrite contract/_contract_versions.py as: {from_files!r}"
    assert list(CONTRACT_VERSIONS) == sorted(CONTRACT_VERSIONS)
