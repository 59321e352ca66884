"""``conformance run`` says which corpus it asked (issue 35): the checkout's when run from one, else the
installed kit's; a checkout whose corpus differs from the installed kit's fails the run, naming the files.
``--impl`` defaults to the kit."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from scratch_checkout import START_W, checkout_copy

from contract.cli import main as kit_main
from contract.conformance import corpusroot
from contract.core.resources import data_root


@pytest.fixture(autouse=True)
def _installed_corpus_afterwards() -> object:
    yield
    corpusroot.use(None)  # the CLI points the readers at the corpus it chose; later tests read the kit's


def test_outside_a_checkout_the_installed_corpus_is_used_and_named(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert kit_main(["conformance", "run", "--impl", "service=recorded", "--kinds", "engine-compatibility"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith(f"Corpus: the installed kit's, {data_root().resolve()} (golden/, schema/; sha256 ")


def test_no_impl_means_the_kit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert kit_main(["conformance", "run", "--kinds", "engine-compatibility", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [i["name"] for i in report["implementations"]] == ["kit"]
    assert report["corpus"]["source"] == "installed" and report["corpus"]["digest"] == report["corpus"]["installedDigest"]


def test_a_checkout_whose_corpus_differs_from_the_installed_kits_fails_and_says_which_it_used(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    checkout = checkout_copy(tmp_path)
    monkeypatch.chdir(checkout)
    choice = corpusroot.choose()
    assert choice.source == "checkout" and choice.root == checkout.resolve()
    assert choice.differing == ("golden/vectors/kcp-13.json",)
    # engine-compatibility alone agrees everywhere: the corpus difference by itself fails the run
    assert kit_main(["conformance", "run", "--impl", "service=recorded", "--kinds", "engine-compatibility"]) == 1
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith(f"Corpus: the checkout {checkout.resolve()} (golden/, schema/; sha256 ")
    assert "DIFFERS FROM THE INSTALLED KIT'S" in out.splitlines()[0]
    assert "in 1 file(s): golden/vectors/kcp-13.json" in out and out.rstrip().splitlines()[-1].startswith("FAIL")
    assert kit_main(["conformance", "run", "--impl", "service=recorded", "--kinds", "engine-compatibility",
                     "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert not report["ok"] and report["corpus"]["source"] == "checkout"
    assert report["corpus"]["root"] == str(checkout.resolve())
    assert report["corpus"]["digest"] != report["corpus"]["installedDigest"]


def test_a_checkout_with_the_installed_corpus_passes_and_says_so(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    checkout = checkout_copy(tmp_path)
    shutil.copyfile(data_root() / "golden" / "vectors" / "kcp-13.json", checkout / "golden" / "vectors" / "kcp-13.json")
    monkeypatch.chdir(checkout)
    assert kit_main(["conformance", "run", "--impl", "service=recorded", "--kinds", "engine-compatibility"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith(f"Corpus: the checkout {checkout.resolve()} ") and first.endswith(
        ", the same as the installed kit's")


@pytest.mark.slow
def test_a_non_editable_install_run_from_a_drifted_checkout_fails_naming_the_corpus(tmp_path: Path) -> None:
    """The issue's scenario: the wheel installed (not editable), run from a checkout with a changed vector."""
    out = tmp_path / "wheel"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(data_root())],
                   check=True, capture_output=True, timeout=600)
    (wheel,) = out.glob("dicechess_contract-*.whl")
    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site), str(wheel)],
                   check=True, capture_output=True, timeout=600)
    checkout = checkout_copy(tmp_path)
    # the installed kit provides `contract` to the run and to the kit's adapter (PYTHONPATH comes before the
    # editable install's path entry; -P keeps the checkout's own contract/ off the path, as a console script does)
    script = ("import sys; sys.argv = ['dicechess-contract', 'conformance', 'run', '--kinds', 'features'];"
              " from contract.cli import main; raise SystemExit(main())")
    env = {**{k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"}, "PYTHONPATH": str(site)}
    done = subprocess.run([sys.executable, "-P", "-c", script], cwd=checkout, env=env,
                          capture_output=True, text=True, timeout=900, check=False)
    assert done.returncode == 1, done.stdout[-2000:] + done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"Corpus: the checkout {checkout.resolve()} (golden/, schema/; sha256 "), lines[0]
    assert "DIFFERS FROM THE INSTALLED KIT'S" in lines[0]
    assert f"installed kit's ({site.resolve() / 'contract' / '_data'})" in done.stdout
    assert f"kit  {START_W}" in done.stdout  # the drifted vector is asked, and the installed kit disagrees


def test_the_kits_adapter_is_this_kit_even_beside_another_contract_package(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Run from a directory holding a foreign ``contract/`` (another checkout's code), the kit's adapter
    still imports the running kit: the working directory is not on its path (-P)."""
    foreign = tmp_path / "contract"
    foreign.mkdir()
    (foreign / "__init__.py").write_text("raise ImportError('the foreign contract package was imported')\n",
                                         encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert kit_main(["conformance", "run", "--kinds", "engine-compatibility"]) == 0, capsys.readouterr().err
    assert "kit             live  engine-compatibility" in capsys.readouterr().out
