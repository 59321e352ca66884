"""``vendor --layout``: the kit's files under another repository's names (issue 24 part 3).

The built-in ``training`` layout fills fortemate/dicechess-training ``tests/fixtures/``. What that
repository reads there was observed live (docs/tool.md, "Vendoring"): ``_TrainingFixtures`` below is a
double of it written from that run, not its code — the golden files ``kcp13/golden-engine-<v>.json``
(each declaring the engine its name gives), the probe table ``kcp13/probes.tsv`` (header
``id<TAB>fen<TAB>tags<TAB>note``, the same ids in the same order as the newest golden's and as
0.9.3's), ``rich9/golden-engine-0.12.0.json`` (its ``columns`` give the pre-ranker's width),
and the engine's manifests by file name under ``manifests/``.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from contract import __version__
from contract.cli import main
from contract.core.resources import data_root, schema_dir
from contract.vendoring.vendored import LOCK_NAME

ROOT = data_root()
SHARED_GOLDENS = ROOT.parent / "shared" / "reference" / "goldens"
RECORDED = ROOT / "golden" / "recorded"
TRAINING_FILES = {
    "kcp13/golden-engine-0.9.1.json": "golden/recorded/kcp-13.engine-0.9.1.json",
    "kcp13/golden-engine-0.9.2.json": "golden/recorded/kcp-13.engine-0.9.2.json",
    "kcp13/golden-engine-0.9.3.json": "golden/recorded/kcp-13.engine-0.9.3.json",
    "kcp13/golden-engine-0.12.0.json": "golden/recorded/kcp-13.engine-0.12.0.json",
    "rich9/golden-engine-0.12.0.json": "golden/recorded/rich-9-v1.engine-0.12.0.json",
    "rich9/golden-engine-0.9.1.json": "golden/recorded/rich-9-v1.engine-0.9.1.json",
    "prerank/probe-pairs.tsv": "golden/recorded/prerank/probe-pairs.tsv",
    "prerank/probe-pairs-kcp13-engine-0.12.0.json": "golden/recorded/prerank/probe-pairs-kcp13-engine-0.12.0.json",
    "prerank/probe-pairs-rich9-engine-0.12.0.json": "golden/recorded/prerank/probe-pairs-rich9-engine-0.12.0.json",
    "kcp_mobility27/golden-engine-0.9.3.json": "golden/recorded/kcp-mobility-27-v1.engine-0.9.3.json",
    "kcp_mobility_pawns31/golden-engine-0.9.3.json": "golden/recorded/kcp-mobility-pawns-31-v1.engine-0.9.3.json",
    **{f"manifests/synthetic_kcp13_{n}_manifest.json": f"golden/recorded/manifests/synthetic_kcp13_{n}_manifest.json"
       for n in ("collapse", "prerank", "renamed_tensors", "static_batch", "value", "value_legacy")},
}


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def _schema(name: str) -> Draft202012Validator:
    return Draft202012Validator(json.loads((schema_dir() / f"{name}.schema.json").read_text(encoding="utf-8")))


def _release(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


class _TrainingFixtures:
    """What the training repository's contract tests read from ``tests/fixtures/`` (observed live)."""

    def __init__(self, fixtures: Path) -> None:
        self.golden_dir = fixtures / "kcp13"
        self.manifests = fixtures / "manifests"
        self.rich9 = fixtures / "rich9"

    def goldens(self) -> dict[str, dict[str, object]]:
        return {p.name.removeprefix("golden-engine-").removesuffix(".json"): json.loads(p.read_text(encoding="utf-8"))
                for p in sorted(self.golden_dir.glob("golden-engine-*.json"))}

    def probe_rows(self) -> list[list[str]]:
        lines = (self.golden_dir / "probes.tsv").read_text().splitlines()
        assert lines[0] == "id\tfen\ttags\tnote"
        return [line.split("\t") for line in lines[1:]]

    def problems(self) -> list[str]:
        found = []
        goldens = self.goldens()
        if not {"0.9.2", "0.9.3", "0.12.0"} <= goldens.keys():
            found.append(f"goldens {sorted(goldens)}")
        for engine, golden in goldens.items():
            if golden.get("engineVersion") != engine or golden.get(
                    "engineArtifact") != f"com.fortemate:dicechess-engine_3:{engine}":
                found.append(f"golden {engine} declares another engine")
        newest = goldens[max(goldens, key=_release)]
        rows = self.probe_rows()
        for name, golden in (("newest", newest), ("0.9.3", goldens.get("0.9.3", {}))):
            probes = golden.get("probes", [])
            assert isinstance(probes, list)
            if [r[0] for r in rows] != [p["id"] for p in probes] or [r[1] for r in rows] != [p["fen"] for p in probes]:
                found.append(f"probes.tsv is not the {name} golden's probe list")
        rich9 = json.loads((self.rich9 / "golden-engine-0.12.0.json").read_text(encoding="utf-8"))
        if len(rich9["columns"]) != 9:
            found.append("rich9 width")
        for name in ("value", "value_legacy", "collapse", "renamed_tensors"):
            if not (self.manifests / f"synthetic_kcp13_{name}_manifest.json").is_file():
                found.append(f"manifest {name}")
        return found


