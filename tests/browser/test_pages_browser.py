"""The golden report and the conformance matrix page, used the way people use them: in Chromium.

Typing in the search box narrows the probes; the same view comes back from the URL alone; the
problems-only view is empty (and says so) on the committed corpus and shows exactly the drifted probes,
with their diffs, on a corpus with a hand-injected change; the matrix page of a recorded run lists
every divergence the known-divergences file gives for it, with its case id and reason. Each test leaves
a screenshot in the artifacts directory.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import clamp_scenario
import pytest
from golden_testkit import ROOT, copy_checkout, edit_vector, run_golden

from contract.cli.golden import main as golden_main

VISIBLE_PROBES = ("return Array.prototype.filter.call(document.querySelectorAll('section.probe[data-probe-id]'),"
                  " function (e) { return !e.hidden; }).map(function (e) { return e.dataset.probeId; });")
# The injected changes: rook-king-danger-w's kcp-13 mobility_diff committed as -12.0 (0xc1400000), the
# generators write -13.0 (0xc1500000); start-w's material-7-v1 total_material committed as 77.0
# (0x429a0000), the generators write 78.0 (0x429c0000).
INJECTED = {
    "rook-king-danger-w": ["kcp-13", "mobility_diff", "drift: committed → regenerated",
                           "-12.0", "0xc1400000", "-13.0", "0xc1500000"],
    "start-w": ["material-7-v1", "total_material", "drift: committed → regenerated",
                "77.0", "0x429a0000", "78.0", "0x429c0000"],
}


def _probes() -> list[dict[str, Any]]:
    data = json.loads((ROOT / "golden" / "probes.json").read_text(encoding="utf-8"))
    return list(data["probes"])


def _matching(needle: str) -> list[str]:
    needle = needle.lower()
    return [p["id"] for p in _probes()
            if needle in p["id"].lower() or any(needle in t.lower() for t in p["tags"])]


def _open(browser: Any, page: Path, query: str = "") -> None:
    browser.get(page.as_uri() + query)
    deadline = time.monotonic() + 30
    while browser.execute_script("return document.documentElement.getAttribute('data-ready');") != "1":
        assert time.monotonic() < deadline, f"{page}: the page's script never finished"
        time.sleep(0.05)


def _visible(browser: Any) -> list[str]:
    return list(browser.execute_script(VISIBLE_PROBES))


def _shot(browser: Any, artifacts: Path, name: str) -> None:
    target = artifacts / f"{name}.png"
    assert browser.save_screenshot(str(target)), f"no screenshot written to {target}"


@pytest.fixture(scope="module")
def committed_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("committed-report")
    assert golden_main(["--root", str(ROOT), "--quiet", "report", "--output", str(out)]) == 0
    return out / "index.html"


@pytest.fixture(scope="module")
def drifted_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = copy_checkout(tmp_path_factory.mktemp("drifted") / "repo")
    edit_vector(root, "kcp-13", "rook-king-danger-w", "-13.0, -2000.0", "-12.0, -2000.0")
    edit_vector(root, "material-7-v1", "start-w", "0.0, 78.0]", "0.0, 77.0]")
    out = root.parent / "report"
    result = run_golden(root, "report", "--output", str(out))
    assert result.returncode == 0, result.stdout + result.stderr
    return out / "index.html"


def test_typing_in_the_search_box_narrows_the_probes(browser: Any, committed_report: Path,
                                                     artifacts: Path) -> None:
    _open(browser, committed_report)
    everything = [p["id"] for p in _probes()]
    assert _visible(browser) == everything
    box = browser.find_element("id", "q")
    box.send_keys("ep-e6")
    expected = _matching("ep-e6")
    assert expected == ["ep-e6-w", "ep-e6-w-twin"]
    assert _visible(browser) == expected
    hidden = browser.find_element("css selector", '[data-probe-id="start-w"]')
    assert hidden.get_attribute("hidden") is not None and not hidden.is_displayed()
    assert browser.find_element("id", "shown").text == f"2 of {len(everything)} probes shown"
    assert browser.current_url.endswith("index.html?q=ep-e6")
    _shot(browser, artifacts, "golden-search-typed")
    box.clear()
    box.send_keys("castling")
    assert _visible(browser) == _matching("castling") and len(_matching("castling")) > 2


def test_the_url_restores_the_same_view(browser: Any, committed_report: Path, artifacts: Path) -> None:
    _open(browser, committed_report, "?q=ep-e6")
    assert _visible(browser) == ["ep-e6-w", "ep-e6-w-twin"]
    assert browser.find_element("id", "q").get_attribute("value") == "ep-e6"
    _shot(browser, artifacts, "golden-url-q")
    _open(browser, committed_report, "?q=TWIN&schema=kcp-13")
    assert _visible(browser) == _matching("twin")
    shown_tables = browser.execute_script(
        "return Array.prototype.filter.call(document.querySelectorAll('section.probe:not([hidden]) "
        ".info > [data-schema]'), function (e) { return !e.hidden; }).map(function (e) {"
        " return e.dataset.schema; });")
    assert shown_tables and set(shown_tables) == {"kcp-13"}
    assert browser.find_element("id", "schema").get_attribute("value") == "kcp-13"
    _shot(browser, artifacts, "golden-url-schema")
    _open(browser, committed_report, "?schema=no-such-schema")
    notice = browser.find_element("id", "unknown-schema")
    assert notice.is_displayed() and '"no-such-schema"' in notice.text
    assert len(_visible(browser)) == len(_probes())


def test_problems_only_shows_none_on_the_committed_corpus(browser: Any, committed_report: Path,
                                                          artifacts: Path) -> None:
    _open(browser, committed_report, "?problems=1")
    assert _visible(browser) == []
    notice = browser.find_element("id", "no-problems")
    assert notice.is_displayed()
    assert notice.text.startswith("No probe has a drifted or disagreeing cell")
    assert browser.find_element("id", "status").get_attribute("value") == "problems"
    _shot(browser, artifacts, "golden-problems-none")


def test_problems_only_shows_exactly_the_drifted_probes_with_their_diff(
        browser: Any, drifted_report: Path, artifacts: Path) -> None:
    _open(browser, drifted_report, "?problems=1")
    in_page_order = [p["id"] for p in _probes() if p["id"] in INJECTED]
    assert _visible(browser) == in_page_order
    assert not browser.find_element("id", "no-problems").is_displayed()
    for probe, row in INJECTED.items():
        rows = browser.find_elements("css selector", f'[data-probe-id="{probe}"] table.changes tr.drift')
        assert [[td.text for td in r.find_elements("tag name", "td")] for r in rows] == [row]
        assert rows[0].is_displayed()
    _shot(browser, artifacts, "golden-problems-drifted")
    _open(browser, drifted_report, "?problems=1&schema=kcp-13")  # the diff rows follow the schema filter
    assert _visible(browser) == in_page_order
    shown = [r.find_element("tag name", "td").text
             for r in browser.find_elements("css selector", "table.changes tr.drift") if r.is_displayed()]
    assert shown == ["kcp-13"]
    _open(browser, drifted_report, "?q=rook&problems=1")
    assert _visible(browser) == ["rook-king-danger-w"]


def _training_divergences() -> list[dict[str, Any]]:
    data = json.loads((ROOT / "golden" / "divergences.json").read_text(encoding="utf-8"))
    return [e for e in data["divergences"]
            if e["implementation"] == "training" and e.get("mode") in (None, "recorded")]


def test_the_matrix_page_lists_every_divergence_of_the_recorded_training_run(
        browser: Any, tmp_path: Path, artifacts: Path) -> None:
    page = tmp_path / "m.html"
    command = [sys.executable, "-m", "contract.conformance", "run", "--impl", "kit", "--impl", "training=recorded",
               "--html", str(page)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=900, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    entries = _training_divergences()
    assert entries, "golden/divergences.json lists no training divergence"
    _open(browser, page)
    _shot(browser, artifacts, "matrix-top")
    shown = {}
    for block in browser.find_elements("css selector", 'div.case[data-implementation="training"]'):
        assert block.get_attribute("data-outcome") == "listed", block.text
        reason = block.find_element("css selector", "p.reason").text
        assert reason.startswith("reason: ")
        shown[block.get_attribute("data-case-id")] = reason.removeprefix("reason: ")
    assert shown == {e["case"]: e["reason"] for e in entries}
    links = browser.find_elements("css selector", 'td[data-implementation="training"] li[data-outcome="listed"] a')
    assert sum(int(a.text.split()[0]) for a in links) == len(entries)
    first = links[0]
    first.click()
    target = browser.execute_script("return window.location.hash;")
    section = browser.find_element("css selector", target)
    assert section.find_elements("css selector", "div.case[data-case-id]")
    assert "kit version" in browser.find_element("id", "provenance").text
    _shot(browser, artifacts, "matrix-training-recorded")
    _open(browser, page, "?impl=training&status=listed")  # one implementation: its row, its cases
    assert sorted(browser.execute_script(VISIBLE_CASES)) == sorted(e["case"] for e in entries)
    rows = {r.get_attribute("data-implementation"): r.is_displayed()
            for r in browser.find_elements("css selector", "#matrix tr[data-implementation]")}
    assert rows == {"kit": False, "training": True}
    _shot(browser, artifacts, "matrix-training-filtered")


# ---- the pages as review tools (issue 25): the first screen at desktop and phone width, URL filters, no paths

WIDTHS = {"desktop": (1440, 900), "phone": (390, 844)}
FIRST_SCREEN = ("var r = arguments[0].getBoundingClientRect();"
                " return r.top >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth;")
VISIBLE_CASES = ("return Array.prototype.filter.call(document.querySelectorAll('div.case[data-case-id]'),"
                 " function (e) { return !e.hidden; }).map(function (e) { return e.dataset.caseId; });")
OVERFLOW = "return document.documentElement.scrollWidth - window.innerWidth;"


@contextmanager
def _window(browser: Any, width: str) -> Iterator[None]:
    browser.set_window_size(*WIDTHS[width])
    try:
        yield
    finally:
        browser.set_window_size(1400, 1000)


def _first_screen(browser: Any, element: Any) -> bool:
    return bool(browser.execute_script(FIRST_SCREEN, element))


def _machine_paths(page: Path, *more: Path) -> list[str]:
    source = page.read_text(encoding="utf-8")
    machine = [str(ROOT), sys.executable, sys.prefix, tempfile.gettempdir() + "/", str(Path.home()) + "/",
               *(str(p) for p in more)]
    return [m for m in machine if m in source]


def _float_text(value: float) -> str:
    assert value.is_integer(), value  # the clamp's values are whole: Java's Float.toString is "<n>.0"
    return f"{value:.1f}"


@pytest.fixture(scope="module")
def clamped_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("clamped")
    page = directory / "matrix.html"
    done = clamp_scenario.run_clamped(directory, page)
    assert done.returncode == 1, done.stdout + done.stderr
    assert _machine_paths(page, directory) == []
    return page


@pytest.mark.parametrize("width", WIDTHS)
def test_the_first_screen_of_the_matrix_page_names_the_clamped_column(
        browser: Any, clamped_page: Path, artifacts: Path, width: str) -> None:
    changes = clamp_scenario.expected_changes()
    with _window(browser, width):
        _open(browser, clamped_page)
        _shot(browser, artifacts, f"matrix-clamped-{width}")
        assert browser.execute_script("return window.innerWidth;") == WIDTHS[width][0]
        verdict = browser.find_element("id", "verdict")
        assert verdict.text.startswith(f"FAIL: {len(changes)} unlisted disagreement(s)")
        assert _first_screen(browser, verdict)
        summary = browser.find_element("css selector", "#summary p.what-changed")
        assert summary.text == (f"clamped · features, {len(changes)} cases: one column, king_safety_diff, in"
                                f" {len({c.schema for c in changes})} schemas, {len({c.probe for c in changes})}"
                                f" probes ({len(changes)} cells).")
        row = browser.find_element("css selector", '#summary tr[data-column="king_safety_diff"]')
        cells = row.find_elements("tag name", "td")
        first = changes[0]
        shown = {"column": cells[0], "expected": cells[4], "got": cells[6]}
        assert {k: e.text for k, e in shown.items()} == {
            "column": "king_safety_diff", "expected": _float_text(first.expected), "got": _float_text(first.got)}
        for name, element in shown.items():
            assert _first_screen(browser, element), f"{name} is not on the first screen at {width}"
        assert "changed" in cells[6].get_attribute("class")
        matrix = browser.find_element("id", "matrix")
        assert browser.execute_script("return arguments[0].getBoundingClientRect().top < window.innerHeight;", matrix)
        assert browser.execute_script(OVERFLOW) <= 0, "the page scrolls sideways"


def test_the_matrix_page_filters_keep_their_state_in_the_url(browser: Any, clamped_page: Path,
                                                             artifacts: Path) -> None:
    every = [c.case for c in clamp_scenario.expected_changes()]
    _open(browser, clamped_page)
    assert browser.execute_script(VISIBLE_CASES) == every
    box = browser.find_element("id", "q")
    box.send_keys("rook-king-danger")
    chosen = [c for c in every if "rook-king-danger" in c]
    assert chosen and browser.execute_script(VISIBLE_CASES) == chosen
    assert browser.current_url.endswith("matrix.html?q=rook-king-danger")
    assert browser.find_element("id", "shown").text == f"{len(chosen)} of {len(every)} disagreements shown"
    select = pytest.importorskip("selenium.webdriver.support.ui").Select  # present: the browser fixture ran
    select(browser.find_element("id", "status")).select_by_value("listed")
    assert browser.execute_script(VISIBLE_CASES) == []
    assert browser.find_element("id", "no-match").is_displayed()
    assert browser.current_url.endswith("?q=rook-king-danger&status=listed")
    _open(browser, clamped_page, "?q=KCP-13&impl=clamped&kind=features&status=unlisted")
    assert browser.execute_script(VISIBLE_CASES) == [c for c in every if "kcp-13" in c]
    assert [browser.find_element("id", i).get_attribute("value") for i in ("q", "impl", "kind", "status")] == [
        "KCP-13", "clamped", "features", "unlisted"]
    _shot(browser, artifacts, "matrix-clamped-url-filters")
    _open(browser, clamped_page, "?impl=nosuch")
    notice = browser.find_element("id", "unknown-filter")
    assert notice.is_displayed() and 'impl="nosuch"' in notice.text
    assert browser.execute_script(VISIBLE_CASES) == every


def test_no_page_names_a_path_of_the_machine(committed_report: Path, drifted_report: Path) -> None:
    assert _machine_paths(committed_report, committed_report.parent) == []
    assert _machine_paths(drifted_report, drifted_report.parent.parent) == []


@pytest.mark.parametrize("width", WIDTHS)
def test_the_golden_report_opens_with_what_changed_and_its_changes_fit_a_phone(
        browser: Any, drifted_report: Path, artifacts: Path, width: str) -> None:
    with _window(browser, width):
        _open(browser, drifted_report, "?problems=1")
        _shot(browser, artifacts, f"golden-drifted-summary-{width}")
        summary = browser.find_element("css selector", "#summary p.what-changed")
        assert summary.text == ("Drift against the committed corpus: 2 columns, total_material, mobility_diff,"
                                " in 2 schemas, 2 probes (2 cells).")
        for column, committed, regenerated in (("mobility_diff", "-12.0", "-13.0"),
                                               ("total_material", "77.0", "78.0")):
            row = browser.find_element("css selector", f'#summary tr[data-column="{column}"]')
            cells = row.find_elements("tag name", "td")
            assert [cells[0].text, cells[4].text, cells[6].text] == [column, committed, regenerated]
            assert _first_screen(browser, cells[6]), f"{column} is not on the first screen at {width}"
        assert browser.execute_script(OVERFLOW) <= 0, "the page scrolls sideways"
        tables = [t for t in browser.find_elements("css selector", "section.probe table.changes") if t.is_displayed()]
        assert len(tables) == len(INJECTED)
        for table in tables:
            right = browser.execute_script("return arguments[0].getBoundingClientRect().right;", table)
            assert right <= WIDTHS[width][0], f"a changed-cells table is {right} px wide at {width}"
        browser.execute_script("arguments[0].scrollIntoView();", tables[0])
        _shot(browser, artifacts, f"golden-drifted-changes-{width}")
