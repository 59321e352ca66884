"""``vendor`` and ``vendor --check`` on hostile input (review 2026-12-01: C1, C5, H2, H12, L1, L3).

Each test here fails on 7f9a987 (the reviewed commit): there a lock's names were used unchecked, links
under the target were followed, the lock and the files were read whole with ``read_bytes``, names were
printed raw and the API raised on a ``str``.
"""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from contract.cli import main
from contract.core.refusal import Refusal
from contract.vendoring import vendored as vendoring
from contract.vendoring import walk
from contract.vendoring.lock import MAX_LOCK_BYTES
from contract.vendoring.vendored import LOCK_NAME


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def _vendored(capsys: pytest.CaptureFixture[str], target: Path) -> dict[str, object]:
    assert _run(capsys, "vendor", str(target))[0] == 0
    return dict(json.loads((target / LOCK_NAME).read_text(encoding="utf-8")))


def _write_lock(target: Path, lock: dict[str, object]) -> None:
    (target / LOCK_NAME).write_text(json.dumps(lock), encoding="utf-8")


@pytest.mark.parametrize("kind", ["parent", "absolute", "inner parent", "empty segment", "backslash", "dot"])
def test_a_lock_naming_a_file_outside_its_directory_is_refused_and_nothing_outside_changes(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, kind: str) -> None:
    target = tmp_path / "v"
    lock = _vendored(capsys, target)
    victim = tmp_path / "victim" / "data.txt"
    victim.parent.mkdir()
    victim.write_text("precious")
    name = {"parent": "../victim/data.txt", "absolute": str(victim), "inner parent": "schema/../../victim/data.txt",
            "empty segment": "schema//x.json", "backslash": "..\\victim\\data.txt", "dot": "./schema/x.json"}[kind]
    files = dict(lock["files"])  # type: ignore[call-overload]
    files[name] = "0" * 64
    _write_lock(target, {**lock, "files": files})
    code, out = _run(capsys, "vendor", "--check", str(target))
    assert code == 1 and out.count("\n") == 1 and "refusing the file name" in out, out
    code, out = _run(capsys, "vendor", str(target))
    assert code == 1 and out.startswith(f"vendor: refusing to vendor into {target}: "), out
    assert victim.read_text() == "precious"


def test_a_symbolic_link_under_the_target_is_never_followed(capsys: pytest.CaptureFixture[str],
                                                            tmp_path: Path) -> None:
    target = tmp_path / "v"
    _vendored(capsys, target)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "engine_compatibility.lark").write_text("user data")
    for path in (target / "grammar").iterdir():
        path.unlink()
    (target / "grammar").rmdir()
    (target / "grammar").symlink_to(outside, target_is_directory=True)
    code, out = _run(capsys, "vendor", str(target))
    assert (code, out) == (1, f"vendor: refusing to vendor into {target}: {target / 'grammar'} is a symbolic link "
                              f"(vendor writes only inside {target})\n")
    assert (outside / "engine_compatibility.lark").read_text() == "user data"
    code, out = _run(capsys, "vendor", "--check", str(target))
    assert code == 1
    assert (f"FAIL {target / 'grammar' / 'engine_compatibility.lark'}: {target / 'grammar'} is a symbolic link "
            "(vendor --check does not follow it)\n") in out


