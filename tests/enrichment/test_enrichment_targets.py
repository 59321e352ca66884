"""Every path ``extract`` writes is checked before any work (review of 2026-11-30, issue 10 items 3, 4,
11, 12; issue 17): same file as an input or as another output, devices, FIFOs, existing files, full
disks. Each test names what it was before."""

from __future__ import annotations

import json
import os
import resource
import signal
import stat
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from enrichment_data import cli_env, corpus_rows, run_cli, write_jsonl

from contract.cli import main

KINGS = "4k3/8/8/8/8/8/4r3/4K3 w - -"


def names(directory: Path) -> list[str]:
    return sorted(path.name for path in directory.iterdir())


def extract(*args: str | Path) -> list[str]:
    return ["extract", "--schema", "material-7-v1", *map(str, args), "--quiet"]


def test_the_rejects_path_of_the_input_is_refused_before_the_input_is_destroyed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Was: ``--input out.jsonl.rejects.jsonl --output out.jsonl`` turned 300 input rows into 4 reject lines."""
    source = write_jsonl(tmp_path / "out.jsonl.rejects.jsonl", corpus_rows(300))
    before = source.read_bytes()
    assert main(extract("--input", source, "--output", tmp_path / "out.jsonl")) == 1
    assert capsys.readouterr().err == (f"extract: {source}: the rejects file is the same file as the input"
                                       f" ({source}); it would be destroyed\n")
    assert source.read_bytes() == before
    assert names(tmp_path) == ["out.jsonl.rejects.jsonl"]


def test_the_sidecar_path_of_the_input_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Was: ``--input o2.meta.json --format jsonl --output o2`` replaced the input with metadata."""
    source = write_jsonl(tmp_path / "o2.meta.json", corpus_rows(5))
    before = source.read_bytes()
    assert main(extract("--input", source, "--format", "jsonl", "--output", tmp_path / "o2")) == 1
    assert "the metadata sidecar is the same file as the input" in capsys.readouterr().err
    assert source.read_bytes() == before


def test_a_hard_link_to_the_input_is_the_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Names differ, the file is the same: compared by st_dev/st_ino, not by name."""
    source = write_jsonl(tmp_path / "in.jsonl", corpus_rows(5))
    os.link(source, tmp_path / "alias.jsonl")
    before = source.read_bytes()
    assert main(extract("--input", source, "--output", tmp_path / "o.jsonl", "--rejects",
                        tmp_path / "alias.jsonl", "--overwrite")) == 1
    assert "the rejects file is the same file as the input" in capsys.readouterr().err
    assert source.read_bytes() == before


@pytest.mark.parametrize("rejects", ["out.jsonl.meta.json", "out.jsonl.parts", "out.jsonl"])
def test_a_rejects_path_that_is_another_output_fails_before_the_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], rejects: str
) -> None:
    """Was: ``--rejects OUT.meta.json`` lost the rejects; ``--rejects OUT.parts`` failed only after all the work."""
    source = write_jsonl(tmp_path / "in.jsonl", [*corpus_rows(3), {"id": "bad", "fen": "x"}])
    assert main(extract("--input", source, "--output", tmp_path / "out.jsonl", "--rejects", tmp_path / rejects)) == 1
    err = capsys.readouterr().err
    assert " is the same file as the " in err and "rejects file" in err
    assert names(tmp_path) == ["in.jsonl"]  # nothing created, not even the parts directory


def test_an_existing_output_is_kept_unless_overwrite_is_given(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Was: ``extract --output FILE`` silently replaced an existing file (issue 17)."""
    source = write_jsonl(tmp_path / "in.jsonl", corpus_rows(3))
    mine = tmp_path / "mine.jsonl"
    mine.write_text("my own data\n")
    for args in (["--input", source], ["--fen", KINGS]):
        assert main(extract(*args, "--output", mine)) == 1
        assert capsys.readouterr().err == f"extract: {mine}: the output exists; pass --overwrite to replace it\n"
        assert mine.read_text() == "my own data\n"
    assert main(extract("--input", source, "--output", mine, "--overwrite")) == 0
    assert len(mine.read_text().splitlines()) == 3
    (tmp_path / "other.jsonl.rejects.jsonl").write_text("someone's rejects\n")
    assert main(extract("--input", source, "--output", tmp_path / "other.jsonl")) == 1
    assert "other.jsonl.rejects.jsonl: the rejects file exists; pass --overwrite" in capsys.readouterr().err


