"""Headless Debian Chromium driven by selenium and chromium-driver, for the pages the kit writes.

The browser starts once per session with the flags this kind of machine needs (no sandbox as root, no
GPU, no background networking, a fresh profile). Where selenium, ``chromium`` or ``chromedriver`` is
missing every browser test is skipped with a message saying how to get them (``tox -e browser``
installs them as root). Screenshots go to ``DICECHESS_BROWSER_ARTIFACTS`` (the tox env sets
``.tox/browser-artifacts``), else to pytest's temporary directory.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# the golden tests' checkout helpers (copy, edit a vector, run) and the conformance tests' clamp scenario
for helpers in ("golden", "conformance"):
    HELPERS = Path(__file__).resolve().parents[1] / helpers
    if str(HELPERS) not in sys.path:
        sys.path.append(str(HELPERS))

CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage", "--window-size=1400,1000")
HOW_TO_GET = ("install Debian's chromium and chromium-driver (as root: apt-get install -y chromium "
              "chromium-driver), or run `tox -e browser`, which does")


def _program(variable: str, names: tuple[str, ...]) -> str | None:
    configured = os.environ.get(variable, "").strip()
    if configured:
        return configured if Path(configured).is_file() else None
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture(scope="session")
def artifacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    configured = os.environ.get("DICECHESS_BROWSER_ARTIFACTS", "").strip()
    directory = Path(configured) if configured else tmp_path_factory.mktemp("browser-artifacts")
    directory.mkdir(parents=True, exist_ok=True)
    return directory


@pytest.fixture(scope="session")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    webdriver = pytest.importorskip("selenium.webdriver", reason=f"selenium is not installed; {HOW_TO_GET}")
    chromium = _program("DICECHESS_CHROMIUM", ("chromium", "chromium-browser"))
    driver_path = _program("DICECHESS_CHROMEDRIVER", ("chromedriver",))
    if chromium is None or driver_path is None:
        missing = " and ".join(n for n, p in (("chromium", chromium), ("chromedriver", driver_path)) if p is None)
        pytest.skip(f"no {missing} on this machine; {HOW_TO_GET}")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
    service = webdriver.ChromeService(executable_path=driver_path)
    driver = webdriver.Chrome(options=options, service=service)
    try:
        yield driver
    finally:
        driver.quit()