def test_a_vendored_file_that_is_a_link_is_not_hashed(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "v"
    _vendored(capsys, target)
    name = target / "schema" / "feature-schemas.json"
    copy = tmp_path / "copy.json"
    copy.write_bytes(name.read_bytes())  # the same bytes: a followed link would pass
    name.unlink()
    name.symlink_to(copy)
    code, out = _run(capsys, "vendor", "--check", str(target))
    assert code == 1 and f"FAIL {name}: is a symbolic link (vendor --check does not follow it)\n" in out


@pytest.mark.parametrize(("change", "expected"), [
    ({"kit": "another-kit"}, "not a dicechess-contract lock file (its \"kit\" is \"another-kit\")"),
    ({"kit": None}, "not a dicechess-contract lock file (its \"kit\" is null)"),
    ({"lockVersion": 99}, "lockVersion 99 is not one this kit reads (it reads 1, 2)"),
    ({"lockVersion": "1"}, "lockVersion \"1\" is not one this kit reads (it reads 1, 2)"),
    ({"lockVersion": True}, "lockVersion true is not one this kit reads (it reads 1, 2)"),
])
def test_the_locks_kit_and_version_are_checked(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                               change: dict[str, object], expected: str) -> None:
    target = tmp_path / "v"
    lock = _vendored(capsys, target)
    _write_lock(target, {**lock, **change})
    code, out = _run(capsys, "vendor", "--check", str(target))
    assert (code, out) == (1, f"vendor --check: {target / LOCK_NAME}: {expected}\n")


def _cli(*argv: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "contract", *argv], capture_output=True, text=True,
                          timeout=timeout, check=False)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
@pytest.mark.parametrize("where", ["lock", "vendored file"])
def test_a_fifo_never_blocks_vendor_or_its_check(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                 where: str) -> None:
    target = tmp_path / "v"
    _vendored(capsys, target)
    fifo = target / (LOCK_NAME if where == "lock" else "schema/feature-schemas.json")
    fifo.unlink()
    os.mkfifo(fifo)
    checked = _cli("vendor", "--check", str(target))
    assert checked.returncode == 1 and checked.stderr == "", checked
    if where == "lock":
        assert checked.stdout == (f"vendor --check: {fifo}: cannot be read as a lock file "
                                  "(it is not a regular file)\n")
        written = _cli("vendor", str(target))
        assert written.returncode == 1 and "not a regular file" in written.stdout and written.stderr == ""
    else:
        assert f"FAIL {fifo}: is not a regular file\n" in checked.stdout


def test_a_deeply_nested_lock_is_refused_in_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "v"
    _vendored(capsys, target)
    (target / LOCK_NAME).write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    code, out = _run(capsys, "vendor", "--check", str(target))
    assert (code, out) == (1, f"vendor --check: {target / LOCK_NAME}: cannot be read as a lock file "
                              "(not valid JSON: nesting deeper than 64 levels at character 64)\n")
    code, out = _run(capsys, "vendor", str(target))
    assert code == 1 and out.count("\n") == 1 and "nesting deeper than 64 levels" in out


