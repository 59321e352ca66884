"""Workers die with their parent, a run never adopts another run's chunks, and a second run on the same
output is refused while the first holds it (review of 2026-11-30, issue 10 items 5 and 13)."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from enrichment_data import cli_env, corpus_rows, run_cli, write_jsonl

from contract.enrichment import EnrichmentError, Options, enrich_file
from contract.enrichment.runs import pipeline
from contract.enrichment.runs.parts import PartStore


def _children() -> dict[int, int]:
    """``pid -> parent pid`` of every live (not zombie) process."""
    table: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z":
            table[int(entry.name)] = int(fields[1])
    return table


def _descendants(root: int) -> set[int]:
    table = _children()
    found: set[int] = set()
    frontier = {root}
    while frontier:
        found |= frontier
        frontier = {pid for pid, parent in table.items() if parent in frontier} - found
    return found - {root}


def _alive(pids: set[int]) -> set[int]:
    return pids & set(_children())


def _start(args: list[str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "contract", "extract", *args], env=cli_env(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)


def _wait_for_parts(child: subprocess.Popen[bytes], parts: Path, count: int) -> None:
    deadline = time.monotonic() + 180
    while len(list(parts.glob("part-*.rows.jsonl"))) < count:
        assert child.poll() is None, "the run ended before it could be killed"
        assert time.monotonic() < deadline, "no chunk finished within three minutes"
        time.sleep(0.005)


def _kill_group(child: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(child.pid, signal.SIGKILL)
    child.wait()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process table from /proc")
def test_sigkill_of_extract_jobs_2_leaves_no_process_alive(tmp_path: Path) -> None:
    """Was: both workers outlived the SIGKILLed main process forever (each holds both ends of its queue
    pipe); ten kills left 30 processes."""
    source = write_jsonl(tmp_path / "in.jsonl", corpus_rows(4000))
    child = _start(["--schema", "kcp-13", "--input", str(source), "--output", str(tmp_path / "out.jsonl"),
                    "--jobs", "2", "--chunk-size", "20", "--quiet"])
    try:
        _wait_for_parts(child, tmp_path / "out.jsonl.parts", 2)
        family = _descendants(child.pid)
        assert len(family) >= 2, "the workers were not found"
        os.kill(child.pid, signal.SIGKILL)  # the main process only, as the OOM killer or `kill -9 PID` would
        child.wait()
        deadline = time.monotonic() + 5
        while _alive(family) and time.monotonic() < deadline:
            time.sleep(0.05)
        survivors = _alive(family)
        for pid in survivors:  # do not leave them behind for the rest of the suite
            os.kill(pid, signal.SIGKILL)
        assert not survivors, f"still alive 5 s after the kill: {sorted(survivors)}"
    finally:
        _kill_group(child)


def _semaphores(pid: int) -> set[str]:
    """The named POSIX semaphores process ``pid`` has mapped (``/dev/shm/sem.*``)."""
    try:
        maps = Path(f"/proc/{pid}/maps").read_text()
    except OSError:
        return set()
    return {line.split()[-1] for line in maps.splitlines() if "/dev/shm/sem." in line}


@pytest.mark.skipif(not Path("/proc/self/maps").exists() or not Path("/dev/shm").is_dir(),
                    reason="reads /proc and /dev/shm")
def test_sigkill_of_extract_jobs_2_prints_no_resource_tracker_warning_and_leaks_no_semaphore(tmp_path: Path) -> None:
    """Review LOW L8: after a SIGKILL of the main process, multiprocessing's resource tracker printed
    "There appear to be 5 leaked semaphore objects to clean up at shutdown" to the run's stderr. It still
    removes them (checked here by name), without the notice."""
    source = write_jsonl(tmp_path / "in.jsonl", corpus_rows(4000))
    child = subprocess.Popen([sys.executable, "-m", "contract", "extract", "--schema", "kcp-13", "--input",
                              str(source), "--output", str(tmp_path / "out.jsonl"), "--jobs", "2", "--chunk-size",
                              "20", "--quiet"], env=cli_env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             start_new_session=True)
    try:
        _wait_for_parts(child, tmp_path / "out.jsonl.parts", 2)
        ours = _semaphores(child.pid)
        assert ours, "the pool's semaphores were not found"
        os.kill(child.pid, signal.SIGKILL)
        _, err = child.communicate(timeout=60)  # until every writer of its stderr (tracker, workers) is gone
        assert b"leaked" not in err and b"resource_tracker" not in err, err.decode("utf-8", "replace")
        deadline = time.monotonic() + 10
        while any(Path(name).exists() for name in ours) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [name for name in ours if Path(name).exists()], "the pool's semaphores were left in /dev/shm"
    finally:
        _kill_group(child)


def test_a_killed_run_never_leaks_its_rows_into_the_next_run(tmp_path: Path) -> None:
    """Was: after a killed kcp-13 run and ``rm -rf OUT.parts`` (as the kit's message suggested), a
    material-7-v1 run's output held kcp-13 rows from the killed run's workers behind a normal summary."""
    source = write_jsonl(tmp_path / "in.jsonl", corpus_rows(3000))
    output = tmp_path / "out.jsonl"
    parts = tmp_path / "out.jsonl.parts"
    child = _start(["--schema", "kcp-13", "--input", str(source), "--output", str(output), "--jobs", "2",
                    "--chunk-size", "100", "--quiet"])
    try:
        _wait_for_parts(child, parts, 1)
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        shutil.rmtree(parts)
        done = run_cli("extract", "--schema", "material-7-v1", "--input", source, "--output", output,
                       "--chunk-size", "100", "--quiet")
    finally:
        _kill_group(child)
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in output.read_text().splitlines()]
    assert len(lines) == 3000
    assert {line["schema"] for line in lines} == {"material-7-v1"}


def test_a_late_chunk_of_another_run_is_not_adopted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The deterministic form of the race above: a chunk of a killed kcp-13 run is written into the
    parts directory of the material-7-v1 run that followed, after that run wrote the same chunk."""
    source = write_jsonl(tmp_path / "in.jsonl", corpus_rows(50))
    output = tmp_path / "out.jsonl"
    stale: list[pipeline.ChunkTask] = []
    real = pipeline.run_chunk

    class Killed(Exception):
        pass

    def killed_after_the_first_chunk(task: pipeline.ChunkTask) -> pipeline.ChunkResult:
        if task.index == 0:
            return real(task)
        stale.append(task)  # in flight in a worker when the main process was killed
        raise Killed

    monkeypatch.setattr(pipeline, "run_chunk", killed_after_the_first_chunk)
    with pytest.raises(Killed):
        enrich_file(Options("kcp-13", source, output, chunk_size=10, quiet=True))
    shutil.rmtree(tmp_path / "out.jsonl.parts")

    def with_the_stale_worker_writing(task: pipeline.ChunkTask) -> pipeline.ChunkResult:
        result = real(task)
        if task.index == stale[0].index:
            real(stale[0])  # the other run's worker renames its chunk now
        return result

    monkeypatch.setattr(pipeline, "run_chunk", with_the_stale_worker_writing)
    summary = enrich_file(Options("material-7-v1", source, output, chunk_size=10, quiet=True))
    assert (summary.rows, summary.rejected) == (50, 0)
    assert {json.loads(line)["schema"] for line in output.read_text().splitlines()} == {"material-7-v1"}


def test_a_second_run_on_the_same_output_is_refused_while_the_first_holds_it(tmp_path: Path) -> None:
    """Was: a concurrent ``--resume`` deleted the other run's temporary files (no lock on OUT.parts)."""
    source = write_jsonl(tmp_path / "in.jsonl", corpus_rows(30))
    output = tmp_path / "out.jsonl"
    options = Options("material-7-v1", source, output, chunk_size=10, quiet=True)
    holder = PartStore(output, ".jsonl")
    state = pipeline.run_state("material-7-v1", chunk_size=10, chunk_bytes=options.chunk_bytes, fmt="jsonl",
                               out_fmt="jsonl", source=source, engine="0.12.0")
    holder.open(state, resume=False)  # the first run, alive, writing chunk 0
    in_flight = holder.dir / f".{holder.rows_path(0).name}.tmp-0123456789ab"
    in_flight.write_bytes(b'{"id": "row-0"')
    try:
        for resume in (False, True):
            with pytest.raises(EnrichmentError, match="in use by another extract run on the same output"):
                enrich_file(Options("material-7-v1", source, output, chunk_size=10, quiet=True, resume=resume))
            assert in_flight.exists()
        refused = run_cli("extract", "--schema", "material-7-v1", "--input", source, "--output", output,
                          "--chunk-size", "10", "--resume")
        assert refused.returncode == 1 and "in use by another extract run" in refused.stderr
        assert in_flight.exists()
    finally:
        holder.release()
    summary = enrich_file(Options("material-7-v1", source, output, chunk_size=10, quiet=True, resume=True))
    assert (summary.rows, summary.rejected) == (30, 0)
    assert not in_flight.exists()
