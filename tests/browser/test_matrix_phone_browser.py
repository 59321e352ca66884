"""The conformance matrix page at 390 px, in Chromium (issue #35, newcomer item: at phone width the implementation
column was one letter wide and the failing cell off-screen to the right).

The run: three recorded implementations, then the kit's adapter with ``king_safety_diff`` clamped
(tests/conformance/clamp_scenario.py), every kind, so the failing cell (``clamped`` · ``features``) is the last
cell of the last row. The oracle for what fails is the corpus (:func:`clamp_scenario.expected_changes`). Checked
on the layout (bounding boxes) and on the screenshot's own pixels: the failing count's red is on the first screen
of the matrix, inside the window's width."""

from __future__ import annotations

import shlex
import struct
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any

import clamp_scenario
import pytest
from test_pages_browser import OVERFLOW, WIDTHS, _machine_paths, _open, _shot, _window

RECORDED = ("engine", "training", "service")
UNLISTED_RGB = (0xFF, 0xB3, 0xB3)  # matrixpage's .unlisted background
RECT = "var r = arguments[0].getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom];"


@pytest.fixture(scope="module")
def phone_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("phone")
    adapter, page = directory / "clamped_adapter.py", directory / "matrix.html"
    adapter.write_text(clamp_scenario.ADAPTER, encoding="utf-8")
    impls = [a for name in RECORDED for a in ("--impl", name)]
    clamped = f"{clamp_scenario.NAME}={shlex.quote(sys.executable)} {shlex.quote(str(adapter))}"
    done = subprocess.run([sys.executable, "-m", "contract.conformance", "run", *impls, "--impl", clamped,
                           "--html", str(page)], cwd=clamp_scenario.ROOT, capture_output=True, text=True,
                          timeout=900, check=False)
    assert done.returncode == 1, done.stdout + done.stderr
    assert _machine_paths(page, directory) == []
    return page


def _pixels(png: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and the RGB(A) rows of an 8-bit, non-interlaced PNG (what Chromium writes)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    at, data, header = 8, b"", b""
    while at < len(png):
        size, kind = struct.unpack(">I4s", png[at:at + 8])
        body = png[at + 8:at + 8 + size]
        header = body if kind == b"IHDR" else header
        data += body if kind == b"IDAT" else b""
        at += 12 + size
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and colour in (2, 6) and interlace == 0, (depth, colour, interlace)
    step = 4 if colour == 6 else 3
    raw, stride, rows, previous = zlib.decompress(data), width * step, [], bytearray(width * step)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            left = line[x - step] if x >= step else 0
            up, corner = previous[x], previous[x - step] if x >= step else 0
            if kind == 1:
                line[x] = (line[x] + left) & 0xFF
            elif kind == 2:
                line[x] = (line[x] + up) & 0xFF
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                near = min((abs(p - left), 0, left), (abs(p - up), 1, up), (abs(p - corner), 2, corner))[2]
                line[x] = (line[x] + near) & 0xFF
        rows.append(bytes(line))
        previous = line
    return width, height, rows


def test_at_390_px_names_are_whole_and_the_failing_cell_is_first_and_on_screen(
        browser: Any, phone_page: Path, artifacts: Path) -> None:
    changes = clamp_scenario.expected_changes()
    with _window(browser, "phone"):
        _open(browser, phone_page)
        width = browser.execute_script("return window.innerWidth;")
        assert width == WIDTHS["phone"][0]
        matrix = browser.find_element("id", "matrix")
        browser.execute_script("arguments[0].scrollIntoView(true);", matrix)
        _shot(browser, artifacts, "matrix-phone-390")
        png = browser.get_screenshot_as_png()
        assert browser.execute_script(OVERFLOW) <= 0, "the page scrolls sideways"
        rows = matrix.find_elements("css selector", "tr[data-implementation]")
        assert [r.get_attribute("data-implementation") for r in rows] == [*RECORDED, clamp_scenario.NAME]
        tops = {r.get_attribute("data-implementation"): browser.execute_script(RECT, r)[1] for r in rows}
        assert tops[clamp_scenario.NAME] < min(tops[n] for n in RECORDED), "the failing row is not listed first"
        for row in rows:  # each name on one line, inside the window, its card the matrix's width
            name = row.find_element("css selector", ".impl-name")
            assert name.text == row.get_attribute("data-implementation")
            assert browser.execute_script("return arguments[0].getClientRects().length;", name) == 1
            assert browser.execute_script(RECT, name)[2] <= width
            head = row.find_element("css selector", "th")
            left, _, right, _ = browser.execute_script(RECT, head)
            assert right - left >= 0.8 * (width - 2 * 8), "the implementation's name is squeezed"
        failing = matrix.find_element("css selector",
                                      f'td.failing[data-implementation="{clamp_scenario.NAME}"][data-kind="features"]')
        left, top, right, bottom = browser.execute_script(RECT, failing)
        assert left >= 0 and right <= width, f"the failing cell spans {left}..{right} of {width} px"
        assert top >= 0 and bottom <= browser.execute_script("return window.innerHeight;"), "not on the screen"
        others = [c for c in rows[-1].find_elements("css selector", "td") if c != failing]
        assert all(browser.execute_script(RECT, c)[1] >= top for c in others), "the failing kind is not first"
        count = failing.find_element("css selector", 'li[data-outcome="unlisted"]')
        assert count.text == f"{len(changes)} unlisted"
        assert browser.execute_script("return getComputedStyle(arguments[0], '::before').content;",
                                      failing) == '"features"'  # each cell says its kind
        # the screenshot itself: the unlisted count's red is where the layout says, inside the 390 px
        ratio = browser.execute_script("return window.devicePixelRatio;")
        shot_width, _, lines = _pixels(png)
        assert shot_width == round(width * ratio)
        x0, y0, x1, y1 = (round(v * ratio) for v in browser.execute_script(RECT, count))
        step = len(lines[0]) // shot_width
        red = sum(lines[y][x * step:x * step + 3] == bytes(UNLISTED_RGB) for y in range(y0, y1)
                  for x in range(x0, min(x1, shot_width)))
        assert red >= 0.3 * (x1 - x0) * (y1 - y0), f"{red} red pixels in the unlisted count's box"


def test_at_desktop_width_the_matrix_stays_a_table(browser: Any, phone_page: Path) -> None:
    with _window(browser, "desktop"):
        _open(browser, phone_page)
        head = browser.find_element("css selector", "#matrix tr.head")
        assert head.is_displayed()
        failing = browser.find_element("css selector", "#matrix td.failing")
        assert browser.execute_script("return getComputedStyle(arguments[0]).display;", failing) == "table-cell"
        assert browser.execute_script(OVERFLOW) <= 0
