"""The JVM artifact (jvm/) agrees with the Python kit: one table of corpus schemas, one version, and — once
``mvn -B -f jvm/pom.xml package`` has built the jar (``tox -e jvm`` does) — the same lock, the same
``vendor --check`` output and exit codes, and the same golden vectors bit for bit."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tomllib
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from contract.cli import main as kit_main
from contract.core.registry import feature_schemas
from contract.core.resources import data_root
from contract.golden.validation import CORPUS_SCHEMAS
from contract.recordings.vectorfile import read
from contract.vendoring.files import VENDORED_FILES, VENDORED_TREES
from contract.vendoring.layout import _kit_files
from contract.vendoring.lock import LOCK_NAME, lock_bytes, lock_document

ROOT = Path(__file__).resolve().parents[2]
JVM = ROOT / "jvm"
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
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
    assert outputs["fresh"] == outputs["lockVersion 2.0"] == outputs["layoutVersion 1.0"] == (
        0, f"vendor --check: {copy} matches the installed kit\n")
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
