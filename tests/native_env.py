"""What `tox -e native` runs: build the accelerator, then the whole suite on it — or say plainly why not.

    python tests/native_env.py --wheels DIR [PYTEST_ARGS...]

With a Rust toolchain (``cargo`` on PATH): maturin builds the accelerator's release wheel into DIR, it is
installed into this environment, the crate's own tests run (``cargo test``), then the whole suite with
``DICECHESS_BACKEND=native`` set by tox: every test but the ``slow`` ones, and the ``slow`` tests of the
directories whose code extracts features (features, enrichment, golden, conformance, with the 20,000-position
random differential). Each step must pass; the first failure ends the run with its exit status.

Without one, the README's test command still passes on the pure-Python backend (the py3* environments never
install the accelerator): this prints that the native backend was not tested, and why, and exits 0 — unless
``DICECHESS_REQUIRE_NATIVE=1`` (``.ci/run`` sets it), where a missing toolchain fails the run, so CI cannot
skip the accelerator silently.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Sequence

# the slow tests that run the extractors (in process, or in a child that inherits DICECHESS_BACKEND)
SLOW_DIRECTORIES = ("tests/features", "tests/enrichment", "tests/golden", "tests/conformance")
CRATE = "native/Cargo.toml"


def steps(cargo: str, wheels: str, pytest_args: Sequence[str]) -> list[list[str]]:
    """The commands, in order."""
    python = sys.executable
    pytest = [python, "-m", "pytest", "-p", "no:cacheprovider"]
    return [
        [python, "-m", "maturin", "build", "--release", "--quiet", "-m", CRATE, "-o", wheels],
        [python, "-m", "pip", "install", "--quiet", "--force-reinstall", "--no-deps", "--no-index",
         "--find-links", wheels, "dicechess-contract-native"],
        [cargo, "test", "--release", "--quiet", "--lib", "--manifest-path", CRATE],
        [*pytest, "-m", "not slow", *pytest_args],
        [*pytest, "-m", "slow", *SLOW_DIRECTORIES, *pytest_args],
    ]


def main(argv: Sequence[str]) -> int:
    if len(argv) < 2 or argv[0] != "--wheels":
        print("usage: python tests/native_env.py --wheels DIR [PYTEST_ARGS...]", file=sys.stderr)
        return 2
    wheels, pytest_args = argv[1], argv[2:]
    cargo = shutil.which("cargo")
    if cargo is None:
        why = "no Rust toolchain (cargo is not on PATH)"
        if os.environ.get("DICECHESS_REQUIRE_NATIVE") == "1":
            print(f"native: {why}, and DICECHESS_REQUIRE_NATIVE=1 requires the accelerator", file=sys.stderr)
            return 1
        print(f"native: NOT TESTED: {why}; the accelerator was not built, and the suite ran on the "
              "pure-Python backend only (the py3* environments). Install Rust (rustup) to test it.")
        return 0
    for command in steps(cargo, wheels, pytest_args):
        print("native: " + " ".join(command), flush=True)
        status = subprocess.run(command, check=False).returncode
        if status != 0:
            print(f"native: exit {status} from {command[2] if command[0] == sys.executable else command[0]}",
                  file=sys.stderr)
            return status
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