def test_the_training_layout_writes_the_recorded_files_under_the_repositorys_names(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "tests" / "fixtures"
    code, out = _run(capsys, "vendor", "--layout", "training", str(target))
    assert (code, out) == (0, f"vendor: wrote 18 files and {LOCK_NAME} into {target} (layout training)\n")
    written = sorted(p.relative_to(target).as_posix() for p in target.rglob("*") if p.is_file())
    assert written == sorted([*TRAINING_FILES, "kcp13/probes.tsv", LOCK_NAME])
    for name, source in TRAINING_FILES.items():
        assert (target / name).read_bytes() == (ROOT / source).read_bytes(), name
    lock = json.loads((target / LOCK_NAME).read_text(encoding="utf-8"))
    assert list(_schema("vendor-lock-2").iter_errors(lock)) == []
    assert lock["layout"]["name"] == "training" and set(lock["files"]) == set(written) - {LOCK_NAME}
    for name, digest in lock["files"].items():
        assert hashlib.sha256((target / name).read_bytes()).hexdigest() == digest
    assert _TrainingFixtures(target).problems() == []


def test_the_probe_table_holds_exactly_the_recorded_probes(capsys: pytest.CaptureFixture[str],
                                                           tmp_path: Path) -> None:
    assert _run(capsys, "vendor", "--layout", "training", str(tmp_path / "f"))[0] == 0
    table = (tmp_path / "f" / "kcp13" / "probes.tsv").read_text(encoding="utf-8")
    kit_lines = (ROOT / "golden" / "probes.tsv").read_text(encoding="utf-8").splitlines(keepends=True)
    recorded = json.loads((RECORDED / "kcp-13.engine-0.12.0.json").read_text(encoding="utf-8"))["probes"]
    assert table.splitlines(keepends=True) == kit_lines[:1] + [
        line for line in kit_lines[1:] if line.split("\t")[0] in {p["id"] for p in recorded}]
    assert len(table.splitlines()) == 1 + len(recorded) == 28


def test_the_training_fixture_double_sees_a_broken_fixture(capsys: pytest.CaptureFixture[str],
                                                           tmp_path: Path) -> None:
    target = tmp_path / "f"
    assert _run(capsys, "vendor", "--layout", "training", str(target))[0] == 0
    (target / "kcp13" / "probes.tsv").write_bytes((ROOT / "golden" / "probes.tsv").read_bytes())  # 114 probes
    assert _TrainingFixtures(target).problems() == ["probes.tsv is not the newest golden's probe list",
                                                    "probes.tsv is not the 0.9.3 golden's probe list"]


def test_the_check_guards_the_layout_and_a_new_vendor_names_what_it_replaced(capsys: pytest.CaptureFixture[str],
                                                                             tmp_path: Path) -> None:
    target = tmp_path / "f"
    assert _run(capsys, "vendor", "--layout", "training", str(target))[0] == 0
    assert _run(capsys, "vendor", "--check", str(target)) == (0, f"vendor --check: {target} matches the installed kit\n")
    edited = target / "kcp13" / "golden-engine-0.9.2.json"
    edited.write_bytes(edited.read_bytes().replace(b'"start-w"', b'"start-W"'))
    (target / "manifests" / "synthetic_kcp13_value_manifest.json").unlink()
    code, out = _run(capsys, "vendor", "--check", str(target))
    assert (code, out) == (1, f"FAIL {edited}: edited (its SHA-256 is not the one in {LOCK_NAME})\n"
                              f"FAIL {target / 'manifests' / 'synthetic_kcp13_value_manifest.json'}: missing\n"
                              f"vendor --check: 2 problem(s) in {target}\n")
    code, out = _run(capsys, "vendor", "--check", "--json", str(target))
    document = json.loads(out)
    assert code == 1 and list(_schema("output-vendor-check-1").iter_errors(document)) == []
    assert document["outputVersion"] == 1 and document["layout"] == "training" and document["ok"] is False
    assert [(p["file"], p["kind"]) for p in document["problems"]] == [
        ("kcp13/golden-engine-0.9.2.json", "edited"), ("manifests/synthetic_kcp13_value_manifest.json", "missing")]
    code, out = _run(capsys, "vendor", str(target))  # the lock's layout, not the kit's own
    assert (code, out) == (0, f"vendor: replaced {edited}, which was edited locally (its SHA-256 was not the one in "
                              f"{LOCK_NAME})\nvendor: wrote 18 files and {LOCK_NAME} into {target} (layout training)\n")
    assert _run(capsys, "vendor", "--check", str(target))[0] == 0


def test_files_beside_the_layout_are_kept_and_never_overwritten(capsys: pytest.CaptureFixture[str],
                                                                tmp_path: Path) -> None:
    target = tmp_path / "fixtures"
    (target / "prerank").mkdir(parents=True)
    (target / "prerank" / "notes.txt").write_text("theirs")
    assert _run(capsys, "vendor", "--layout", "training", str(target))[0] == 0
    assert (target / "prerank" / "notes.txt").read_text() == "theirs"
    assert _run(capsys, "vendor", "--check", str(target))[0] == 0  # a file the lock does not list is not checked

    other = tmp_path / "other"
    (other / "kcp13").mkdir(parents=True)
    (other / "kcp13" / "probes.tsv").write_text("theirs")
    code, out = _run(capsys, "vendor", "--layout", "training", str(other))
    assert (code, out) == (1, f"vendor: refusing to vendor into {other}: {other / 'kcp13' / 'probes.tsv'} exists and "
                              "no lock lists it (vendor never overwrites a file it did not write)\n")
    assert sorted(p.name for p in other.rglob("*")) == ["kcp13", "probes.tsv"]


def test_a_layout_file_is_read_checked_and_recorded(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    layout = {"layoutVersion": 1, "name": "mine", "files": [
        {"from": "grammar/engine_compatibility.lark", "to": "third_party/grammar.lark"},
        {"from": "golden/vectors/*.json", "to": "vectors/*.json"}]}
    path = tmp_path / "layout.json"
    path.write_text(json.dumps(layout), encoding="utf-8")
    target = tmp_path / "repo"
    code, out = _run(capsys, "vendor", "--layout", str(path), str(target))
    vectors = sorted(p.name for p in (ROOT / "golden" / "vectors").glob("*.json"))
    assert (code, out) == (0, f"vendor: wrote {1 + len(vectors)} files and {LOCK_NAME} into {target} (layout mine)\n")
    assert sorted(p.name for p in (target / "vectors").iterdir()) == vectors
    path.unlink()  # the lock carries the layout: the check needs no file
    assert _run(capsys, "vendor", "--check", str(target))[0] == 0
    lock = json.loads((target / LOCK_NAME).read_text(encoding="utf-8"))
    assert lock["layout"] == layout


@pytest.mark.parametrize(("entry", "expected"), [
    ({"from": "schema/feature-schemas.json", "to": "../out.json"}, "the target name ../out.json of entry 0 is refused: "
     "it has a '.' or '..' segment"),
    ({"from": "schema/feature-schemas.json", "to": "a//b.json"}, "the target name a//b.json of entry 0 is refused: "
     "it has an empty segment"),
    ({"from": "schema/nothing-*.json", "to": "x/*.json"}, "entry 0 (schema/nothing-*.json) matches no file of the "
     "installed kit"),
    ({"from": "schema/nothing.json", "to": "x.json"}, "entry 0 names schema/nothing.json, which is not a file of "
     "the installed kit"),
    ({"from": "schema/*.json", "to": "x.json"}, "entry 0: \"from\" and \"to\" must hold the same single '*' or none"),
    ({"from": "/etc/passwd", "to": "x"}, "not a vendor layout (/files/0/from: "),
    ({"from": "golden/probes.tsv", "to": "p.tsv", "probesOf": "golden/drift-log.json"},
     "entry 0: golden/drift-log.json or golden/probes.tsv is not what probesOf reads"),
    ({"from": "golden/probes.json", "to": "p.tsv", "probesOf": "golden/recorded/kcp-13.engine-0.12.0.json"},
     "entry 0: golden/probes.json does not hold every probe of golden/recorded/kcp-13.engine-0.12.0.json exactly once"),
])
def test_a_bad_layout_is_refused_before_anything_is_written(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                            entry: dict[str, str], expected: str) -> None:
    path = tmp_path / "layout.json"
    path.write_text(json.dumps({"layoutVersion": 1, "name": "bad", "files": [entry]}), encoding="utf-8")
    code, out = _run(capsys, "vendor", "--layout", str(path), str(tmp_path / "t"))
    assert code == 1 and out.startswith(f"vendor: {path}: {expected}"), out
    assert not (tmp_path / "t").exists() and not (tmp_path.parent / "out.json").exists()


def test_an_unknown_layout_and_misused_options_are_refused(capsys: pytest.CaptureFixture[str],
                                                           tmp_path: Path) -> None:
    assert _run(capsys, "vendor", "--layout", "nope", str(tmp_path / "t")) == (
        1, "vendor: no built-in layout nope (built-in: engine, kit, training); give a layout file FILE.json\n")
    assert _run(capsys, "vendor", "--json", str(tmp_path / "t")) == (2, "usage error: --json is only for --check\n")
    assert _run(capsys, "vendor", "--check", "--layout", "training", str(tmp_path / "t"))[0] == 2
    assert not (tmp_path / "t").exists()


def test_the_kits_own_layout_now_carries_the_probe_table(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert _run(capsys, "vendor", str(tmp_path / "v"))[0] == 0
    lock = json.loads((tmp_path / "v" / LOCK_NAME).read_text(encoding="utf-8"))
    assert lock["lockVersion"] == 1 and "layout" not in lock
    assert list(_schema("vendor-lock-1").iter_errors(lock)) == []
    assert (tmp_path / "v" / "golden" / "probes.tsv").read_bytes() == (ROOT / "golden" / "probes.tsv").read_bytes()


@pytest.mark.parametrize("version", ["0.9.1", "0.9.2", "0.9.3"])
def test_the_older_kcp13_recordings_are_the_shared_ones_verbatim(version: str) -> None:
    if not SHARED_GOLDENS.is_dir():
        pytest.skip(f"{SHARED_GOLDENS} is not beside this checkout")
    name = f"kcp-13.engine-{version}.json"
    assert (RECORDED / name).read_bytes() == (SHARED_GOLDENS / name).read_bytes()
    readme = (RECORDED / "README.md").read_text(encoding="utf-8")
    assert f"{hashlib.sha256((RECORDED / name).read_bytes()).hexdigest()}  {name}" in readme


def test_the_messages_table_and_the_layouts_follow_their_schemas() -> None:
    messages = json.loads((schema_dir() / "vendor-messages.json").read_text(encoding="utf-8"))
    assert list(_schema("vendor-messages").iter_errors(messages)) == []
    layout = json.loads((schema_dir() / "vendor-layout-training.json").read_text(encoding="utf-8"))
    assert list(_schema("vendor-layout-1").iter_errors(layout)) == []


@pytest.mark.parametrize(("change", "expected"), [
    ({"layout": None}, "its \"layout\" is not a valid layout ("),
    ({"layout": {"layoutVersion": 1, "name": "x", "files": [{"from": "schema/check-table.json", "to": "../x"}]}},
     "its \"layout\" is not a valid layout ("),
    ({"files": {"../outside.json": "0" * 64}}, "refusing the file name \"../outside.json\": it has a '.' or '..' segment"),
])
def test_a_tampered_layout_lock_is_refused_and_nothing_is_written(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                                  change: dict[str, object], expected: str) -> None:
    target = tmp_path / "f"
    assert _run(capsys, "vendor", "--layout", "training", str(target))[0] == 0
    lock = json.loads((target / LOCK_NAME).read_text(encoding="utf-8"))
    (target / LOCK_NAME).write_text(json.dumps({**lock, **change}), encoding="utf-8")
    code, out = _run(capsys, "vendor", "--check", str(target))
    assert code == 1 and out.startswith(f"vendor --check: {target / LOCK_NAME}: {expected}"), out
    before = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*"))
    code, out = _run(capsys, "vendor", str(target))
    assert code == 1 and out.startswith(f"vendor: refusing to vendor into {target}: "), out
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")) == before


def test_a_lock_whose_layout_the_kit_cannot_plan_names_every_file_in_one_line_each(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # a recorded probesOf that is not a vector file: the installed kit cannot write that layout any more
    target = tmp_path / "f"
    assert _run(capsys, "vendor", "--layout", "training", str(target))[0] == 0
    lock = json.loads((target / LOCK_NAME).read_text(encoding="utf-8"))
    entry = next(e for e in lock["layout"]["files"] if "probesOf" in e)
    entry["probesOf"] = "golden/drift-log.json"
    (target / LOCK_NAME).write_text(json.dumps(lock), encoding="utf-8")
    code, out = _run(capsys, "vendor", "--check", str(target))
    lines = out.splitlines()
    assert code == 1 and len(lines) == len(lock["files"]) + 1, out
    assert all(line.endswith(f": not in the installed kit {__version__} any more (run vendor again)") for line in lines[:-1])


def test_a_failed_first_vendor_beside_other_files_takes_back_what_it_wrote(capsys: pytest.CaptureFixture[str],
                                                                          tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from contract.vendoring import walk

    target = tmp_path / "fixtures"
    (target / "prerank").mkdir(parents=True)
    (target / "prerank" / "notes.txt").write_text("theirs")
    real = walk.Tree.write

    def full(tree: walk.Tree, name: str, data: bytes, created: list[str] | None = None) -> None:
        if name == "kcp_mobility27/golden-engine-0.9.3.json":
            raise OSError(28, "No space left on device", name)
        real(tree, name, data, created)

    monkeypatch.setattr(walk.Tree, "write", full)
    code, out = _run(capsys, "vendor", "--layout", "training", str(target))
    failed = target / "kcp_mobility27" / "golden-engine-0.9.3.json"
    assert (code, out) == (1, f"vendor: cannot write {failed}: No space left on device; nothing was written into "
                              f"{target}\n")
    assert sorted(p.relative_to(target).as_posix() for p in target.rglob("*")) == ["prerank", "prerank/notes.txt"]
    monkeypatch.undo()
    assert _run(capsys, "vendor", "--layout", "training", str(target))[0] == 0


@pytest.mark.parametrize(("files", "expected"), [
    ([{"from": "golden/probes.tsv", "to": "a.tsv"}, {"from": "golden/probes.tsv", "to": "b.tsv"}],
     "entry 1 copies golden/probes.tsv again (a layout copies each kit file at most once)"),
    ([{"from": "golden/recorded/kcp-13.engine-*.json", "to": "a/*"},
      {"from": "golden/recorded/kcp-13.engine-*.json", "to": "b/*"}],
     "entry 1 copies golden/recorded/kcp-13.engine-0.12.0.json again (a layout copies each kit file at most once)"),
    ([{"from": "golden/probes.tsv", "to": "a"}, {"from": "golden/probes.json", "to": "a/b/c.json"}],
     "a is planned as a file and as the directory of a/b/c.json"),
    ([{"from": "golden/probes.tsv", "to": f"{LOCK_NAME}/probes.tsv"}],
     f"the target name {LOCK_NAME}/probes.tsv of entry 0 is refused: it is the lock file itself, or a directory"
     " in its place"),
])
def test_a_layout_that_writes_a_kit_file_twice_or_a_name_as_file_and_directory_is_refused(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, files: list[dict[str, str]], expected: str) -> None:
    """Issue 22 audit: one kit file copied under any number of names let a 1 MiB layout (or a 4 MiB lock
    recording one) make ``vendor`` write gigabytes; a name used as a file and as a directory, or a
    directory where the lock goes, failed only at the write, naming the staging error."""
    path = tmp_path / "layout.json"
    path.write_text(json.dumps({"layoutVersion": 1, "name": "bad", "files": files}), encoding="utf-8")
    code, out = _run(capsys, "vendor", "--layout", str(path), str(tmp_path / "t"))
    assert (code, out) == (1, f"vendor: {path}: {expected}\n")
    assert not (tmp_path / "t").exists()


def test_a_lock_recording_a_layout_that_copies_one_file_many_times_writes_nothing(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A pull request can change the lock; the next ``vendor DIR`` plans from the layout it records."""
    target = tmp_path / "f"
    assert _run(capsys, "vendor", "--layout", "training", str(target))[0] == 0
    lock = json.loads((target / LOCK_NAME).read_text(encoding="utf-8"))
    lock["layout"]["files"] += [{"from": "golden/recorded/kcp-13.engine-0.12.0.json", "to": f"copy{n}.json"}
                                for n in range(200)]
    (target / LOCK_NAME).write_text(json.dumps(lock), encoding="utf-8")
    before = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*"))
    code, out = _run(capsys, "vendor", str(target))
    assert code == 1 and "copies golden/recorded/kcp-13.engine-0.12.0.json again" in out, out
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")) == before
