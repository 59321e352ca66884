"""Peak memory of ``validate`` on a large model: is the model read whole?

    python benchmarks/model_memory.py [--sizes 1 64 3072]   # MiB of the sparse model.onnx

For each size it copies the bundled example package into a temporary directory, replaces
``model.onnx`` by a sparse file of that size (zeros: not a graph, so a read one is refused by the
digest, and one above the limit is refused unread), runs the real command as a user would,

    python -m contract validate PKG --engine-version 0.12.0

and prints the child's peak resident set size (``ru_maxrss``), its time, its exit status and the
first line it printed. Issue 22 H1's acceptance: a 3 GiB model validated in under 512 MiB resident,
or refused with a message naming the limit. The exit status is 0 when every run stayed under
512 MiB and the largest was refused naming the limit.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from contract.core.resources import golden_dir

LIMIT_MIB = 512


def run(size_mib: int) -> tuple[float, float, int, str]:
    with tempfile.TemporaryDirectory() as scratch:
        package = Path(scratch) / "pkg"
        shutil.copytree(golden_dir() / "example-package", package)
        with open(package / "model.onnx", "wb") as model:
            model.truncate(size_mib * 1024 * 1024)
        start = time.perf_counter()
        child = subprocess.Popen([sys.executable, "-m", "contract", "validate", str(package), "--engine-version",
                                  "0.12.0"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        assert child.stdout is not None
        output = child.stdout.read()
        _pid, status, usage = os.wait4(child.pid, 0)  # this child's own peak, not the largest so far
        child.returncode = os.waitstatus_to_exitcode(status)
        seconds = time.perf_counter() - start
        line = output.splitlines()[0] if output else ""
        return usage.ru_maxrss / 1024, seconds, child.returncode, line.replace(str(package), "PKG")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 64, 3072], metavar="MIB")
    args = parser.parse_args()
    ok = True
    last = ""
    for size in sorted(args.sizes):
        peak, seconds, code, line = run(size)
        ok = ok and peak < LIMIT_MIB
        last = line
        print(f"{size:6d} MiB model: peak RSS {peak:7.1f} MiB, {seconds:5.1f} s, exit {code}: {line[:150]}")
    refused_naming_limit = "more than 2147483647" in last
    print(f"under {LIMIT_MIB} MiB: {ok}; largest refused naming the limit: {refused_naming_limit}")
    return 0 if ok and refused_naming_limit else 1


if __name__ == "__main__":
    os.environ.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    sys.exit(main())