def test_a_huge_lock_is_refused_without_being_read(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "v"
    _vendored(capsys, target)
    with open(target / LOCK_NAME, "r+b") as handle:
        handle.truncate(3 * 1024**3)  # sparse: 3 GiB of zeros, no disk used
    code, out = _run(capsys, "vendor", "--check", str(target))
    assert (code, out) == (1, f"vendor --check: {target / LOCK_NAME}: cannot be read as a lock file "
                              f"(larger than {MAX_LOCK_BYTES} bytes)\n")


def test_a_big_vendored_file_is_hashed_in_chunks(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "v"
    _vendored(capsys, target)
    big = target / "schema" / "check-table.json"
    with open(big, "r+b") as handle:
        handle.truncate(64 * 1024**2)
    whole = Path.read_bytes

    def bounded(path: Path) -> bytes:  # what 3 GiB did under a 2 GB limit, without needing 3 GiB
        if path.resolve() == big.resolve():
            raise MemoryError
        return whole(path)

    monkeypatch.setattr(Path, "read_bytes", bounded)
    code, out = _run(capsys, "vendor", "--check", str(target))
    assert code == 1 and f"FAIL {big}: edited (its SHA-256 is not the one in {LOCK_NAME})\n" in out


def test_every_printed_name_is_made_safe_to_print(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "v"
    lock = _vendored(capsys, target)
    files = dict(lock["files"])  # type: ignore[call-overload]
    files["schema/\u202eevil\u2066.json"] = "0" * 64  # bidirectional controls: allowed in a name, shown escaped
    _write_lock(target, {**lock, "files": files})
    code, out = _run(capsys, "vendor", "--check", str(target))
    assert code == 1 and f"FAIL {target}/schema/\\u202eevil\\u2066.json: missing\n" in out
    files["\x1b[2K\rvendor --check: v matches the installed kit\x1b[8m"] = "0" * 64
    _write_lock(target, {**lock, "files": files})
    code, out = _run(capsys, "vendor", "--check", str(target))
    assert code == 1 and "\x1b" not in out and "\r" not in out
    assert "refusing the file name \"\\u001b[2K\\rvendor --check" in out


def test_a_link_as_the_target_and_a_file_to_check_are_named_for_what_they_are(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "d", target_is_directory=True)
    (tmp_path / "file").write_text("x")
    assert _run(capsys, "vendor", str(tmp_path / "link")) == (
        1, f"vendor: refusing to vendor into {tmp_path / 'link'}: it is a symbolic link "
           "(vendor writes only into a real directory)\n")
    assert _run(capsys, "vendor", "--check", str(tmp_path / "file")) == (
        1, f"vendor --check: {tmp_path / 'file'} is not a directory\n")
    assert _run(capsys, "vendor", "--check", str(tmp_path / "none")) == (
        1, f"vendor --check: {tmp_path / 'none'}: no such directory\n")
    assert list((tmp_path / "d").iterdir()) == []


def test_the_loser_of_a_race_for_a_new_directory_is_told_so(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "r"
    real = walk.Tree.write

    def rival_first(tree: walk.Tree, name: str, data: bytes, created: list[str] | None = None) -> None:
        if name == LOCK_NAME and not target.exists():  # another vendor publishes meanwhile
            target.mkdir()
            (target / "theirs.txt").write_text("theirs")
        real(tree, name, data, created)

    monkeypatch.setattr(walk.Tree, "write", rival_first)
    code, out = _run(capsys, "vendor", str(target))
    assert (code, out) == (1, f"vendor: refusing to vendor into {target}: another process created it while this "
                              "vendor ran (run vendor again to update it)\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r"] and (target / "theirs.txt").read_text() == "theirs"


@pytest.mark.parametrize("existing", [False, True])
def test_a_full_disk_names_the_users_path_never_a_temporary_one(capsys: pytest.CaptureFixture[str],
                                                                tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                existing: bool) -> None:
    target = tmp_path / "small" / "v"
    if existing:
        _vendored(capsys, target)
    real = walk.Tree.write

    def full(tree: walk.Tree, name: str, data: bytes, created: list[str] | None = None) -> None:
        if name.endswith("engine_compatibility.lark"):
            raise OSError(errno.ENOSPC, "No space left on device", f".{name}.tmp-1234")
        real(tree, name, data, created)

    monkeypatch.setattr(walk.Tree, "write", full)
    code, out = _run(capsys, "vendor", str(target))
    failed = target / "grammar" / "engine_compatibility.lark"
    assert code == 1 and out.startswith(f"vendor: cannot write {failed}: No space left on device; "), out
    assert ".tmp-" not in out and "Errno" not in out
    assert [p for p in tmp_path.rglob("*") if ".tmp-" in p.name] == []
    assert target.exists() is existing


def test_the_api_takes_a_str_and_refuses_what_is_not_a_path(tmp_path: Path) -> None:
    done = vendoring.vendor(str(tmp_path / "v"))
    assert isinstance(done, vendoring.Vendored) and done.written
    found = vendoring.check(str(tmp_path / "v"))
    assert isinstance(found, vendoring.Checked) and found.problems == []
    for wrong in (None, 42, b"v", ["v"]):
        refused = vendoring.vendor(wrong)
        assert isinstance(refused, Refusal), wrong
        assert refused.message == f"the directory must be a path (str or os.PathLike), not {type(wrong).__name__}"
        assert isinstance(vendoring.check(wrong), Refusal)
    assert isinstance(vendoring.vendor(tmp_path / "w", layout=3), Refusal)  # type: ignore[arg-type]
