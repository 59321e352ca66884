"""Hostile adapters and hostile inputs cannot make a conformance run wait without bound or grow without
bound (issue 22: C6, C7, H6, L6, H7, H14, L3 of the 2026-12-01 review).

Each hang-prone case runs the command in a child process with a hard limit well above what the fixed
runner needs, so a regression fails the test instead of hanging the suite.
"""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from contract.cli import conformance as cli
from contract.conformance.adapter import answer
from contract.conformance.corpus import load_cases
from contract.conformance.divergences import DivergenceFileError, load
from contract.conformance.protocol import MAX_LINE_BYTES, QUEUED_LINES, STDERR_KEEP_BYTES, LiveAdapter
from contract.conformance.report import as_text
from contract.conformance.runner import LIVE, TEXT_KEPT, Implementation, run

HARD_LIMIT = 90.0  # seconds a hang-prone command may take before the test calls it a hang
pytestmark = pytest.mark.skipif(not hasattr(os, "killpg"), reason="process groups are POSIX")


def _script(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return f"{sys.executable} {path}"


def _conformance(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, float]:
    """(exit status, stdout + stderr, seconds) of ``python -m contract.conformance ARGS``, killed with its
    whole process group at :data:`HARD_LIMIT` (then the status is -9)."""
    started = time.monotonic()
    process = subprocess.Popen([sys.executable, "-m", "contract.conformance", *args], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, start_new_session=True,
                               env={**os.environ, **(env or {})})
    try:
        out, _ = process.communicate(timeout=HARD_LIMIT)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        out, _ = process.communicate()
        return -9, out, time.monotonic() - started
    return process.returncode, out, time.monotonic() - started


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_child_holding_the_adapters_stdout_does_not_hold_the_run(tmp_path: Path) -> None:
    """C6: the adapter answers everything and exits, its child lingers with stdout open: the teardown is
    bounded and the child is killed with the adapter's process group."""
    pid_file = tmp_path / "child.pid"
    command = _script(tmp_path, "lingering.py", (
        "import json, os, sys, time\n"
        "child = os.fork()\n"
        "if child == 0:\n"
        "    time.sleep(600); os._exit(0)\n"
        f"open({str(pid_file)!r}, 'w').write(str(child))\n"
        "for line in sys.stdin:\n"
        "    print(json.dumps({'id': json.loads(line)['id'], 'status': 'ok', 'outcome': 'satisfied',"
        " 'message': None}), flush=True)\n"))
    status, out, seconds = _conformance("run", "--impl", f"mine={command}", "--kinds", "engine-compatibility",
                                        "--timeout", "5")
    assert status == 1 and "UNLISTED disagreements" in out, out[-500:]  # it ran to the end and reported
    assert seconds < 40, f"the teardown waited {seconds:.0f} s for the adapter's child"
    child = int(pid_file.read_text(encoding="utf-8"))
    deadline = time.monotonic() + 5
    while _alive(child) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(child), "the adapter's lingering child outlived the run"


def test_an_adapter_that_stops_reading_is_a_dead_adapter(tmp_path: Path) -> None:
    """C7: extra lines, then no more reading: the write of a request is bounded by --timeout."""
    command = _script(tmp_path, "deaf.py", (
        "import sys, time\n"
        "sys.stdin.readline()\n"
        "sys.stdout.write('{}\\n' * 5000); sys.stdout.flush()\n"
        "time.sleep(600)\n"))
    status, out, seconds = _conformance("run", "--impl", f"mine={command}", "--kinds", "features", "--timeout", "3")
    assert status == 1, out[-500:]
    assert "did not take the request within 3 s (it stopped reading its stdin)" in out
    assert out.count("error:") == 1 and seconds < 60


def test_an_endless_answer_line_is_refused_at_the_cap(tmp_path: Path) -> None:
    """H6: a line with no newline is not buffered past the 16 MiB cap; the adapter is dead at once (the
    run does not wait for the per-answer timeout)."""
    command = _script(tmp_path, "endless.py", (
        "import sys, time\n"
        "sys.stdin.readline()\n"
        "sys.stdout.write('{\"id\": \"'); chunk = 'x' * (1 << 20)\n"
        "for _ in range(40): sys.stdout.write(chunk)\n"
        "sys.stdout.flush(); time.sleep(600)\n"))
    status, out, seconds = _conformance("run", "--impl", f"mine={command}", "--kinds", "engine-compatibility",
                                        "--timeout", "60")
    assert status == 1 and f"answer line longer than {MAX_LINE_BYTES >> 20} MiB" in out, out[-500:]
    assert seconds < 50


def test_a_flood_of_lines_is_not_queued(tmp_path: Path) -> None:
    """H6: lines the runner has not asked for wait in the pipe, not in the runner's memory."""
    command = _script(tmp_path, "flood.py", (
        "import sys, time\n"
        "sys.stdin.readline()\n"
        "sys.stdout.write('{}\\n' * 500000); sys.stdout.flush()\n"
        "time.sleep(600)\n")).split()
    case = load_cases(["engine-compatibility"])[0]
    with LiveAdapter("flood", command, 10) as adapter:
        first = adapter.ask(case.request_line())
        time.sleep(1.0)  # time for the reader to queue all it would queue
        queued = adapter._lines.qsize()
    assert first["status"] == "error" and queued <= QUEUED_LINES


def test_the_runs_overall_budget_bounds_a_slow_adapter(tmp_path: Path) -> None:
    """L6: an adapter within the per-answer timeout on every case still cannot exceed --budget."""
    command = _script(tmp_path, "slow.py", (
        "import json, sys, time\n"
        "for line in sys.stdin:\n"
        "    time.sleep(0.4)\n"
        "    print(json.dumps({'id': json.loads(line)['id'], 'status': 'unsupported'}), flush=True)\n"))
    status, out, seconds = _conformance("run", "--impl", f"mine={command}", "--kinds", "engine-compatibility",
                                        "--timeout", "5", "--budget", "2")
    assert status == 1 and "the run's overall budget of 2 s (--budget)" in out, out[-500:]
    assert seconds < 30


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf"])
def test_timeout_and_budget_must_be_positive(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    for option in ("--timeout", "--budget"):
        status = cli.main(["run", "--impl", "kit", "--kinds", "engine-compatibility", option, value])
        assert status == 2 and f"{option} " in capsys.readouterr().err


def test_an_adapter_unsupported_for_everything_fails_the_run(tmp_path: Path) -> None:
    """H7: 'unsupported' to every case is never agreement."""
    command = _script(tmp_path, "nothing.py", (
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    print(json.dumps({'id': json.loads(line)['id'], 'status': 'unsupported'}), flush=True)\n"))
    status, out, _ = _conformance("run", "--impl", f"mine={command}", "--kinds", "engine-compatibility,tensor-contract")
    assert status == 1, out[-800:]
    for kind in ("engine-compatibility", "tensor-contract"):
        count = len(load_cases([kind]))
        assert f"'mine' supports 0 of the {count} {kind} cases it was asked" in out
    assert "FAIL:" in out and "2 kind(s) supported below the floor" in out


def test_the_kit_supporting_less_than_every_case_fails(tmp_path: Path) -> None:
    """H7: a kit adapter that regresses to answering one kind 'unsupported' fails although it agrees on
    everything else (its floor is every case)."""
    command = _script(tmp_path, "partial_kit.py", (
        "import json, sys\n"
        "from contract.conformance import adapter\n"
        "table = dict(adapter.HANDLERS)\n"
        "def partial(request):\n"
        "    if request['id'].endswith('0'):\n"
        "        raise adapter.Unsupported('not any more')\n"
        "    return adapter.engine_compatibility(request)\n"
        "table['engine-compatibility'] = partial\n"
        "adapter.serve(sys.stdin, sys.stdout, table)\n"))
    cases = load_cases(["engine-compatibility"])[:20]  # recorded-00 and recorded-10 among them
    supported = sum(1 for case in cases if not case.id.endswith("0"))
    outcome = run([Implementation("kit", LIVE, tuple(command.split()))], cases, ["engine-compatibility"], [])
    assert not outcome.ok and not outcome.unlisted and not outcome.errors
    assert [s.message for s in outcome.shortfalls] == [
        f"implementation 'kit' supports {supported} of the {len(cases)} engine-compatibility cases it was asked,"
        f" fewer than {len(cases)} (the kit adapter answers every engine-compatibility case): answering"
        " 'unsupported' is never agreement; fix the adapter, or leave engine-compatibility out with --kinds"]
    assert "UNSUPPORTED beyond the floor (1;" in as_text(outcome)


def test_a_deeply_nested_divergences_file_is_one_message(tmp_path: Path) -> None:
    """H14: 100,000 levels deep is refused by the strict reader, not a RecursionError."""
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100000 + "]" * 100000, encoding="utf-8")
    status, out, _ = _conformance("run", "--impl", "kit", "--kinds", "engine-compatibility",
                                  "--divergences", str(deep))
    assert status == 1 and "Traceback" not in out and "RecursionError" not in out
    assert out.startswith(f"error: {deep}: not valid JSON: nesting deeper than") and len(out.splitlines()) == 1


def test_a_fifo_or_a_huge_divergences_file_is_refused_without_waiting(tmp_path: Path) -> None:
    """H14: a FIFO is not a regular file (never opened for a blocking read); a file above the cap is refused."""
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    status, out, seconds = _conformance("run", "--impl", "kit", "--kinds", "engine-compatibility",
                                        "--divergences", str(fifo))
    assert status == 1 and "not a regular file" in out and seconds < 60, out
    huge = tmp_path / "huge.json"
    huge.write_text(json.dumps({"formatVersion": "1.0.0", "pad": "x" * (9 << 20), "divergences": []}),
                    encoding="utf-8")
    with pytest.raises(DivergenceFileError, match="larger than") as refused:
        load(huge)
    assert str(refused.value).startswith(f"{huge}: ")


@pytest.mark.parametrize("missing", ["expectedRole", "engineVersion", "manifest"])
def test_the_kit_adapter_names_a_missing_request_field(missing: str) -> None:
    """L3: a manifest request without one of its fields is an error answer naming it, not a KeyError."""
    request = {"formatVersion": "1.0.0", "id": "manifest/x", "kind": "manifest", "manifest": "{}",
               "engineVersion": "0.12.0", "expectedRole": None}
    del request[missing]
    got = answer(json.dumps(request))
    assert got == {"id": "manifest/x", "status": "error",
                   "message": f"request does not follow the protocol: '{missing}' is a required property"}


def test_the_kit_adapter_names_a_mistyped_request_field() -> None:
    request = {"formatVersion": "1.0.0", "id": "features/x", "kind": "features", "schemaId": "kcp-13",
               "fen": 7, "side": "w"}
    got = answer(json.dumps(request))
    assert got["status"] == "error" and "7 is not of type 'string'" in got["message"]


def test_floors_follow_what_each_adapter_of_the_project_answers() -> None:
    from contract.conformance.runner import support_floor

    cases = load_cases(["manifest", "features"])
    manifests = sum(1 for case in cases if case.kind == "manifest")
    assert support_floor("kit", "features", cases)[0] == len(cases) - manifests
    assert support_floor("js", "manifest", cases)[0] == manifests
    assert support_floor("js", "features", cases)[0] == 0
    assert support_floor("training", "features", cases)[0] == 0
    assert support_floor("training", "manifest", cases)[0] == 1
    assert support_floor("engine", "manifest", cases)[0] == manifests  # every case is recorded
    assert support_floor("mine", "features", cases)[0] == 1


def _open_files() -> dict[tuple[int, int], int]:
    """(device, inode) -> size of every regular file this process holds open (Linux: /proc/self/fd)."""
    found = {}
    for fd in os.listdir("/proc/self/fd"):
        try:
            info = os.stat(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if stat.S_ISREG(info.st_mode):
            found[(info.st_dev, info.st_ino)] = info.st_size
    return found


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="reads /proc/self/fd")
def test_an_adapters_stderr_is_kept_only_up_to_its_cap(tmp_path: Path) -> None:
    """Issue 22 (left by stop 28): an adapter writing 48 MiB to stderr before dying costs the runner no
    more than the kept tail: no file of that size open, no memory of it; the message ends with the last
    line and says how much was discarded."""
    command = _script(tmp_path, "noisy.py", (
        "import sys\n"
        "sys.stdin.readline()\n"
        "block = ('e' * 1023 + '\\n') * 1024\n"
        "for _ in range(48): sys.stderr.write(block)\n"
        "sys.stderr.write('the last word\\n'); sys.stderr.flush()\n"
        "sys.exit(3)\n")).split()
    case = load_cases(["engine-compatibility"])[0]
    before = _open_files()  # pytest's own capture files among them
    with LiveAdapter("noisy", command, 60) as adapter:
        answer_ = adapter.ask(case.request_line())
        held = max((size for key, size in _open_files().items() if key not in before), default=0)
    assert held < STDERR_KEEP_BYTES * 4, f"the runner holds a {held}-byte file open for the adapter's stderr"
    assert answer_["status"] == "error" and "exited (status 3) without answering" in answer_["message"]
    assert answer_["message"].rstrip().endswith("the last word"), answer_["message"][-300:]
    dropped = 48 * 1024 * 1024 + len("the last word\n") - STDERR_KEEP_BYTES
    assert (f"({dropped} earlier bytes of its stderr were discarded: the runner keeps the last"
            f" {STDERR_KEEP_BYTES // 1024} KiB)") in answer_["message"]


def test_a_request_the_dead_adapter_cannot_take_leaves_no_pipe_open(tmp_path: Path) -> None:
    """The writer thread returned on a failed write without closing the adapter's stdin, so the pipe was
    left to the garbage collector (an 'unclosed file' ResourceWarning, which this suite turns into a
    failure: test_a_dead_adapter_is_one_message_from_the_cli failed so whenever the adapter died before
    the request was written). Here the adapter has surely exited before the request is written."""
    command = _script(tmp_path, "gone.py", "import sys\nsys.exit(2)\n").split()
    case = load_cases(["engine-compatibility"])[0]
    with LiveAdapter("gone", command, 10) as adapter:
        process = adapter._process
        assert process is not None and process.stdin is not None
        process.wait(timeout=30)
        answer_ = adapter.ask(case.request_line())
    assert answer_["status"] == "error"
    assert process.stdin.closed, "the adapter's stdin was left open after a failed write"


def test_the_run_keeps_a_bounded_part_of_each_answer(tmp_path: Path) -> None:
    """Issue 22 audit: a line is capped at 16 MiB, but every answer was kept whole for the report, so an
    adapter answering each case with a 15 MiB message took the runner to 2 GB for 119 cases (20 GB for
    the corpus). Now each answer keeps a bounded part; what the comparison says does not change."""
    command = _script(tmp_path, "wordy.py", (
        "import json, sys\n"
        "pad = 'x' * (2 << 20)\n"
        "for line in sys.stdin:\n"
        "    request = json.loads(line)\n"
        "    if request['kind'] == 'features':\n"
        "        answer = {'status': 'ok', 'vector': [0.5] * 100000}\n"
        "    elif request['id'].endswith('0'):\n"
        "        answer = {'status': 'ok', 'outcome': 'excluded', 'message': pad}\n"
        "    else:\n"
        "        answer = {'status': 'error', 'message': pad}\n"
        "    print(json.dumps({'id': request['id'], **answer}), flush=True)\n"))
    cases = [*load_cases(["engine-compatibility"])[:12], *load_cases(["features"])[:3]]
    outcome = run([Implementation("wordy", LIVE, tuple(command.split()))], cases,
                  ["engine-compatibility", "features"], [])
    assert not outcome.ok and len(outcome.errors) == 10 and len(outcome.unlisted) == 5
    dropped = (2 << 20) - TEXT_KEPT
    for result in outcome.results:
        if result.case.kind == "features":
            assert result.status == "disagree"
            assert len(result.got["vector"]) == len(result.case.expected.fields["vector"]) + 1
        else:
            assert result.got["message"] == "x" * TEXT_KEPT + f"... [{dropped} more characters not kept]"
    assert len(as_text(outcome)) < 200 * 1024
