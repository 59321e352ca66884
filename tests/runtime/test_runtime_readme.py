"""The README's commands and its Python example are the ones that work (they cannot drift silently)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
README = (REPO / "README.md").read_text(encoding="utf-8")


def _block(marker: str) -> str:
    match = re.search(rf"<!-- {marker} -->\n```sh\n(.*?)\n```\n<!-- /{marker} -->", README, flags=re.DOTALL)
    assert match is not None, f"README has no {marker} block"
    return match.group(1)


def test_the_ci_script_runs_the_readme_test_command() -> None:
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert "<!-- test-command -->" in ci and "README.md" in ci
    extracted = subprocess.run(
        ["awk", r"/<!-- test-command -->/{on=1; next} /<!-- \/test-command -->/{on=0} on && !/^```/", "README.md"],
        cwd=REPO, capture_output=True, text=True, check=True).stdout.strip()
    assert extracted == _block("test-command")


def test_the_main_command_validates_the_example_and_checks_the_corpus() -> None:
    command = _block("main-command")
    assert "contract validate golden/example-package --engine-version 0.12.0" in command
    assert "dicechess-contract golden check" in command


def test_the_python_example_runs() -> None:
    (example,) = re.findall(r"```python\n(.*?)```", README, flags=re.DOTALL)[:1]
    done = subprocess.run([sys.executable, "-c", example], cwd=REPO, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(r"\[0\.\d+\]\n", done.stdout), done.stdout
