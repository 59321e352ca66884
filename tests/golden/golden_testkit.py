"""Helpers shared by the golden-corpus tests: the checkout, a throw-away copy of it, running the command."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # generators/ is not installed with the package; the checkout provides it
    sys.path.insert(0, str(ROOT))
ENGINE_FIXTURES = ROOT / "golden" / "recorded" / "manifests"
RECORDED = ROOT / "golden" / "recorded"
COPIED = ("contract", "generators", "golden", "schema", "grammar")
CORPUS_DIRS = ("golden", "schema")


def copy_checkout(destination: Path) -> Path:
    """A self-contained copy of what the golden command reads and writes."""
    destination.mkdir(parents=True, exist_ok=True)
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, destination / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy2(ROOT / "pyproject.toml", destination / "pyproject.toml")
    for path in destination.rglob("*"):  # vendored recordings are read-only; the copy must be deletable
        path.chmod(path.stat().st_mode | 0o200)
    return destination


def run_golden(root: Path, *args: str, quiet: bool = True, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """``python -m contract.golden`` run inside ``root`` (so that copy's own code and data are used)."""
    command = [sys.executable, "-m", "contract.golden", *(["--quiet"] if quiet else []), *args]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # after the cwd, which `python -m` puts first
    return subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, timeout=timeout,
                          check=False)


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file of the corpus directories, path -> bytes."""
    files: dict[str, bytes] = {}
    for directory in CORPUS_DIRS:
        for path in sorted((root / directory).rglob("*")):
            if path.is_file():
                files[path.relative_to(root).as_posix()] = path.read_bytes()
    return files


def edit_vector(root: Path, schema: str, probe: str, old: str, new: str) -> None:
    """Hand-edit one probe's feature line in ``golden/vectors/<schema>.json`` (first match of ``old``)."""
    path = root / "golden" / "vectors" / f"{schema}.json"
    lines = path.read_text(encoding="utf-8").split("\n")
    start = lines.index(f'      "id": "{probe}",')
    for index in range(start, start + 7):
        if lines[index].lstrip().startswith('"features"'):
            assert old in lines[index], f"{old!r} not in {probe}'s features"
            lines[index] = lines[index].replace(old, new, 1)
            path.write_text("\n".join(lines), encoding="utf-8")
            return
    raise AssertionError(f"no features line for {probe}")
