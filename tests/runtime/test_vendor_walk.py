"""``vendor`` against a directory changed under it, files it did not write, and names no file system holds
(issue 32: review 2026-12-04 C1, C2, H2, H4, H5, L5, L7; issue 33 item 7).

The swap test (C1) interposes on the operating-system calls themselves (``os.open``, ``os.mkdir``,
``os.replace``, ``os.unlink``, ``os.stat`` and the like): before the k-th call that ``vendor`` makes, a
directory inside DIR is moved away and a symbolic link to a directory outside takes its place, for every
k, so every step of the walk meets the swap once, deterministically (not a timing race).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from contract.cli import main
from contract.core.resources import data_root
from contract.vendoring import vendored as vendoring
from contract.vendoring import walk
from contract.vendoring.vendored import LOCK_NAME

ROOT = data_root()
_WRAPPED = ("open", "mkdir", "replace", "rename", "unlink", "rmdir", "stat", "lstat", "listdir", "scandir")


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def _layout(path: Path, files: list[tuple[str, str]], name: str = "walk") -> str:
    path.write_text(json.dumps({"layoutVersion": 1, "name": name,
                                "files": [{"from": src, "to": dst} for src, dst in files]}), encoding="utf-8")
    return str(path)


def _tree(base: Path) -> dict[str, bytes | None]:
    """Every entry under ``base`` (links not followed): file bytes, or None for a directory or link."""
    found: dict[str, bytes | None] = {}
    for path in sorted(base.rglob("*")):
        found[path.relative_to(base).as_posix()] = (path.read_bytes() if path.is_file() and not path.is_symlink()
                                                    else None)
    return found


class _Swapper:
    """Counts the os calls made while active; before call number ``at``, swaps ``victim`` for a link."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, top: Path, victim: Path, *, outside: Path, moved: Path,
                 at: int) -> None:
        self.top = top
        self.calls = 0
        self.at = at
        self.active = False
        self.swapped = False
        self.real: dict[str, Callable[..., Any]] = {name: getattr(os, name) for name in _WRAPPED}
        for name in _WRAPPED:
            monkeypatch.setattr(os, name, self._wrap(name))
        self.victim, self.outside, self.moved = victim, outside, moved

    def _inside(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> bool:
        """A call on DIR's tree: a path under DIR, or one relative to a directory descriptor."""
        top = str(self.top)
        return (any(isinstance(arg, str | os.PathLike) and os.fspath(arg).startswith(top) for arg in args)
                or any(kwargs.get(key) is not None for key in ("dir_fd", "src_dir_fd", "dst_dir_fd"))
                or any(isinstance(arg, int) for arg in args[:1]))

    def _wrap(self, name: str) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            if self.active and self._inside(args, kwargs):
                self.calls += 1
                if self.calls == self.at and not self.swapped:
                    self.active = False
                    try:
                        if self.real["lstat"](self.victim) and os.path.isdir(self.victim):
                            self.real["rename"](self.victim, self.moved)
                            os.symlink(self.outside, self.victim)
                            self.swapped = True
                    except OSError:
                        pass
                    finally:
                        self.active = True
            return self.real[name](*args, **kwargs)
        return call


_FIRST = [("golden/probes.tsv", "a/b/probes.tsv"), ("golden/probes.json", "a/probes.json"),
          ("grammar/engine_compatibility.lark", "c/x.lark")]
_SECOND = [("golden/probes.json", "a/probes.json"), ("grammar/engine_compatibility.lark", "c/x.lark"),
           ("schema/feature-schemas.json", "a/d/new.json"), ("golden/probes.tsv", "c/e/probes.tsv")]


def _outside(outside: Path) -> None:
    """What a followed link would find: the kit's own bytes under every name vendor writes or removes."""
    for source, target in _FIRST + _SECOND:
        for name in (target, target.split("/", 1)[1], target.rsplit("/", 1)[1]):
            (outside / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(ROOT / source, outside / name)


def _one_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, victim: str, at: int) -> tuple[int, bool]:
    base = tmp_path / f"run-{victim.replace('/', '_')}-{at}"
    fx, outside, moved = base / "fx", base / "outside", base / "moved"
    outside.mkdir(parents=True)
    _outside(outside)
    first = _layout(base / "first.json", _FIRST)
    second = _layout(base / "second.json", _SECOND)
    assert isinstance(vendoring.vendor(fx, first), vendoring.Vendored)
    before = _tree(outside)
    with monkeypatch.context() as patch:
        swapper = _Swapper(patch, fx, fx / victim, outside=outside, moved=moved, at=at)
        swapper.active = True
        assert walk.supported()  # the descriptor walk, whatever os functions are wrapped
        vendoring.vendor(fx, second)
        swapper.active = False
    assert _tree(outside) == before, (victim, at)  # nothing written, changed or removed outside DIR
    shutil.rmtree(base)
    return swapper.calls, swapper.swapped


@pytest.mark.slow  # about 20 s each: a whole vendor run per os call
@pytest.mark.parametrize("victim", ["a", "a/b", "c", "a/d"])
def test_a_directory_swapped_for_a_link_before_any_step_is_never_followed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, victim: str) -> None:
    """C1: before each os call of an update (writes into a/, c/, a new a/d/ and c/e/, removes a/b/probes.tsv
    and the emptied a/b/), ``victim`` becomes a link to a directory holding the same names and bytes."""
    calls, _ = _one_run(tmp_path, monkeypatch, victim, 0)
    assert calls > 20  # the run was seen
    swaps = sum(_one_run(tmp_path, monkeypatch, victim, at)[1] for at in range(1, calls + 1))
    assert swaps > 5  # the swap happened at many steps (a directory made late exists only late)


