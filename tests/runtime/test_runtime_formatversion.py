"""Every contract file carries its own ``formatVersion``, and every reader refuses a major it does not know.

The versions are the kit's table (``contract.core.formatversion.VERSIONS``); docs/versioning.md says when
each is bumped. A reader refuses a file of another major, or one without a version, with a message that
names the file and the version; an adapter refuses a request of another protocol major the same way.
"""

from __future__ import annotations

import fnmatch
import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from contract.conformance import adapter, corpus
from contract.conformance.protocol import PROTOCOL_VERSION, request_problem
from contract.core import checktable, formatversion, registry
from contract.core.formatversion import FormatVersionError
from contract.core.resources import data_root
from contract.golden import drift
from contract.golden.validation import CORPUS_SCHEMAS, validate_files
from contract.model import manifest_schema
from contract.recordings.vectorfile import VectorFileError

ROOT = data_root()
FILE_NAMES = sorted(set(formatversion.VERSIONS) - {"adapter-protocol"})


def _versioned_files() -> dict[Path, tuple[str, str]]:
    """Each of the kit's versioned files -> (its name in VERSIONS, its schema's name).

    The name is the file's own where it has one in the table (two check tables share one schema), else
    its schema's. Other implementations' recordings (``golden/recorded/``) are left out.
    """
    found: dict[Path, tuple[str, str]] = {}
    for path in ROOT.glob("*/**/*.json"):
        relative = path.relative_to(ROOT).as_posix()
        if relative.startswith(("golden/recorded/", "js/", ".")):
            continue
        schema = next((name for pattern, name in CORPUS_SCHEMAS if fnmatch.fnmatchcase(relative, pattern)), None)
        if schema is not None and (path.stem in formatversion.VERSIONS or schema in formatversion.VERSIONS):
            found[path] = (path.stem if path.stem in formatversion.VERSIONS else schema, schema)
    return found


FILES = _versioned_files()


def _schema(name: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads((ROOT / "schema" / f"{name}.schema.json").read_text(encoding="utf-8"))
    return document


def test_every_file_carries_the_version_the_kit_writes() -> None:
    assert {name for name, _ in FILES.values()} == set(FILE_NAMES)  # every entry of the table has its files
    for path, (name, _) in FILES.items():
        assert json.loads(path.read_text(encoding="utf-8"))["formatVersion"] == formatversion.current(name), path


def test_each_files_schema_requires_the_kits_major() -> None:
    for path, (name, schema_name) in FILES.items():
        schema = _schema(schema_name)
        assert schema["properties"]["formatVersion"]["pattern"] == formatversion.pattern(name), path
        # the engine's recordings (vectors, its parity file) share the format and predate versions: optional there
        assert ("formatVersion" in schema["required"]) == (schema_name not in ("golden-vectors", "parity")), path


def test_every_protocol_request_requires_the_protocol_major() -> None:
    schema = _schema("adapter-protocol")["$defs"]
    assert schema["formatVersion"]["pattern"] == formatversion.pattern("adapter-protocol")
    requests = [ref["$ref"].rpartition("/")[2] for ref in schema["request"]["oneOf"]]
    assert requests and all("formatVersion" in schema[r]["required"] for r in requests)
    line = {"formatVersion": PROTOCOL_VERSION, "id": "x", "kind": "engine-compatibility",
            "constraint": ">=0.1.0", "engineVersion": "0.12.0"}
    assert request_problem(line) is None
    assert request_problem({**line, "formatVersion": "2.0.0"}) is not None
    assert request_problem({k: v for k, v in line.items() if k != "formatVersion"}) is not None


@pytest.mark.parametrize(("version", "accepted"), [
    ("1.0.0", True), ("1.7.12", True), ("0.9.0", False), ("2.0.0", False), ("01.0.0", False), ("1.0", False),
])
def test_a_reader_reads_its_major_only(version: str, accepted: bool) -> None:
    document = {"formatVersion": version}
    assert (formatversion.problem(document, "probes") is None) == accepted
    assert (re.fullmatch(formatversion.pattern("probes"), version) is not None) == accepted


# -- each reader names the file and the version it refuses --------------------------------------------

MAJOR_2 = "formatVersion 2.0.0 is not one this kit reads: it reads {name} format 1.x (docs/versioning.md)"


def _schema_copy(tmp_path: Path, file: str, version: str | None) -> Path:
    directory = tmp_path / "schema"
    shutil.copytree(ROOT / "schema", directory)
    document = json.loads((directory / file).read_text(encoding="utf-8"))
    document.pop("formatVersion")
    if version is not None:
        document["formatVersion"] = version
    (directory / file).write_text(json.dumps(document), encoding="utf-8")
    return directory


READERS: list[tuple[str, str, Any, Callable[[], object]]] = [
    ("feature-schemas.json", "feature-schemas", registry, registry.feature_schemas.__wrapped__),
    ("check-table.json", "check-table", checktable, lambda: checktable._document.__wrapped__("check-table.json")),
    ("pairjudge-check-table.json", "pairjudge-check-table", checktable,
     lambda: checktable._document.__wrapped__("pairjudge-check-table.json")),
    ("manifest-fields.json", "manifest-fields", manifest_schema, manifest_schema.manifest_fields.__wrapped__),
]


@pytest.mark.parametrize("reader", READERS, ids=[r[0] for r in READERS])
def test_a_schema_data_file_of_another_major_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        reader: tuple[str, str, Any, Callable[[], object]]) -> None:
    file, name, module, load = reader
    for version, message in (("2.0.0", MAJOR_2.format(name=name)), (None, "no formatVersion")):
        directory = _schema_copy(tmp_path / str(version), file, version)
        monkeypatch.setattr(module, "schema_dir", lambda d=directory: d)
        with pytest.raises(FormatVersionError, match="^" + re.escape(f"schema/{file}: {message}")):
            load()
    monkeypatch.setattr(module, "schema_dir", lambda: _schema_copy(tmp_path / "minor", file, "1.9.0"))
    assert load()  # a newer minor of the same major is read


