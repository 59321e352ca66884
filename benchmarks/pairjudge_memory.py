"""Peak memory of ``pairjudge verify`` on side JSON files built to the worst shapes: is it bounded?

    python benchmarks/pairjudge_memory.py [--fractions 0.25 0.5 0.95 1.2] [--shape objects|keys|strings]

For each fraction f it copies the recorded full bundle, replaces ``config.json`` with a JSON object
whose padding value is built so that ``sidejson.memory_estimate`` of the file is f x ``MAX_MEMORY``
(``objects``: ``[{}, {}, ...]``, the shape that costs most per byte; ``keys``: many short keys;
``strings``: one-character non-ASCII strings), runs the real command as a user would,

    python -m contract pairjudge verify BUNDLE --layer full

and reads the process's own high-water mark (``VmHWM`` of ``/proc/self/status`` at its exit;
Linux). It prints, per run, the file
size, the estimate, the peak RSS, the verdict line and the time; then the largest peak against the
stated bound (the 512 MiB estimate cap plus the interpreter's baseline, measured on the unmodified
bundle). The exit status is 0 when every peak is within the bound and every file over the cap is
refused, 1 when not.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # run from a checkout without installing the kit
    sys.path.insert(0, str(REPO))

from contract.pairjudge import sidejson  # noqa: E402
from generators.pairjudge_mutations import apply_ops  # noqa: E402

BUNDLE = REPO / "golden" / "recorded" / "pairjudge" / "bundles" / "full-run" / "merged"
UNIT = {"objects": "{}", "keys": None, "strings": '"\u4e00"'}


def _padding(shape: str, count: int) -> str:
    if shape == "keys":
        return "{" + ",".join(f'"{i:x}":0' for i in range(count)) + "}"
    return "[" + ",".join([UNIT[shape]] * count) + "]"  # type: ignore[list-item]


def _config(shape: str, target: int) -> bytes:
    base = json.loads((BUNDLE / "config.json").read_text())
    low, high = 1, max(2, target // 8)
    while low < high:  # the largest count whose estimate stays within target
        middle = (low + high + 1) // 2
        text = json.dumps({**base, "x": None})[:-1] + ', "x": ' + _padding(shape, middle) + "}"
        if sidejson.memory_estimate(text.encode()) <= target:
            low = middle
        else:
            high = middle - 1
    return (json.dumps(base)[:-1] + ', "x": ' + _padding(shape, low) + "}").encode()


# The command as a user runs it, reporting its own high-water mark (VmHWM, in KiB: unlike ru_maxrss
# it is not inherited from the forking parent across exec) on its last stderr line.
_MEASURED = (
    "import sys\n"
    "from contract.cli import main\n"
    "code = main(sys.argv[1:])\n"
    "status = open('/proc/self/status').read().split('VmHWM:')[1].split()[0]\n"
    "print(status, file=sys.stderr)\n"
    "sys.exit(code)\n"
)


def _run(bundle: Path) -> tuple[int, str, float]:
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", _MEASURED, "pairjudge", "verify", str(bundle)],
                          capture_output=True, text=True, check=False, cwd=REPO)
    peak = int(done.stderr.strip().splitlines()[-1]) * 1024  # Linux: KiB
    line = (done.stdout.strip().splitlines() or [""])[-1]
    return peak, line[:110], time.monotonic() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fractions", type=float, nargs="+", default=[0.25, 0.5, 0.95, 1.2])
    parser.add_argument("--shape", choices=sorted(UNIT), default="objects")
    args = parser.parse_args()
    ok = True
    with tempfile.TemporaryDirectory(prefix="pj-memory-") as scratch:
        baseline, line, _ = _run(BUNDLE)
        print(f"baseline (recorded bundle): peak {baseline / 2**20:.0f} MiB: {line}")
        bound = baseline + sidejson.MAX_MEMORY
        peaks = []
        for fraction in sorted(args.fractions):
            bundle = Path(scratch) / f"b{fraction}"
            shutil.copytree(BUNDLE, bundle)
            data = _config(args.shape, int(fraction * sidejson.MAX_MEMORY))
            (bundle / "config.json").write_bytes(data)
            apply_ops(bundle, [{"op": "rehash"}])  # the listed digest follows, so the file itself is checked
            peak, line, seconds = _run(bundle)
            peaks.append(peak)
            estimate = sidejson.memory_estimate(data)
            refused = "would take up to" in line
            print(f"{args.shape} x{fraction}: {len(data) / 2**20:.1f} MiB file, estimate {estimate / 2**20:.0f} MiB, "
                  f"peak {peak / 2**20:.0f} MiB, {seconds:.1f} s: {line}")
            if estimate > sidejson.MAX_MEMORY and not refused:
                ok = False
            shutil.rmtree(bundle)
        print(f"largest peak {max(peaks) / 2**20:.0f} MiB; stated bound {bound / 2**20:.0f} MiB "
              f"(baseline + {sidejson.MAX_MEMORY / 2**20:.0f} MiB): {'within' if max(peaks) <= bound else 'OVER'}")
        ok = ok and max(peaks) <= bound
    return 0 if ok else 1


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
