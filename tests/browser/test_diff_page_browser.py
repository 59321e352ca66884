"""The ``conformance diff --html`` page in Chromium, at desktop and phone (390 px) width.

The two runs are the kit's answers to every features case under the name ``clamped``: as shipped, then
with ``king_safety_diff`` clamped to [-1, 1] in the adapter's process (tests/conformance/clamp_scenario.py).
The oracle is the corpus itself (:func:`clamp_scenario.expected_changes`): every case the clamp changes
is a regression, named with its column and both values."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import clamp_scenario
import pytest
from test_pages_browser import OVERFLOW, WIDTHS, _first_screen, _machine_paths, _open, _shot, _window

from contract.core.changesummary import bits_text


@pytest.fixture(scope="module")
def diff_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("diff")
    old, new, page = directory / "old.json", directory / "new.json", directory / "diff.html"
    shipped = f"{clamp_scenario.NAME}={shlex.quote(sys.executable)} -P -m contract.conformance.adapter"
    done = subprocess.run([sys.executable, "-m", "contract.conformance", "run", "--impl", shipped, "--kinds",
                           "features", "--json"], cwd=clamp_scenario.ROOT, capture_output=True, text=True,
                          timeout=900, check=False)
    assert done.returncode == 0, done.stderr
    old.write_text(done.stdout, encoding="utf-8")
    clamped = clamp_scenario.run_clamped(directory, directory / "matrix.html", "--json")
    assert clamped.returncode == 1, clamped.stderr
    new.write_text(clamped.stdout, encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", "import sys; from contract.cli import main; raise SystemExit(main())",
                           "conformance", "diff", str(old), str(new), "--html", str(page)], capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 1, done.stdout + done.stderr
    assert _machine_paths(page, directory) == []
    return page


@pytest.mark.parametrize("width", WIDTHS)
def test_the_diff_page_shows_the_regressed_column_on_the_first_screen(
        browser: Any, diff_page: Path, artifacts: Path, width: str) -> None:
    changes = clamp_scenario.expected_changes()
    with _window(browser, width):
        _open(browser, diff_page)
        _shot(browser, artifacts, f"diff-clamped-{width}")
        verdict = browser.find_element("id", "verdict")
        assert verdict.text == f"REGRESSED: {len(changes)} regressed, 0 fixed, 0 changed answer, 0 added, 0 removed."
        assert _first_screen(browser, verdict)
        blocks = browser.find_elements("css selector", "div.case.regressed")
        assert len(blocks) == len(changes)
        first = blocks[0]
        row = first.find_element("css selector", 'tr[data-column="king_safety_diff"]')
        cells = row.find_elements("tag name", "td")
        case = next(c for c in changes if c.case == first.get_attribute("data-case-id"))
        assert cells[0].text == "king_safety_diff"
        assert cells[5].text == bits_text(case.expected) and cells[7].text == bits_text(case.got)
        for cell in (cells[0], cells[5], cells[7]):  # the first regression's column and bits: on the first screen
            assert _first_screen(browser, cell), f"a cell is not on the first screen at {width}"
        assert browser.execute_script(OVERFLOW) <= 0, "the page scrolls sideways"
