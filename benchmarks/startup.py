"""Start-up of the commands hooks and CI call many times, against ``import onnxruntime`` measured in the same run.

    python benchmarks/startup.py [--runs 7] [--cli PATH]

Each command runs as a whole process, as a pre-commit hook runs it (the console script ``dicechess-contract``
beside this interpreter, or ``--cli``), interleaved with the baseline ``python -c "import onnxruntime"`` so a
noisy machine slows both alike. It prints, per command, the median wall time of ``--runs`` runs and its ratio to
the baseline's median, and the goals of issue 35: ``validate`` of the bundled example at most 1.5 times the
baseline; ``compat``, ``vendor --check`` and ``--version`` at most 0.5 times. Exit 0 when every goal holds.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from contract.core.resources import golden_dir


def _time(argv: list[str], cwd: Path) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False, timeout=120)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited {done.returncode}: {done.stderr.decode(errors='replace')[-400:]}")
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--cli", default=shutil.which("dicechess-contract", path=str(Path(sys.executable).parent)))
    args = parser.parse_args()
    if args.cli is None:
        raise SystemExit("no dicechess-contract console script beside this interpreter; give --cli")
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        package = work / "pkg"
        shutil.copytree(golden_dir() / "example-package", package)
        subprocess.run([args.cli, "vendor", str(work / "vendored")], check=True, capture_output=True, timeout=300)
        commands: dict[str, tuple[list[str], float | None]] = {
            "import onnxruntime": ([sys.executable, "-c", "import onnxruntime"], None),
            "validate": ([args.cli, "validate", str(package), "--engine-version", "0.12.0"], 1.5),
            "compat": ([args.cli, "compat", ">=0.12.0 <1.0.0", "--engine-version", "0.12.0"], 0.5),
            "vendor --check": ([args.cli, "vendor", "--check", str(work / "vendored")], 0.5),
            "--version": ([args.cli, "--version"], 0.5),
        }
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(args.runs):
            for name, (argv, _goal) in commands.items():
                times[name].append(_time(argv, work))
    baseline = statistics.median(times["import onnxruntime"])
    print(f"load average {os.getloadavg()[0]:.2f}; medians of {args.runs} runs, interleaved")
    failed = 0
    for name, (_argv, goal) in commands.items():
        median = statistics.median(times[name])
        ratio = median / baseline
        verdict = "" if goal is None else (f"  goal <= {goal}x: " + ("ok" if ratio <= goal else "MISSED"))
        failed += goal is not None and ratio > goal
        print(f"{name:>20}  {median * 1000:7.0f} ms  {ratio:5.2f}x{verdict}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
