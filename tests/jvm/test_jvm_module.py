"""The JVM artifact (jvm/) agrees with the Python kit: one table of corpus schemas, one version, and — once
``mvn -B -f jvm/pom.xml package`` has built the jar (``tox -e jvm`` does) — the same lock, the same
``vendor --check`` output and exit codes, and the same golden vectors bit for bit."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from contract import __version__
from contract.cli import main as kit_main
from contract.core.registry import feature_schemas
from contract.core.resources import data_root
from contract.golden.validation import CORPUS_SCHEMAS, validate_files
from contract.recordings.vectorfile import read
from contract.vendoring.files import VENDORED_FILES, VENDORED_TREES
from contract.vendoring.layout import _kit_files
from contract.vendoring.lock import LOCK_NAME, lock_bytes, lock_document

ROOT = Path(__file__).resolve().parents[2]
JVM = ROOT / "jvm"
VERSION = __version__
JAR = JVM / "target" / f"dicechess-contract-jvm-{VERSION}.jar"
# tox -e jvm builds the jar just before these tests and sets this: there a missing or stale jar fails them
REQUIRE_JAR = "DICECHESS_JVM_REQUIRE_JAR"


def stale_reason(jar: Path = JAR) -> str | None:
    """Why ``jar`` is not the jar of this checkout (None: it is): missing, older than a Java source or the pom,
    or carrying other kit data (its lock or its list of kit files differ from what this checkout's kit has)."""
    shown = jar.relative_to(ROOT) if jar.is_relative_to(ROOT) else jar
    if not jar.is_file():
        return f"{shown} is not built"
    sources = [JVM / "pom.xml", *(p for p in (JVM / "src" / "main").rglob("*") if p.is_file())]
    newest = max(sources, key=lambda p: p.stat().st_mtime)
    if newest.stat().st_mtime > jar.stat().st_mtime:
        return f"{shown} is older than {newest.relative_to(ROOT)}"
    with zipfile.ZipFile(jar) as archive:
        try:
            lock = archive.read("dicechess-contract/dicechess-contract.lock.json")
            index = archive.read("dicechess-contract/kit-files.txt").decode("utf-8")
        except KeyError as exc:
            return f"{shown} lacks {exc}"
    if lock != lock_bytes(lock_document()):
        return f"{shown} carries another lock than the kit's files"
    if index.splitlines() != sorted(_kit_files(data_root())):
        return f"{shown} carries other kit files than the kit's"
    return None


_STALE = stale_reason() if shutil.which("java") is not None else "no java on PATH"
if _STALE is not None and os.environ.get(REQUIRE_JAR):
    raise RuntimeError(f"{REQUIRE_JAR} is set but {_STALE}: run `mvn -B -f jvm/pom.xml package`")
built = pytest.mark.skipif(_STALE is not None, reason=f"{_STALE} (`mvn -B -f jvm/pom.xml package`, tox -e jvm)")


def test_the_java_tests_read_the_kits_table_of_corpus_schemas() -> None:
    lines = (JVM / "src" / "test" / "resources" / "corpus-schemas.tsv").read_text(encoding="utf-8").splitlines()
    rows = [tuple(line.split("\t")) for line in lines if line and not line.startswith("#")]
    assert rows == list(CORPUS_SCHEMAS)


def test_the_artifact_has_the_kits_version() -> None:
    pom = (JVM / "pom.xml").read_text(encoding="utf-8")
    assert re.search(r"<artifactId>dicechess-contract-jvm</artifactId>\s*(?:<!--[^>]*-->\s*)?<version>([^<]+)</version>",
                     pom)[1] == VERSION  # type: ignore[index]


@pytest.mark.source
def test_the_java_lock_writer_vendors_the_kits_trees_and_files() -> None:
    source = (JVM / "src" / "main" / "java" / "dicechess" / "contract" / "Lock.java").read_text(encoding="utf-8")

    def listed(name: str) -> tuple[str, ...]:
        found = re.search(name + r" =\s*List\.of\(([^)]*)\)", source)
        assert found is not None, name
        return tuple(re.findall(r'"([^"]+)"', found[1]))

    assert listed("VENDORED_TREES") == VENDORED_TREES
    assert listed("VENDORED_FILES") == VENDORED_FILES


def _java(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["java", "-jar", str(JAR), *args], capture_output=True, text=True, timeout=120,
                          check=False)


@built
def test_the_jar_carries_the_kits_files_and_the_lock_python_writes() -> None:
    with zipfile.ZipFile(JAR) as jar:
        names = set(jar.namelist())
        lock = jar.read("dicechess-contract/dicechess-contract.lock.json")
        assert jar.read("dicechess-contract/golden/fixtures/synthetic_kcp_mobility_27_test_model.onnx") == (
            ROOT / "golden/fixtures/synthetic_kcp_mobility_27_test_model.onnx").read_bytes()
    assert lock == lock_bytes(lock_document())
    for tree in ("schema/", "grammar/", "golden/vectors/", "golden/recorded/engine-live/", "golden/conformance/"):
        assert any(n.startswith(f"dicechess-contract/{tree}") for n in names), tree
    assert "dicechess/contract/Main.class" in names
    assert not any(n.startswith(("com/", "org/", "tools/")) for n in names)  # no bundled dependency


@built
@pytest.mark.parametrize("schema", sorted(feature_schemas()))
def test_the_vectors_read_in_java_are_pythons_bit_for_bit(schema: str) -> None:
    done = _java("vectors", schema)
    assert done.returncode == 0, done.stderr
    java = dict(line.split("\t") for line in done.stdout.splitlines())
    python = read(schema, (ROOT / "golden" / "vectors" / f"{schema}.json").read_bytes())
    assert list(java) == list(python.probes)
    for probe_id, probe in python.probes.items():
        assert java[probe_id] == np.asarray(probe.features, dtype=">f4").tobytes().hex(), probe_id


@built
def test_the_java_check_prints_what_vendor_check_prints(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    copy = tmp_path / "copy"
    assert kit_main(["vendor", str(copy)]) == 0
    capsys.readouterr()

    def both() -> tuple[tuple[int, str], tuple[int, str]]:
        code = kit_main(["vendor", "--check", str(copy)])
        python = (code, capsys.readouterr().out)
        done = _java("check", str(copy))
        return python, (done.returncode, done.stdout)

    python, java = both()
    assert python == java == (0, f"vendor --check: {copy} matches the installed kit\n")
    (copy / "golden" / "probes.json").write_text("{}\n", encoding="utf-8")
    (copy / "grammar" / "engine_compatibility.lark").unlink()
    python, java = both()
    assert python == java and java[0] == 1
    assert "FAIL " + str(copy / "golden" / "probes.json") + ": edited" in java[1]
    lock = copy / "dicechess-contract.lock.json"
    text = lock.read_text(encoding="utf-8")
    for edit in ('"files": {\n    "../outside.json": "' + "0" * 64 + '",', '"lockVersion": 3,', '"kit": "other",',
                 '"files": {\n    "schema//x.json": "' + "0" * 64 + '",'):
        key = edit.split(":")[0]
        lock.write_text(text.replace(next(line.strip() for line in text.splitlines() if line.strip().startswith(key)),
                                     edit, 1) if not edit.startswith('"files"') else
                        text.replace('"files": {', edit, 1), encoding="utf-8")
        python, java = both()
        assert python == java and java[0] == 1 and len(java[1].splitlines()) == 1, edit
    lock.write_text(text, encoding="utf-8")
    probes = copy / "golden" / "probes.json"
    target = tmp_path / "elsewhere.json"
    target.write_bytes((ROOT / "golden" / "probes.json").read_bytes())
    probes.unlink()
    probes.symlink_to(target)
    python, java = both()
    assert python == java and "is a symbolic link" in java[1]
    lock.unlink()
    python, java = both()
    assert python == java and java[0] == 1
    usage = _java("check")
    assert usage.returncode == 2 and usage.stderr.startswith("usage: dicechess-contract-jvm")


@built
def test_the_jar_says_what_a_command_lacks_not_a_java_list() -> None:
    """Issue #35, newcomer item: ``check`` with no DIR said ``unknown arguments [check]``."""
    done = _java("check")
    assert done.returncode == 2
    assert done.stderr == ("usage: dicechess-contract-jvm check DIR\n"
                           "dicechess-contract-jvm: error: check: the following arguments are required: DIR\n")
    extra = _java("vectors", "kcp-13", "again")
    assert extra.returncode == 2 and extra.stderr.endswith(
        "error: vectors takes one SCHEMA; unrecognized arguments: again\n")
    assert "[" not in _java("frobnicate").stderr.splitlines()[-1]


def test_a_stale_jar_is_named_not_compared(tmp_path: Path) -> None:
    assert stale_reason(tmp_path / "none.jar") == f"{tmp_path / 'none.jar'} is not built"
    old = tmp_path / "old.jar"
    with zipfile.ZipFile(old, "w") as archive:
        archive.writestr("dicechess-contract/dicechess-contract.lock.json", b"{}")
        archive.writestr("dicechess-contract/kit-files.txt", b"")
    os.utime(old, (0, 0))
    assert "is older than" in str(stale_reason(old))
    os.utime(old)
    assert stale_reason(old) == f"{old} carries another lock than the kit's files"
    with zipfile.ZipFile(old, "w") as archive:
        archive.writestr("dicechess-contract/dicechess-contract.lock.json", lock_bytes(lock_document()))
        archive.writestr("dicechess-contract/kit-files.txt", b"schema/x.json\n")
    assert stale_reason(old) == f"{old} carries other kit files than the kit's"


def _training_entries(layout: dict[str, object], change: dict[str, object]) -> dict[str, object]:
    files = [{**e, **change} if "probesOf" in e else e for e in layout["files"]]  # type: ignore[attr-defined]
    return {**layout, "files": files}


# (case, the lock's text from the Python kit's fresh training-layout lock); each is checked by both implementations
LAYOUT_LOCKS: list[tuple[str, Callable[[dict[str, Any]], str]]] = [
    ("fresh", lambda lock: json.dumps(lock, indent=2)),
    ("lockVersion 2.0", lambda lock: json.dumps({**lock, "lockVersion": 2.0})),
    ("no layout", lambda lock: json.dumps({k: v for k, v in lock.items() if k != "layout"})),
    ("layout not an object", lambda lock: json.dumps({**lock, "layout": [1, 2.5, "x'y", None, True, {"a": 1e300}]})),
    ("layout without a name", lambda lock: json.dumps(
        {**lock, "layout": {k: v for k, v in lock["layout"].items() if k != "name"}})),
    ("layout with other keys", lambda lock: json.dumps({**lock, "layout": {**lock["layout"], "zz": 1, "aa": 2}})),
    ("layoutVersion 2", lambda lock: json.dumps({**lock, "layout": {**lock["layout"], "layoutVersion": 2}})),
    ("layoutVersion true", lambda lock: json.dumps({**lock, "layout": {**lock["layout"], "layoutVersion": True}})),
    ("layoutVersion 1.0", lambda lock: json.dumps({**lock, "layout": {**lock["layout"], "layoutVersion": 1.0}})),
    ("a name the pattern refuses", lambda lock: json.dumps(
        {**lock, "layout": {**lock["layout"], "name": "Bad Name\u00e9\u200b\U0001F600"}}, ensure_ascii=False)),
    ("a name with a final newline", lambda lock: json.dumps({**lock, "layout": {**lock["layout"], "name": "ok\n"}})),
    ("no files", lambda lock: json.dumps({**lock, "layout": {**lock["layout"], "files": []}})),
    ("files not a list", lambda lock: json.dumps({**lock, "layout": {**lock["layout"], "files": {
        "a": 0.1, "b": 1e16, "c": 1.5e-5, "d": 123456789012345678901234567890, "e": -0.0, "f": 0.0001}}})),
    ("an entry not an object", lambda lock: json.dumps({**lock, "layout": {**lock["layout"], "files": [5]}})),
    ("an entry with another key", lambda lock: json.dumps({**lock, "layout": {**lock["layout"], "files": [
        {"from": "schema/x.json", "to": "y", "bad": 1}]}})),
    ("an entry without to", lambda lock: json.dumps({**lock, "layout": {**lock["layout"], "files": [
        {"from": "schema/x.json"}]}})),
    ("a from outside the kit", lambda lock: json.dumps({**lock, "layout": {**lock["layout"], "files": [
        {"from": "/etc/passwd", "to": "y"}]}})),
    ("a to too long", lambda lock: json.dumps({**lock, "layout": {**lock["layout"], "files": [
        {"from": "schema/x.json", "to": "a" * 1025}]}})),
    ("a to with quotes", lambda lock: json.dumps({**lock, "layout": {**lock["layout"], "files": [
        {"from": "schema/x.json", "to": "*a'\"\\b"}]}})),
    ("a to leaving the copy", lambda lock: json.dumps({**lock, "layout": {**lock["layout"], "files": [
        {"from": "schema/feature-schemas.json", "to": "../x"}]}})),
    ("a to naming the lock", lambda lock: json.dumps({**lock, "layout": {**lock["layout"], "files": [
        {"from": "schema/feature-schemas.json", "to": LOCK_NAME}]}})),
    ("several errors", lambda lock: json.dumps({**lock, "layout": {
        "layoutVersion": 3, "files": [{"from": 1, "to": 2}], "extra": None}})),
    ("a probesOf the kit cannot read", lambda lock: json.dumps({**lock, "layout": _training_entries(
        lock["layout"], {"probesOf": "golden/drift-log.json"})})),
    ("a kit file copied twice", lambda lock: json.dumps({**lock, "layout": {**lock["layout"], "files": [
        *lock["layout"]["files"], {"from": "golden/recorded/kcp-13.engine-0.12.0.json", "to": "again.json"}]}})),
    ("a name as a file and a directory", lambda lock: json.dumps({**lock, "layout": {**lock["layout"], "files": [
        *lock["layout"]["files"], {"from": "schema/feature-schemas.json", "to": "kcp13"}]}})),
    ("a to under the lock's name", lambda lock: json.dumps({**lock, "layout": {**lock["layout"], "files": [
        {"from": "schema/feature-schemas.json", "to": f"{LOCK_NAME}/x.json"}]}})),
    ("a source the kit no longer has", lambda lock: json.dumps({**lock, "layout": {**lock["layout"], "files": [
        *lock["layout"]["files"], {"from": "schema/nothing.json", "to": "n.json"}]}})),
    ("a locked file the layout does not write", lambda lock: json.dumps(
        {**lock, "files": {**lock["files"], "extra/file.json": "0" * 64}})),
    ("a lone surrogate in the name", lambda lock: json.dumps(lock).replace('"name": "training"', '"name": "\\ud800"')),
    ("lockVersion 1e999", lambda lock: json.dumps(lock).replace('"lockVersion": 2', '"lockVersion": 1e999')),
    ("a duplicate key", lambda lock: json.dumps(lock).replace('"kit":', '"kitVersion": "x", "kit":')),
    ("64 levels", lambda lock: json.dumps(lock).replace('"kitVersion"', '"d": ' + "[" * 63 + "]" * 63 + ', "kitVersion"')),
    ("65 levels", lambda lock: json.dumps(lock).replace('"kitVersion"', '"d": ' + "[" * 64 + "]" * 64 + ', "kitVersion"')),
]


@built
def test_the_java_check_reads_a_layout_copy_as_vendor_check_does(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    copy = tmp_path / "training"
    assert kit_main(["vendor", "--layout", "training", str(copy)]) == 0
    capsys.readouterr()
    lock_path = copy / LOCK_NAME
    lock = json.loads(lock_path.read_text(encoding="utf-8"))
    assert lock["lockVersion"] == 2 and lock["layout"]["name"] == "training"
    outputs = {}
    for case, text in LAYOUT_LOCKS:
        lock_path.write_text(text(lock), encoding="utf-8")
        python, java = _both(copy, capsys)
        assert python == java, case
        outputs[case] = java
    assert outputs["fresh"] == outputs["layoutVersion 1.0"] == (
        0, f"vendor --check: {copy} matches the installed kit\n")
    assert outputs["lockVersion 2.0"][0] == 1  # the integer 2 as JSON text reads it (review L7)
    refused_in_one_line = [case for case, (code, out) in outputs.items() if code == 1 and len(out.splitlines()) == 1]
    assert len(refused_in_one_line) >= 20
    assert "(/: 'name' is a required property)" in outputs["layout without a name"][1]
    assert outputs["a probesOf the kit cannot read"][1].count("not in the installed kit") == len(lock["files"])
    lock_path.write_text(json.dumps(lock, indent=2), encoding="utf-8")
    (copy / "kcp13" / "probes.tsv").write_text("x", encoding="utf-8")
    (copy / "manifests" / "synthetic_kcp13_value_manifest.json").unlink()
    python, java = _both(copy, capsys)
    assert python == java and java[0] == 1 and "FAIL " + str(copy / "kcp13" / "probes.tsv") + ": edited" in java[1]
    assert "FAIL " + str(copy / "manifests" / "synthetic_kcp13_value_manifest.json") + ": missing" in java[1]


def _both(copy: Path, capsys: pytest.CaptureFixture[str]) -> tuple[tuple[int, str], tuple[int, str]]:
    code = kit_main(["vendor", "--check", str(copy)])
    python = (int(code), capsys.readouterr().out)
    done = _java("check", str(copy))
    return python, (done.returncode, done.stdout + done.stderr)


# The review of 2026-12-04 (H2, H3, H4, L7): names the JVM cannot spell in its file name encoding (any non-ASCII name
# under a C locale), lock names with a lone surrogate (refused by both: no valid Unicode), a name too long for the
# file system, and a lockVersion written as a double (refused by both: the integer 1 or 2 as JSON text reads it).
# Both commands run as processes, so the locale is theirs.
_PYTHON_CHECK = "import sys; from contract.cli import main; sys.exit(main(sys.argv[1:]))"
_C_LOCALE = {"LC_ALL": "C", "LANG": "C"}
_EMOJI_NAME = "\U0001F600" * 1000  # 1,000 characters (under the 1,024 limit), 4,000 bytes (over NAME_MAX)


def _run_both(directory: str, cwd: Path, env: dict[str, str] | None = None) -> tuple[tuple[int, str], tuple[int, str]]:
    environment = {**os.environ, **(env or {})}
    python = subprocess.run([sys.executable, "-c", _PYTHON_CHECK, "vendor", "--check", directory], capture_output=True,
                            cwd=cwd, env=environment, timeout=120, check=False)
    java = subprocess.run(["java", "-jar", str(JAR), "check", directory], capture_output=True, cwd=cwd,
                          env=environment, timeout=120, check=False)
    return ((python.returncode, (python.stdout + python.stderr).decode("utf-8", "replace")),
            (java.returncode, (java.stdout + java.stderr).decode("utf-8", "replace")))


def _with_lock(copy: Path, change: Callable[[dict[str, Any]], None] | None = None,
               text: Callable[[str], str] | None = None) -> None:
    path = copy / LOCK_NAME
    lock = json.loads(path.read_text(encoding="utf-8"))
    if change is not None:
        change(lock)
    written = json.dumps(lock, indent=2)
    path.write_text(text(written) if text is not None else written, encoding="utf-8")


def _raw_file(copy: Path, name: bytes, data: bytes) -> None:
    """Write ``data`` under ``copy`` by a name of raw bytes (its directories made), as no str path can spell it."""
    path = os.fsencode(copy) + b"/" + name
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as out:
        out.write(data)


def _replacing(old: str, new: str) -> Callable[[str], str]:
    return lambda text: text.replace(old, new, 1)


@built
def test_the_java_check_agrees_on_names_the_jvm_cannot_spell_and_rounded_versions(tmp_path: Path) -> None:
    assert kit_main(["vendor", str(tmp_path / "caf\u00e9")]) == 0
    assert kit_main(["vendor", "--layout", "training", str(tmp_path / "t")]) == 0
    fresh, training = tmp_path / "caf\u00e9", tmp_path / "t"
    outputs: dict[str, tuple[int, str]] = {}

    def case(label: str, source: Path, *, env: dict[str, str] | None = None,
             change: Callable[[dict[str, Any]], None] | None = None, text: Callable[[str], str] | None = None,
             files: Callable[[Path], object] | None = None) -> None:
        copy = tmp_path / "w\u00e9"
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(source, copy, symlinks=True)
        if change is not None or text is not None:
            _with_lock(copy, change, text)
        if files is not None:
            files(copy)
        python, java = _run_both(copy.name if label != "fresh DIR" else fresh.name, tmp_path, env)
        assert "Traceback" not in python[1] and "Exception" not in java[1], (label, python, java)
        assert python == java, label
        outputs[label] = java

    def locked(name: str, digest: str = "0" * 64) -> Callable[[dict[str, Any]], None]:
        return lambda lock: lock["files"].__setitem__(name, digest)

    case("fresh DIR", fresh, env=_C_LOCALE)
    case("non-ASCII DIR, C locale", fresh, env=_C_LOCALE)
    case("non-ASCII DIR, C locale, an edited file", fresh, env=_C_LOCALE,
         files=lambda w: (w / "golden" / "probes.json").write_text("{}", encoding="utf-8"))
    case("non-ASCII name, C locale", fresh, env=_C_LOCALE, change=locked("schema/caf\u00e9.json"),
         files=lambda w: (w / "schema" / "caf\u00e9.json").write_text("x", encoding="utf-8"))
    case("non-ASCII name, C locale, absent", fresh, env=_C_LOCALE, change=locked("schema/caf\u00e9.json"))
    case("a lock name escaping byte 0xff, absent", fresh, change=locked("schema/\udcff.json"))
    case("a lock name escaping byte 0xff, absent, C locale", fresh, env=_C_LOCALE, change=locked("schema/\udcff.json"))
    raw = hashlib.sha256(b"raw").hexdigest()
    case("a lock name escaping byte 0xff, present", fresh, change=locked("schema/\udcffx.json", raw),
         files=lambda w: _raw_file(w, b"schema/\xffx.json", b"raw"))
    case("a lock name escaping bytes, in a directory escaping bytes", fresh, change=locked("\udcfe/\udcff.json", raw),
         files=lambda w: _raw_file(w, b"\xfe/\xff.json", b"edited"))
    case("a non-ASCII file the lock does not name the same way (NFD on disk)", fresh,
         change=locked("schema/cafe\u0301.json"), files=lambda w: (w / "schema" / "caf\u00e9.json").write_text("x"))
    for written in ("1.0000000000000001", "0.99999999999999999", "1e0", "10e-1", "1.000000000000001", "1.5"):
        case(f"lockVersion {written}", fresh, text=_replacing('"lockVersion": 1,', f'"lockVersion": {written},'))
    for written in ("2.0000000000000001", "2.000000000000001"):
        case(f"layout lockVersion {written}", training,
             text=_replacing('"lockVersion": 2,', f'"lockVersion": {written},'))
    case("layoutVersion 1.0000000000000001", training,
         text=lambda t: t.replace('"layoutVersion": 1,', '"layoutVersion": 1.0000000000000001,', 1))
    case("a planned name too long for the file system", training,
         change=lambda lock: lock["layout"]["files"].append({"from": "golden/probes.json", "to": _EMOJI_NAME}))
    assert outputs["fresh DIR"] == (0, "vendor --check: caf\u00e9 matches the installed kit\n")
    assert outputs["non-ASCII DIR, C locale"] == (0, "vendor --check: w\u00e9 matches the installed kit\n")
    for label in ("a lock name escaping byte 0xff, absent", "a lock name escaping byte 0xff, present",
                  "a lock name escaping bytes, in a directory escaping bytes"):  # no valid Unicode (review H2)
        assert outputs[label][0] == 1 and "it is not valid Unicode (it holds a lone surrogate)" in outputs[label][1]
    assert "it has a segment longer than 255 bytes" in outputs["a planned name too long for the file system"][1]
    for written in ("1.0000000000000001", "0.99999999999999999", "1e0", "10e-1", "1.000000000000001", "1.5"):
        assert "is not one this kit reads" in outputs[f"lockVersion {written}"][1], written  # review L7
    for written in ("layout lockVersion 2.0000000000000001", "layout lockVersion 2.000000000000001"):
        assert "is not one this kit reads" in outputs[written][1], written
    assert outputs["layoutVersion 1.0000000000000001"][0] == 0  # the layout schema's const 1: equal as numbers


def _engine_table() -> dict[str, str | None]:
    """docs/jvm.md's table of the files the engine's specs open: resource name -> the kit file written (None: none)."""
    text = (ROOT / "docs" / "jvm.md").read_text(encoding="utf-8")
    section = text.split("## The engine's layout", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `([^`]+)` \| [^|]+ \| (?:`([^`]+)`|— [^|]*) \|$", section, flags=re.MULTILINE)
    return {resource: kit or None for resource, kit in rows}


def test_the_engine_layout_writes_every_file_the_engines_specs_open_that_the_kit_has() -> None:
    layout = json.loads((data_root() / "schema" / "vendor-layout-engine.json").read_text(encoding="utf-8"))
    written = {entry["to"]: entry["from"] for entry in layout["files"]}
    table = _engine_table()
    assert len(table) == 14
    assert written == {resource: kit for resource, kit in table.items() if kit is not None}
    assert {resource for resource, kit in table.items() if kit is None} == {
        "synthetic_pdi_test_model.onnx", "synthetic_test_model.onnx"}


@built
def test_the_java_check_reads_an_engine_layout_copy_as_vendor_check_does(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    copy = tmp_path / "resources"
    copy.mkdir()
    (copy / "synthetic_test_model.onnx").write_bytes(b"the engine's own")  # a file the layout does not write: kept
    assert kit_main(["vendor", "--layout", "engine", str(copy)]) == 0
    capsys.readouterr()
    for name, source in _engine_table().items():
        if source is not None:
            assert (copy / name).read_bytes() == (data_root() / source).read_bytes(), name
    assert (copy / "synthetic_test_model.onnx").read_bytes() == b"the engine's own"
    python, java = _both(copy, capsys)
    assert python == java == (0, f"vendor --check: {copy} matches the installed kit\n")
    (copy / "synthetic_kcp13_value_parity.json").write_text("{}", encoding="utf-8")
    python, java = _both(copy, capsys)
    assert python == java and java[0] == 1
    assert f"FAIL {copy / 'synthetic_kcp13_value_parity.json'}: edited" in java[1]


# The parity file (golden/fixtures/synthetic_kcp13_value_parity.json): the jar's `parity FILE` against Python's reader
# of it — the kit's strict JSON reader and golden check's schema validation (contract.golden.validation), then the
# file's rows against the kit's kcp-13 vectors and its model's digest, computed here with numpy and hashlib.
PARITY_NAME = "golden/fixtures/synthetic_kcp13_value_parity.json"
PARITY_MODEL = "synthetic_kcp13_value_test_model.onnx"


def _python_parity(root: Path) -> tuple[list[str], set[tuple[str, str]], bool]:
    """Python's reading of ``root/PARITY_NAME``: its schema problems (golden check's lines), the (probe, column)
    pairs whose float32 bits differ from the kit's kcp-13 vectors (or (probe, "") for an unknown probe or another
    FEN), and whether its model beside it has another digest."""
    data = (root / PARITY_NAME).read_bytes()
    _checked, problems = validate_files({PARITY_NAME: data}, lambda name: (data_root() / name).read_bytes())
    if problems:
        return problems, set(), False
    document = json.loads(data)
    kit = read("kcp-13", (data_root() / "golden" / "vectors" / "kcp-13.json").read_bytes())
    differing: set[tuple[str, str]] = set()
    for probe in document["probes"]:
        mine = kit.probes.get(probe["id"])
        if mine is None or mine.fen != probe["fen"] or mine.side != probe["side"]:
            differing.add((probe["id"], ""))
            continue
        theirs = np.asarray(probe["features"], dtype=np.float32).view(np.uint32)
        ours = np.asarray(mine.features, dtype=np.float32).view(np.uint32)
        differing |= {(probe["id"], kit.columns[i]) for i in np.flatnonzero(theirs != ours)}
    model = root / "golden" / "fixtures" / document["model"]
    other_digest = model.is_file() and hashlib.sha256(model.read_bytes()).hexdigest() != document["modelSha256"]
    return [], differing, other_digest


def _edited_parity(edit: Callable[[dict[str, Any]], None]) -> Callable[[bytes], bytes]:
    def apply(data: bytes) -> bytes:
        document = json.loads(data)
        edit(document)
        return json.dumps(document, indent=2).encode("utf-8")
    return apply


def _probe_edit(field: str, value: object, index: int = 0) -> Callable[[dict[str, Any]], None]:
    return lambda document: document["probes"][index].__setitem__(field, value)


def _feature_edit(index: int, column: int, value: float) -> Callable[[dict[str, Any]], None]:
    return lambda document: document["probes"][index]["features"].__setitem__(column, value)


PARITY_CASES: list[tuple[str, Callable[[bytes], bytes]]] = [
    ("the kit's", lambda data: data),
    ("the engine's, recorded", lambda data: (ROOT / "golden/recorded/manifests/synthetic_kcp13_value_parity.json")
     .read_bytes()),
    ("an output above 1", _edited_parity(_probe_edit("output", 1.5))),
    ("an output true", _edited_parity(_probe_edit("output", True))),
    ("a side x", _edited_parity(_probe_edit("side", "x", 3))),
    ("12 features", _edited_parity(lambda d: d["probes"][1]["features"].pop())),
    ("14 features", _edited_parity(lambda d: d["probes"][1]["features"].append(0.0))),
    ("a feature true", _edited_parity(_feature_edit(2, 4, True))),
    ("a missing FEN", _edited_parity(lambda d: d["probes"][0].pop("fen"))),
    ("another key", _edited_parity(lambda d: d.__setitem__("zz", 1))),
    ("columns reordered", _edited_parity(lambda d: d["columns"].reverse())),
    ("schema kcp-14", _edited_parity(lambda d: d.__setitem__("schema", "kcp-14"))),
    ("an upper-case digest", _edited_parity(lambda d: d.__setitem__("modelSha256", d["modelSha256"].upper()))),
    ("a model path", _edited_parity(lambda d: d.__setitem__("model", "../x.onnx"))),
    ("a FEN of 3 fields", _edited_parity(_probe_edit("fen", "8/8/8/8/8/8/8/8 w"))),
    ("no probes", _edited_parity(lambda d: d.__setitem__("probes", []))),
    ("an empty id", _edited_parity(_probe_edit("id", ""))),
    ("not an object", lambda data: b"[1, 2]"),
    ("a tiny feature", _edited_parity(_feature_edit(0, 0, 1e-45))),
    ("0.1 where 0", _edited_parity(_feature_edit(4, 6, 0.1))),
    ("a feature off by a float32 step", _edited_parity(_feature_edit(5, 10, 0.42129633))),
    ("an unknown probe", _edited_parity(_probe_edit("id", "no-such-probe", 2))),
    ("another FEN", _edited_parity(_probe_edit("fen", "4k3/8/8/8/8/8/8/3K4 w - -", 2))),
    ("another digest", _edited_parity(lambda d: d.__setitem__("modelSha256", "0" * 64))),
    ("a rounded lockstep output", _edited_parity(_probe_edit("output", 0.5714285714285714))),
    ("no tolerance, no version (format 1.0)", _edited_parity(lambda d: [d.pop("tolerance"), d.pop("formatVersion")])),
    ("a negative tolerance", _edited_parity(lambda d: d["tolerance"]["output"].__setitem__("absolute", -1e-6))),
    ("a tolerance without a reason", _edited_parity(lambda d: d["tolerance"]["output"].pop("reason"))),
    ("a tolerance of no measurement", _edited_parity(lambda d: d["tolerance"]["output"].__setitem__("measuredOn", []))),
    ("a tolerance for another value", _edited_parity(lambda d: d["tolerance"].__setitem__("features", {}))),
    ("format 2.0.0", _edited_parity(lambda d: d.__setitem__("formatVersion", "2.0.0"))),
    ("format 1.1", _edited_parity(lambda d: d.__setitem__("formatVersion", "1.1"))),
    ("format a number", _edited_parity(lambda d: d.__setitem__("formatVersion", 1))),
    ("a duplicate key", lambda data: data.replace(b'"schema": "kcp-13",', b'"schema": "kcp-13", "schema": "kcp-13",')),
    ("NaN", lambda data: data.replace(b'"output": ', b'"output": NaN, "x": ', 1)),
    ("a BOM", lambda data: b"\xef\xbb\xbf" + data),
    ("1e400", lambda data: data.replace(b'"output": ', b'"output": 1e400, "x": ', 1)),
]


@built
def test_the_java_parity_reader_agrees_with_pythons_on_the_parity_file(tmp_path: Path) -> None:
    original = (ROOT / PARITY_NAME).read_bytes()
    (tmp_path / "golden" / "fixtures").mkdir(parents=True)
    (tmp_path / "golden" / "fixtures" / PARITY_MODEL).write_bytes((ROOT / "golden" / "fixtures" / PARITY_MODEL)
                                                                  .read_bytes())
    verdicts = {}
    for case, change in PARITY_CASES:
        (tmp_path / PARITY_NAME).write_bytes(change(original))
        problems, differing, other_digest = _python_parity(tmp_path)
        done = subprocess.run(["java", "-jar", str(JAR), "parity", PARITY_NAME], cwd=tmp_path, capture_output=True,
                              text=True, timeout=120, check=False)
        lines = done.stdout.splitlines()
        holds = not problems and not differing and not other_digest
        assert done.returncode == (0 if holds else 1), (case, done.stdout, done.stderr)
        verdicts[case] = holds
        if holds:
            document = json.loads(change(original))
            expected = [f"{p['id']}\t{np.asarray(p['features'], dtype='>f4').tobytes().hex()}\t"
                        f"{np.asarray(p['output'], dtype='>f8').tobytes().hex()}" for p in document["probes"]]
            assert lines[:-1] == expected, case
            assert lines[-1].startswith(f"parity: {PARITY_NAME} holds: {len(expected)} probes"), case
            declared = document.get("tolerance")  # the tolerance Python reads, as written (format 1.1), or none
            written = re.search(rb'"absolute": ([^,\s}]+)', change(original))
            assert lines[-1].endswith(f"; format {document.get('formatVersion', '1.0.0')}, " + (
                "no output tolerance declared" if declared is None
                else f"outputs to be compared within {written[1].decode() if written else ''} absolute")), case
        elif problems and not problems[0].startswith(f"{PARITY_NAME}: not valid JSON"):
            assert lines[:-1] == problems, case  # the same schema problems, in the same words and order
        elif problems:
            assert lines[0].startswith(f"{PARITY_NAME}: not valid JSON"), case  # syntax details may differ
        else:
            named = {(m[1], m[2] or "") for m in (re.match(rf"{re.escape(PARITY_NAME)}: probe ([^:]+): (?:column (\w+))?",
                                                           line) for line in lines[:-1]) if m}
            assert named == differing, case
            assert any("has SHA-256" in line for line in lines) == other_digest, case
    assert verdicts["the kit's"] and verdicts["the engine's, recorded"] and verdicts["a rounded lockstep output"]
    assert verdicts["no tolerance, no version (format 1.0)"]
    assert sum(verdicts.values()) == 4
