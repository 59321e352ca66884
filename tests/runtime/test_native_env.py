"""tests/native_env.py, what `tox -e native` runs: the whole suite on the accelerator where Rust exists, and
a plain NOT TESTED (exit 0) where it does not — a failure only where DICECHESS_REQUIRE_NATIVE=1 (CI)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import native_env  # tests/ is on the path (tests/conftest.py)
import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_without_cargo_the_env_says_not_tested_and_passes(monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(native_env.shutil, "which", lambda name: None)
    monkeypatch.delenv("DICECHESS_REQUIRE_NATIVE", raising=False)
    ran: list[object] = []
    monkeypatch.setattr(native_env.subprocess, "run", lambda *a, **k: ran.append(a))
    assert native_env.main(["--wheels", "/tmp/w"]) == 0
    assert capsys.readouterr().out.startswith("native: NOT TESTED: no Rust toolchain (cargo is not on PATH)")
    assert ran == []


def test_without_cargo_a_run_that_requires_the_accelerator_fails(monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(native_env.shutil, "which", lambda name: None)
    monkeypatch.setenv("DICECHESS_REQUIRE_NATIVE", "1")
    assert native_env.main(["--wheels", "/tmp/w"]) == 1
    assert "DICECHESS_REQUIRE_NATIVE=1 requires the accelerator" in capsys.readouterr().err


def test_with_cargo_every_step_runs_in_order_and_the_first_failure_ends_the_run(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(native_env.shutil, "which", lambda name: "/usr/bin/cargo")
    ran: list[list[str]] = []

    def run(command: list[str], check: bool) -> subprocess.CompletedProcess[bytes]:
        ran.append(command)
        return subprocess.CompletedProcess(command, 3 if "not slow" in command else 0)

    monkeypatch.setattr(native_env.subprocess, "run", run)
    assert native_env.main(["--wheels", "/tmp/w", "-x"]) == 3
    assert [c[2] if c[0] == sys.executable else c[1] for c in ran] == ["maturin", "pip", "test", "pytest"]
    assert ran[-1][-1] == "-x"  # the caller's pytest arguments reach pytest
    assert "native: exit 3 from pytest" in capsys.readouterr().err
    full = native_env.steps("/usr/bin/cargo", "/tmp/w", [])
    assert full[-1][-len(native_env.SLOW_DIRECTORIES):] == list(native_env.SLOW_DIRECTORIES)
    assert full[-1][-len(native_env.SLOW_DIRECTORIES) - 1] == "slow"


def test_a_call_without_its_wheel_directory_is_a_usage_error() -> None:
    assert native_env.main([]) == 2
    assert native_env.main(["-x"]) == 2


def test_tox_and_ci_run_it_so() -> None:
    tox = (ROOT / "tox.ini").read_text()
    native = tox[tox.index("[testenv:native]"):]
    native = native[:native.index("\n[testenv:", 1)]
    assert "python tests/native_env.py --wheels {env_tmp_dir}/wheels {posargs}" in native
    assert "DICECHESS_BACKEND = native" in native
    assert "export DICECHESS_REQUIRE_NATIVE=1" in (ROOT / ".ci" / "run").read_text()
