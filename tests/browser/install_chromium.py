"""Make sure Debian's chromium and chromium-driver are here before the browser tests (``tox -e browser``).

Installs them with apt-get when they are missing and this runs as root (as on CI); otherwise, or when
the installation fails, it says why and exits 0, and the browser tests then skip with their message.
It never fails the run itself: a machine without a browser is a skip, not an error.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

PACKAGES = ("chromium", "chromium-driver")
TIMEOUT = 1800


def _present() -> bool:
    return shutil.which("chromium") is not None and shutil.which("chromedriver") is not None


def _apt(*args: str) -> bool:
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    try:
        done = subprocess.run(["apt-get", *args], env=env, timeout=TIMEOUT, check=False)
    except (OSError, subprocess.SubprocessError) as exc:
        print(f"install_chromium: apt-get {args[0]} failed: {exc}", file=sys.stderr)
        return False
    if done.returncode != 0:
        print(f"install_chromium: apt-get {args[0]} exited {done.returncode}", file=sys.stderr)
    return done.returncode == 0


def main() -> int:
    if _present():
        print(f"install_chromium: using {shutil.which('chromium')} and {shutil.which('chromedriver')}")
        return 0
    if shutil.which("apt-get") is None:
        print("install_chromium: no chromium and no apt-get here; the browser tests will be skipped")
        return 0
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        print("install_chromium: no chromium, and installing it needs root "
              f"(apt-get install -y {' '.join(PACKAGES)}); the browser tests will be skipped")
        return 0
    if _apt("update") and _apt("install", "-y", "--no-install-recommends", *PACKAGES) and _present():
        print(f"install_chromium: installed {' '.join(PACKAGES)}")
    else:
        print("install_chromium: could not install chromium; the browser tests will be skipped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