def test_the_walk_never_resolves_a_name_from_the_top_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """C1, at the walk's own steps: the swap made at every hook point of contract/vendoring/walk.py."""
    base = tmp_path / "w"
    fx, outside = base / "fx", base / "outside"
    outside.mkdir(parents=True)
    _outside(outside)
    assert isinstance(vendoring.vendor(fx, _layout(base / "first.json", _FIRST)), vendoring.Vendored)
    second = _layout(base / "second.json", _SECOND)
    steps: list[tuple[str, str]] = []
    monkeypatch.setattr(walk, "step", lambda action, name: steps.append((action, name)))
    assert isinstance(vendoring.vendor(fx, second), vendoring.Vendored)
    assert {action for action, _ in steps} >= {"open", "mkdir", "create", "replace", "read", "unlink", "rmdir"}
    before = _tree(outside)
    for index, (_, name) in enumerate(steps):
        shutil.rmtree(fx)
        assert isinstance(vendoring.vendor(fx, _layout(base / "first.json", _FIRST)), vendoring.Vendored)
        top = name.split("/")[0]
        seen = iter(range(len(steps)))

        def swap(action: str, step_name: str, top: str = top, index: int = index,
                 seen: Any = seen) -> None:
            if next(seen) == index and (fx / top).is_dir() and not (fx / top).is_symlink():
                (fx / top).rename(base / f"moved-{index}")
                (fx / top).symlink_to(outside)

        monkeypatch.setattr(walk, "step", swap)
        vendoring.vendor(fx, second)
        assert _tree(outside) == before, steps[index]


def test_removal_keeps_a_file_whose_bytes_are_not_the_locks(capsys: pytest.CaptureFixture[str],
                                                            tmp_path: Path) -> None:
    """C2: a file the old lock names but the new layout drops is removed only when its SHA-256 is the lock's;
    the repository's own files a lock names, and a vendored file edited locally, are kept and named."""
    fx = tmp_path / "fx"
    (fx / "kcp13").mkdir(parents=True)
    (fx / "kcp13" / "my_fixture.json").write_text('{"the repository": "its own fixture"}\n')
    (fx / "conftest.py").write_text("# own\n")
    assert _run(capsys, "vendor", "--layout", "training", str(fx))[0] == 0
    lock = json.loads((fx / LOCK_NAME).read_text())
    lock["files"]["kcp13/my_fixture.json"] = "0" * 64
    lock["files"]["conftest.py"] = "1" * 64
    (fx / LOCK_NAME).write_text(json.dumps(lock))
    with (fx / "rich9" / "golden-engine-0.12.0.json").open("a") as handle:
        handle.write("MY EDITS")
    small = _layout(tmp_path / "small.json", [("golden/probes.tsv", "kcp13/probes.tsv")], "small")
    code, out = _run(capsys, "vendor", "--layout", small, str(fx))
    assert code == 0, out
    for name in ("conftest.py", "kcp13/my_fixture.json", "rich9/golden-engine-0.12.0.json"):
        assert (fx / name).is_file(), name
        assert (f"vendor: kept {fx / name}: {LOCK_NAME} names it, but its SHA-256 is not the one recorded there "
                "(vendor removes only a file it wrote)\n") in out
    assert f"vendor: removed {fx / 'kcp13' / 'golden-engine-0.12.0.json'} (no longer part of the contract)\n" in out
    assert not (fx / "kcp13" / "golden-engine-0.12.0.json").exists()
    assert set(json.loads((fx / LOCK_NAME).read_text())["files"]) == {"kcp13/probes.tsv"}


