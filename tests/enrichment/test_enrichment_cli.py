"""``python -m contract extract`` bulk options, run as a user runs them (child processes)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from enrichment_data import cli_env, corpus_rows, run_cli, write_jsonl

from contract.enrichment import EnrichmentError, Options, enrich_file
from contract.enrichment.runs.pool import run_bounded


@pytest.mark.slow
def test_sigkill_half_way_then_resume_gives_the_uninterrupted_bytes(tmp_path: Path) -> None:
    rows = corpus_rows(1500)
    rows[1234]["side"] = "black"  # one reject, to show rejects survive the kill too
    source = write_jsonl(tmp_path / "in.jsonl", rows)
    common = ["--schema", "kcp-13", "--input", str(source), "--jobs", "2", "--chunk-size", "10"]
    whole = run_cli("extract", *common, "--output", tmp_path / "whole.jsonl", "--quiet")
    assert whole.returncode == 1, whole.stderr  # 1: one row rejected

    output = tmp_path / "out.jsonl"
    parts = tmp_path / "out.jsonl.parts"
    child = subprocess.Popen(
        [sys.executable, "-m", "contract", "extract", *common, "--output", str(output), "--quiet"],
        env=cli_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 120
        while len(list(parts.glob("part-*.rows.jsonl"))) < 3:
            assert child.poll() is None, "the run ended before it could be killed"
            assert time.monotonic() < deadline, "no chunk finished within two minutes"
            time.sleep(0.002)
    finally:
        os.killpg(child.pid, signal.SIGKILL)  # the run and its workers (its own process group)
        child.wait()
    finished = len(list(parts.glob("part-*.rows.jsonl")))
    assert 3 <= finished < 150
    assert not output.exists()

    refused = run_cli("extract", *common, "--output", output)
    assert refused.returncode == 1
    assert "--resume" in refused.stderr and "interrupted run" in refused.stderr

    resumed = run_cli("extract", *common, "--output", output, "--resume")
    assert resumed.returncode == 1, resumed.stderr
    assert "input rows were done before --resume" in resumed.stderr
    for suffix in ("", ".rejects.jsonl", ".meta.json"):
        assert (tmp_path / f"whole.jsonl{suffix}").read_bytes() == (tmp_path / f"out.jsonl{suffix}").read_bytes()
    assert not parts.exists()
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(
        f"{stem}.jsonl{suffix}" for stem in ("in", "whole", "out") for suffix in ("", ".rejects.jsonl", ".meta.json")
        if stem != "in" or suffix == ""
    )


def test_ctrl_c_keeps_finished_chunks_and_says_how_to_resume(tmp_path: Path) -> None:
    source = write_jsonl(tmp_path / "in.jsonl", corpus_rows(3000))
    output = tmp_path / "out.jsonl"
    common = ["--schema", "kcp-13", "--input", str(source), "--output", str(output), "--jobs", "2",
              "--chunk-size", "10", "--quiet"]
    child = subprocess.Popen([sys.executable, "-m", "contract", "extract", *common], env=cli_env(),
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while not list((tmp_path / "out.jsonl.parts").glob("part-*.rows.jsonl")):
            assert child.poll() is None and time.monotonic() < deadline
            time.sleep(0.002)
        os.killpg(child.pid, signal.SIGINT)  # what a terminal's Ctrl-C sends: the whole group
        _, stderr = child.communicate(timeout=120)
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait()
    assert child.returncode == 130
    assert "interrupted" in stderr and "--resume" in stderr and "Traceback" not in stderr
    assert not output.exists()
    assert (tmp_path / "out.jsonl.parts" / "state.json").is_file()
    assert list((tmp_path / "out.jsonl.parts").glob("part-*.rows.jsonl"))


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--jobs", "2"], "--jobs need both --input FILE"),
        (["--resume", "--chunk-size", "5"], "--resume, --chunk-size need both"),
        (["--jobs", "0", "--output", "OUT"], "must be at least 1"),
        (["--output", "OUT.csv"], "cannot tell the format"),
    ],
)
def test_usage_errors_exit_2(tmp_path: Path, extra: list[str], message: str) -> None:
    source = write_jsonl(tmp_path / "in.jsonl", corpus_rows(2))
    args = [arg.replace("OUT", str(tmp_path / "out")) for arg in extra]
    done = run_cli("extract", "--schema", "kcp-13", "--input", source, *args)
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr
    assert list(tmp_path.iterdir()) == [source]


def test_refusals_exit_1_with_a_message(tmp_path: Path) -> None:
    missing = run_cli("extract", "--schema", "kcp-13", "--input", tmp_path / "absent.jsonl",
                      "--output", tmp_path / "out.jsonl")
    assert missing.returncode == 1 and "no such input file" in missing.stderr
    fake = tmp_path / "fake.parquet"
    fake.write_bytes(b"PAR1 not really")
    broken = run_cli("extract", "--schema", "kcp-13", "--input", fake, "--output", tmp_path / "out.parquet")
    assert broken.returncode == 1 and "not a readable Parquet file" in broken.stderr
    assert "Traceback" not in missing.stderr + broken.stderr


def test_a_clean_run_exits_0_and_reports_on_stderr_only(tmp_path: Path) -> None:
    source = write_jsonl(tmp_path / "in.jsonl", corpus_rows(30))
    done = run_cli("extract", "--schema", "material-7-v1", "--input", source, "--output", tmp_path / "o.jsonl")
    assert done.returncode == 0
    assert done.stdout == ""
    assert "wrote 30 rows" in done.stderr and "; none rejected\n" in done.stderr and "see" not in done.stderr
    quiet = run_cli("extract", "--schema", "material-7-v1", "--input", source, "--output", tmp_path / "q.jsonl",
                    "--quiet")
    assert (quiet.returncode, quiet.stdout, quiet.stderr) == (0, "", "")


def test_parquet_without_pyarrow_says_how_to_install_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = tmp_path / "in.parquet"
    source.write_bytes(b"PAR1")
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # as if the [parquet] extra were not installed
    with pytest.raises(EnrichmentError, match=r"pip install 'dicechess-contract\[parquet\]'"):
        enrich_file(Options("kcp-13", source, tmp_path / "out.parquet"))
    assert not (tmp_path / "out.parquet.parts").exists()


def test_a_worker_that_dies_stops_the_run_with_a_message() -> None:
    results: list[object] = []
    with pytest.raises(EnrichmentError, match=r"a worker process died .* rerun with --resume"):
        run_bounded([3, 3, 3], os._exit, 2, results.append)  # the worker exits at once, as if killed
    assert results == []


def test_extract_of_jsonl_imports_neither_onnx_nor_pyarrow(tmp_path: Path) -> None:
    """Start-up is part of every bulk run's time (and each --jobs worker imports the kit again): building
    the command line and a JSONL-to-JSONL run leave onnx (about 1 s to import) and pyarrow alone."""
    source = tmp_path / "in.jsonl"
    source.write_text('{"id": 1, "fen": "4k3/8/8/8/8/8/8/4K3 w - -"}\n', encoding="utf-8")
    script = ("import sys\nfrom contract.cli import main\n"
              f"code = main(['extract', '--schema', 'kcp-13', '--input', {str(source)!r}, '--output', "
              f"{str(tmp_path / 'out.jsonl')!r}, '--quiet'])\n"
              "print(code, sorted(m for m in ('onnx', 'onnxruntime', 'pyarrow') if m in sys.modules))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, check=False)
    assert done.stdout.split("\n")[0] == "0 []", done.stderr