def test_a_fifo_as_output_or_rejects_is_refused_and_left_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Was: a regular file renamed over the FIFO."""
    source = write_jsonl(tmp_path / "in.jsonl", corpus_rows(3))
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    for args in (["--input", source, "--output", fifo], ["--fen", KINGS, "--output", fifo],
                 ["--input", source, "--output", tmp_path / "o.jsonl", "--rejects", fifo]):
        assert main(extract(*args, "--overwrite")) == 1
        err = capsys.readouterr().err
        assert f"{fifo}: is a FIFO (named pipe); the " in err and "must be a regular file or absent" in err
        assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert names(tmp_path) == ["in.jsonl", "pipe.jsonl"]


@pytest.mark.skipif(os.geteuid() != 0, reason="creating a device node needs root")
def test_a_device_node_is_never_replaced(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Was: as root, ``--output /dev/null`` (and ``--rejects``, and ``--fen … --output``) renamed a regular
    file over the node; ``--output /dev/full`` reported "wrote 296 rows". A private node (the null
    device's numbers) stands for /dev/null, so a failure cannot break the machine's."""
    source = write_jsonl(tmp_path / "in.jsonl", corpus_rows(3))
    node = tmp_path / "null.jsonl"
    os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    for args in (["--input", source, "--output", node], ["--fen", KINGS, "--output", node],
                 ["--input", source, "--output", tmp_path / "o.jsonl", "--rejects", node]):
        assert main(extract(*args, "--overwrite")) == 1
        assert f"{node}: is a character device; the " in capsys.readouterr().err
        assert stat.S_ISCHR(node.lstat().st_mode)
    assert names(tmp_path) == ["in.jsonl", "null.jsonl"]


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_stdout_is_a_failure_naming_stdout() -> None:
    """Was: ``> /dev/full`` went unnoticed or ended in a traceback."""
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "contract", "extract", "--schema", "kcp-13", "--fen", KINGS],
                              stdout=full, stderr=subprocess.PIPE, text=True, env=cli_env(), timeout=120, check=False)
    assert done.returncode == 1
    assert done.stderr == "extract: stdout: cannot be written (No space left on device)\n"


def _small_file_limit() -> None:  # runs in the child: writes past 16 KiB fail with EFBIG, like a full disk
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (16 << 10, 16 << 10))


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_write_that_fails_names_the_file_and_the_reason(tmp_path: Path, jobs: str) -> None:
    """Was: "No space left on device" with no path at all (and the temporary file's name for a rename)."""
    source = write_jsonl(tmp_path / "in.jsonl", corpus_rows(600))
    output = tmp_path / "out.jsonl"
    output.write_text("previous\n")
    done = subprocess.run(
        [sys.executable, "-m", "contract", *extract("--input", source, "--output", output, "--overwrite",
                                                     "--jobs", jobs, "--chunk-size", "100")],
        # no bytecode written: under the limit CPython's one write() of a .pyc is cut at 16 KiB without an
        # error and the truncated file is renamed into __pycache__, breaking later imports of that module
        capture_output=True, text=True, env={**cli_env(), "PYTHONDONTWRITEBYTECODE": "1"}, timeout=300, check=False,
        preexec_fn=_small_file_limit,
    )
    assert done.returncode == 1
    assert done.stderr.startswith(f"extract: {tmp_path}/out.jsonl")
    assert done.stderr.endswith(": cannot be written (File too large)\n")
    assert "Traceback" not in done.stderr
    assert output.read_text() == "previous\n"


def test_jsonl_to_parquet_and_parquet_to_jsonl(tmp_path: Path) -> None:
    """Was: "Input and output must have the same format" (issue 17)."""
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    rows = [*corpus_rows(40), {"id": "bad", "fen": "x"}]
    source = write_jsonl(tmp_path / "in.jsonl", rows)
    pq.write_table(pa.table({"id": [row["id"] for row in rows], "fen": [row["fen"] for row in rows],
                             "side": [row.get("side") for row in rows]}), tmp_path / "in.parquet")
    direct = run_cli(*extract("--input", source, "--output", tmp_path / "direct.jsonl"))
    assert direct.returncode == 1
    there = run_cli(*extract("--input", source, "--output", tmp_path / "rows.parquet"))
    assert there.returncode == 1, there.stderr
    table = pq.read_table(tmp_path / "rows.parquet")
    assert table.column_names == ["id", "features"]
    assert table.column("id").to_pylist() == [row["id"] for row in rows[:40]]
    direct_lines = [json.loads(line) for line in (tmp_path / "direct.jsonl").read_text().splitlines()]
    assert table.column("features").to_pylist() == [
        [float(np.float32(value)) for value in line["features"]] for line in direct_lines]
    back = run_cli(*extract("--input", tmp_path / "in.parquet", "--output", tmp_path / "back.jsonl"))
    assert back.returncode == 1, back.stderr
    assert (tmp_path / "back.jsonl").read_bytes() == (tmp_path / "direct.jsonl").read_bytes()
    assert (tmp_path / "back.jsonl.meta.json").read_bytes() == (tmp_path / "direct.jsonl.meta.json").read_bytes()
    for name in ("rows.parquet", "back.jsonl"):  # Parquet rejects carry row numbers, JSONL line numbers: the same here
        assert (tmp_path / f"{name}.rejects.jsonl").read_text() == (tmp_path / "direct.jsonl.rejects.jsonl").read_text()