def _lock_with(directory: Path, names: dict[str, str], **extra: Any) -> None:
    lock = json.loads((directory / LOCK_NAME).read_text())
    lock["files"].update(names)
    lock.update(extra)
    (directory / LOCK_NAME).write_text(json.dumps(lock, ensure_ascii=True))


def test_a_lone_surrogate_name_is_refused_not_a_traceback(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """H2: ``\\ud800`` passed name_problem and crashed check and vendor with UnicodeEncodeError."""
    v = tmp_path / "v"
    assert _run(capsys, "vendor", str(v))[0] == 0
    _lock_with(v, {"schema/\ud800.json": "0" * 64})
    refusal = (f"{v / LOCK_NAME}: refusing the file name \"schema/\\ud800.json\": it is not valid Unicode "
               "(it holds a lone surrogate)")
    assert _run(capsys, "vendor", "--check", str(v)) == (1, f"vendor --check: {refusal}\n")
    code, out = _run(capsys, "vendor", str(v))
    assert code == 1 and refusal in out and "Traceback" not in out
    layout = tmp_path / "l.json"
    layout.write_text('{"layoutVersion": 1, "name": "s", "files": [{"from": "golden/probes.tsv", "to": "\\ud800"}]}')
    code, out = _run(capsys, "vendor", "--layout", str(layout), str(tmp_path / "w"))
    assert code == 1 and out.endswith("is refused: it is not valid Unicode (it holds a lone surrogate)\n"), out


def test_a_name_too_long_is_named_on_its_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """H4: a segment over 255 bytes is refused by name; a path too long for the file system as a whole is
    that file's problem, not "the lock cannot be read"."""
    deep = "/".join(["\U0001f600" * 63] * 16)[:1020]
    v = tmp_path / "v"
    while len(os.fsencode(v / deep)) < 4200:  # over PATH_MAX (4096) whatever the length of tmp_path (--basetemp)
        v = v.parent / ("p" * 200) / "v"
    v.parent.mkdir(parents=True, exist_ok=True)
    assert _run(capsys, "vendor", str(v))[0] == 0
    _lock_with(v, {"schema/" + "\U0001f600" * 64 + ".json": "0" * 64})
    code, out = _run(capsys, "vendor", "--check", str(v))
    assert code == 1 and out.endswith("it has a segment longer than 255 bytes (UTF-8), more than a file system "
                                      "holds\n"), out
    _lock_with(v, {}, files={})
    _lock_with(v, {deep: "0" * 64})
    fd = os.open(v, os.O_RDONLY | os.O_DIRECTORY)
    for segment in deep.split("/")[:-1]:  # directories made relative to each other: the path as a whole is too long
        os.mkdir(segment, dir_fd=fd)
        inner = os.open(segment, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
        os.close(fd)
        fd = inner
    os.close(fd)
    code, out = _run(capsys, "vendor", "--check", str(v))
    assert code == 1 and f"FAIL {v / deep}: cannot be read (File name too long)\n" in out, out
    assert "cannot be read as a lock file" not in out


def test_vendor_refuses_the_kits_own_data(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """H5: a DIR that is the kit's data root, or inside the data it ships, is refused before any write."""
    layout = _layout(tmp_path / "self.json", [("golden/probes.tsv", "schema/zz-extra.schema.json")], "self")
    for target in (ROOT, ROOT / "golden" / "vectors", ROOT / "schema" / "new-dir"):
        before = sorted(p.name for p in target.parent.iterdir())
        code, out = _run(capsys, "vendor", "--layout", layout, str(target))
        assert (code, out) == (1, f"vendor: refusing to vendor into {target}: it is the kit's own data ({ROOT}) "
                                  "or inside it (vendor copies the kit's files elsewhere)\n")
        assert sorted(p.name for p in target.parent.iterdir()) == before
    link = tmp_path / "kit-link"
    link.symlink_to(ROOT / "golden")
    code, out = _run(capsys, "vendor", "--layout", layout, str(link / "x"))
    assert code == 1 and "it is the kit's own data" in out


@pytest.mark.parametrize(("targets", "expected"), [
    (["a/Probes.json", "a/probes.json"], "a/Probes.json and a/probes.json differ only in case"),
    (["A/probes.json", "a/x.json"], "A and a differ only in case"),
    (["DICECHESS-CONTRACT.LOCK.JSON"], "the target name DICECHESS-CONTRACT.LOCK.JSON of entry 0 is refused: it is "
                                       "the lock file itself, or a directory in its place"),
])
def test_targets_differing_only_in_case_are_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                     targets: list[str], expected: str) -> None:
    """L5: on a case-insensitive file system (macOS, Windows) these are one file."""
    sources = ["golden/probes.tsv", "golden/probes.json"]
    layout = _layout(tmp_path / "case.json", list(zip(sources, targets, strict=False)), "case")
    code, out = _run(capsys, "vendor", "--layout", layout, str(tmp_path / "t"))
    assert code == 1 and expected in out, out
    assert not (tmp_path / "t").exists()


@pytest.mark.parametrize("text", ["1.0", "1e0", "1.0000000000000001", "2.0"])
def test_lock_version_is_the_integer_as_json_text_reads(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                        text: str) -> None:
    """L7: 1.0000000000000001 read as the double 1.0 was accepted; a lockVersion is the integer 1 or 2."""
    v = tmp_path / "v"
    assert _run(capsys, "vendor", str(v))[0] == 0
    raw = (v / LOCK_NAME).read_text().replace('"lockVersion": 1,', f'"lockVersion": {text},')
    assert text in raw
    (v / LOCK_NAME).write_text(raw)
    code, out = _run(capsys, "vendor", "--check", str(v))
    assert code == 1 and "is not one this kit reads (it reads 1, 2)" in out, out


def test_byte_identical_files_are_adopted(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Issue 33 item 7: a tests/fixtures/ that still holds the repository's own, byte-identical files."""
    fixtures = tmp_path / "tests" / "fixtures"
    assert _run(capsys, "vendor", "--layout", "training", str(tmp_path / "reference"))[0] == 0
    shutil.copytree(tmp_path / "reference", fixtures)
    (fixtures / LOCK_NAME).unlink()
    (fixtures / "conftest.py").write_text("# the repository's own\n")
    expected = {name: hashlib.sha256(data).hexdigest() for name, data in _tree(fixtures).items()
                if data is not None and name != "conftest.py"}
    code, out = _run(capsys, "vendor", "--layout", "training", str(fixtures))
    assert code == 0, out
    assert f"vendor: adopted {len(expected)} existing file(s) byte-identical to what vendor writes into {fixtures}: " \
           in out
    assert json.loads((fixtures / LOCK_NAME).read_text())["files"] == expected
    assert (fixtures / "conftest.py").read_text() == "# the repository's own\n"
    assert _run(capsys, "vendor", "--check", str(fixtures))[0] == 0


def test_without_directory_descriptors_the_same_rules_hold(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Where ``dir_fd`` is missing (Windows), the walk goes by checked paths: removal, adoption and a link
    inside DIR keep the same rules (the existing-file rule itself: test_vendor_layout.py)."""
    monkeypatch.setattr(walk, "supported", lambda: False)
    test_removal_keeps_a_file_whose_bytes_are_not_the_locks(capsys, tmp_path / "removal")
    test_byte_identical_files_are_adopted(capsys, tmp_path / "adoption")
    fx = tmp_path / "adoption" / "tests" / "fixtures"
    shutil.rmtree(fx / "rich9")
    (fx / "rich9").symlink_to(tmp_path)
    code, out = _run(capsys, "vendor", str(fx))
    assert code == 1 and f"{fx / 'rich9'} is a symbolic link" in out, out
