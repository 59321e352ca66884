"""The JVM artifact (jvm/) agrees with the Python kit: one table of corpus schemas, one version, and — once
``mvn -B -f jvm/pom.xml package`` has built the jar (``tox -e jvm`` does) — the same lock, the same
``vendor --check`` output and exit codes, and the same golden vectors bit for bit."""

from __future__ import annotations

import re
import shutil
import subprocess
import tomllib
import zipfile
from pathlib import Path

import numpy as np
import pytest

from contract.cli import main as kit_main
from contract.core.registry import feature_schemas
from contract.core.vendorfiles import VENDORED_FILES, VENDORED_TREES
from contract.core.vendoring import _lock_bytes, lock_document
from contract.golden.validation import CORPUS_SCHEMAS
from contract.golden.vectors import read

ROOT = Path(__file__).resolve().parents[2]
JVM = ROOT / "jvm"
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
JAR = JVM / "target" / f"dicechess-contract-jvm-{VERSION}.jar"
built = pytest.mark.skipif(not JAR.is_file() or shutil.which("java") is None,
                           reason="the jar is built by `mvn -B -f jvm/pom.xml package` (tox -e jvm)")


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
    assert lock == _lock_bytes(lock_document())
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
