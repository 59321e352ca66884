"""The suite's own footprint on disk: a passing test's ``tmp_path`` does not outlive it.

CI ran out of disk (stop 40: ``OSError: [Errno 28] No space left on device`` in the native environment) after
one whole-suite session had left 4.1 GB in pytest's base temporary directory, mostly recorded pairjudge fuzz
recipes that pad ``adapter_config.json`` to 64 MiB, and pytest keeps three sessions by default. The project's
pytest configuration deletes a passing test's directory when the test ends and keeps a failing one's.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = '''
def test_passes(tmp_path):
    (tmp_path / "big.bin").write_bytes(b"x" * 1024)

def test_fails(tmp_path):
    (tmp_path / "big.bin").write_bytes(b"x" * 1024)
    assert False
'''


def test_a_passing_tests_tmp_path_is_deleted_and_a_failing_ones_kept(tmp_path: Path) -> None:
    probe = tmp_path / "probe" / "test_probe.py"
    probe.parent.mkdir()
    probe.write_text(PROBE)
    base = tmp_path / "base"
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-c", str(ROOT / "pyproject.toml"),
                          f"--basetemp={base}", str(probe)], capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 1, run.stdout[-2000:] + run.stderr[-2000:]
    left = sorted(path.name for path in base.iterdir() if path.is_dir() and not path.is_symlink())
    assert left == ["test_fails0"], left
    assert (base / "test_fails0" / "big.bin").stat().st_size == 1024
