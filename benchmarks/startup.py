"""Start-up of the commands hooks and CI call many times, against ``import onnxruntime`` measured in the same run.

    python benchmarks/startup.py [--runs 7] [--cli PATH]

Each command runs as a whole process, as a pre-commit hook runs it (the console script ``dicechess-contract``
beside this interpreter, or ``--cli``), interleaved with the baseline ``python -c "import onnxruntime"`` so a
noisy machine slows both alike. It prints, per command, the median wall time of ``--runs`` runs and its ratio to
the baseline's median, and the goals of issue 35: ``validate`` of the bundled example at most 1.5 times the
baseline; ``compat``, ``vendor --check`` and ``--version`` at most 0.5 times. Exit 0 when every goal holds.

The commands run as an installed kit runs: with bytecode caches. ``pip install`` of the wheel compiles every
module at install time; an environment with ``PYTHONDONTWRITEBYTECODE`` set (as some CI images and this
project's own shells set it) would make every run compile the kit's sources again — 30-80 ms per command
here, none of it the kit's start-up. So the children run without that variable, after one untimed pass that
writes the caches (for an editable install, into the checkout's ``__pycache__`` directories).

Before and after a change, on the same machine at the same time: the children inherit the environment, so
``PYTHONPATH=/tmp/before python benchmarks/startup.py`` (``/tmp/before`` a ``git archive`` of the older tree)
measures the older code with the same console script and baseline.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from contract.core.resources import golden_dir

_ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _time(argv: list[str], cwd: Path) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user + system) of one run of ``argv``."""
    cpu, start = _children_cpu(), time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False, timeout=120,
                          env=_ENV)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited {done.returncode}: {done.stderr.decode(errors='replace')[-400:]}")
    return elapsed, _children_cpu() - cpu


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
        cpus: dict[str, list[float]] = {name: [] for name in commands}
        for argv, _goal in commands.values():  # untimed: writes the bytecode caches an installed kit has
            _time(argv, work)
        for _ in range(args.runs):
            for name, (argv, _goal) in commands.items():
                wall, cpu = _time(argv, work)
                times[name].append(wall)
                cpus[name].append(cpu)
    baseline = statistics.median(times["import onnxruntime"])
    cpu_baseline = statistics.median(cpus["import onnxruntime"])
    print(f"load average {os.getloadavg()[0]:.2f}; medians of {args.runs} runs, interleaved; the goal is judged on "
          "wall time, CPU time (user + system) beside it is what a loaded machine disturbs least")
    failed = 0
    for name, (_argv, goal) in commands.items():
        median = statistics.median(times[name])
        ratio = median / baseline
        verdict = "" if goal is None else (f"  goal <= {goal}x: " + ("ok" if ratio <= goal else "MISSED"))
        failed += goal is not None and ratio > goal
        cpu = statistics.median(cpus[name])
        print(f"{name:>20}  {median * 1000:7.0f} ms  {ratio:5.2f}x   cpu {cpu * 1000:5.0f} ms  "
              f"{cpu / cpu_baseline:5.2f}x{verdict}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