def test_a_conformance_corpus_of_another_major_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    golden = tmp_path / "golden"
    shutil.copytree(ROOT / "golden" / "conformance", golden / "conformance")
    path = golden / "conformance" / "manifests.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({**document, "formatVersion": "2.0.0"}), encoding="utf-8")
    monkeypatch.setattr(corpus, "golden_dir", lambda: golden)
    with pytest.raises(corpus.CorpusError,
                       match="^" + re.escape(f"{path}: {MAJOR_2.format(name='conformance-manifests')}") + "$"):
        corpus.manifest_cases()


def test_the_drift_log_of_another_major_is_refused() -> None:
    log = drift.log_bytes({**drift.empty_log(), "formatVersion": "2.0.0"})
    with pytest.raises(VectorFileError,
                       match="^" + re.escape(f"golden/drift-log.json: {MAJOR_2.format(name='drift-log')}") + "$"):
        drift.read_log(log)
    assert drift.read_log(drift.log_bytes(drift.empty_log()))["formatVersion"] == formatversion.current("drift-log")


def test_the_golden_check_names_a_file_of_another_major() -> None:
    probes = json.loads((ROOT / "golden" / "probes.json").read_text(encoding="utf-8"))
    files = {"golden/probes.json": json.dumps({**probes, "formatVersion": "2.0.0"}).encode("utf-8")}
    checked, problems = validate_files(files, lambda p: (ROOT / p).read_bytes())
    assert checked == 1 and problems == [f"golden/probes.json: {MAJOR_2.format(name='probes')}"]


# -- the adapter protocol ---------------------------------------------------------------------------------

REQUEST = {"id": "x", "kind": "engine-compatibility", "constraint": ">=0.1.0", "engineVersion": "0.12.0"}


def test_the_kit_adapter_answers_its_protocol_major() -> None:
    for version in (PROTOCOL_VERSION, "1.42.0"):
        answer = adapter.answer(json.dumps({**REQUEST, "formatVersion": version}))
        assert answer["status"] == "ok" and answer["outcome"] == "satisfied"


@pytest.mark.parametrize(("version", "message"), [
    ("2.0.0", "request: formatVersion 2.0.0 is not one this kit reads: it reads adapter-protocol format 1.x "
              "(docs/versioning.md)"),
    (None, "request: no formatVersion (this kit reads adapter-protocol format 1.x)"),
])
def test_the_kit_adapter_refuses_another_protocol_major(version: str | None, message: str) -> None:
    request = REQUEST if version is None else {**REQUEST, "formatVersion": version}
    assert adapter.answer(json.dumps(request)) == {"id": "x", "status": "error", "message": message}


def test_a_parity_file_without_a_version_is_the_engines_format_and_another_major_is_refused() -> None:
    # the engine's parity file predates formatVersion: read as parity format 1.0.0; 2.x is refused as any file's
    assert formatversion.check("p.json", {"probes": []}, "parity") == "1.0.0"
    assert formatversion.check("p.json", {"formatVersion": "1.1.0"}, "parity") == "1.1.0"
    with pytest.raises(formatversion.FormatVersionError, match=r"it reads parity format 1\.x"):
        formatversion.check("p.json", {"formatVersion": "2.0.0"}, "parity")
    with pytest.raises(formatversion.FormatVersionError, match="no formatVersion"):
        formatversion.check("v.json", {"probes": []}, "probes")  # the exception is the parity file's alone
    with pytest.raises(formatversion.FormatVersionError, match=r"p\.json: not a JSON object"):
        formatversion.check("p.json", [1, 2], "parity")
