"""Which JSON Schema describes which corpus file, and validation of the corpus against them.

:data:`CORPUS_SCHEMAS` is the one table: a glob over repository paths -> the schema file (under
``schema/``) that describes every file it matches. Manifests name their schema through their
``manifestVersion``. :data:`TABLE_SCHEMAS` does the same for tab-separated files, read into rows first
(:mod:`contract.core.probetable`). A file that is not valid JSON (or not a table), or names no known
manifest version, or breaks its schema is reported with the file, the JSON path and the schema's
complaint; a file whose ``formatVersion`` is not one the kit reads (:mod:`contract.core.formatversion`)
is reported as that, before its schema is applied. Nothing is skipped silently.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from contract.core import formatversion, probetable
from contract.core.strictjson import StrictJsonError
from contract.core.strictjson import parse as parse_json
from contract.golden.corpus import read_file

MANIFEST_SCHEMA = "manifest-{version}"
REGISTRY = "schema/feature-schemas.json"
# The hand-written data files under schema/ (not generated, not under golden/), each with its schema.
SCHEMA_DATA: tuple[str, ...] = (REGISTRY, "schema/engine-rules.json", "schema/check-table.json",
                                 "schema/pairjudge-check-table.json", "schema/manifest-fields.json")
# glob over repo-relative paths -> schema name (schema/<name>.schema.json); first match wins.
CORPUS_SCHEMAS: tuple[tuple[str, str], ...] = (
    ("golden/probes.json", "probes"),
    ("golden/drift-log.json", "drift-log"),
    ("golden/vectors/*.json", "golden-vectors"),
    ("golden/recorded/*.engine-*.json", "golden-vectors"),
    ("golden/fixtures/*_parity.json", "parity"),
    ("golden/fixtures/*_manifest.json", MANIFEST_SCHEMA),
    ("golden/example-package/manifest.json", MANIFEST_SCHEMA),
    ("golden/recorded/manifests/*_manifest.json", MANIFEST_SCHEMA),
    ("golden/recorded/manifests/*_parity.json", "parity"),
    ("golden/conformance/engine-compatibility.json", "conformance-engine-compatibility"),
    ("golden/conformance/manifests.json", "conformance-manifests"),
    ("golden/conformance/tensor-contract.json", "conformance-tensor-contract"),
    ("golden/divergences.json", "conformance-divergences"),
    (REGISTRY, "feature-schemas"),
    ("schema/engine-rules.json", "engine-rules"),
    ("schema/check-table.json", "check-table"),
    ("schema/pairjudge-check-table.json", "check-table"),
    ("schema/manifest-fields.json", "manifest-fields"),
)


# Tab-separated corpus files: path -> schema name; the file is read into rows (contract.core.probetable).
TABLE_SCHEMAS: tuple[tuple[str, str], ...] = (
    ("golden/probes.tsv", "probes-tsv"),
)


def schema_name(path: str, doc: Any) -> str | None:
    """The schema for ``path`` (``None``: not a corpus file described here)."""
    for pattern, name in CORPUS_SCHEMAS:
        if fnmatch.fnmatchcase(path, pattern):
            if name == MANIFEST_SCHEMA:
                version = doc.get("manifestVersion") if isinstance(doc, dict) else None
                return MANIFEST_SCHEMA.format(version=version)
            return name
    return None


def schema_path(name: str) -> str:
    return f"schema/{name}.schema.json"


@cache
def _validator(schema_text: bytes) -> Draft202012Validator:
    schema = parse_json(schema_text, max_bytes=64 * 1024 * 1024)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def _version_problem(path: str, doc: Any, name: str) -> str | None:
    """Why a versioned file's ``formatVersion`` is not one the kit reads (recorded files need none)."""
    if name not in formatversion.VERSIONS:
        return None
    if path.startswith("golden/recorded/") and not (isinstance(doc, dict) and formatversion.FIELD in doc):
        return None  # another implementation's recording, in its own format
    return formatversion.problem(doc, name)


def validate_files(files: Mapping[str, bytes],
                   load_schema: Callable[[str], bytes | None]) -> tuple[int, list[str]]:
    """How many corpus files in ``files`` were validated, and the problems found (empty when all conform)."""
    checked = 0
    problems: list[str] = []
    for path, data in files.items():
        table = next((name for pattern, name in TABLE_SCHEMAS if fnmatch.fnmatchcase(path, pattern)), None)
        if table is not None:
            try:
                doc: Any = probetable.read(data)
            except probetable.ProbeTableError as exc:
                problems.append(f"{path}: {exc}")
                continue
            name: str | None = table
        elif not path.endswith(".json") or not (path.startswith("golden/") or path in SCHEMA_DATA):
            continue
        else:
            try:
                doc = parse_json(data, max_bytes=64 * 1024 * 1024)
            except StrictJsonError as exc:
                problems.append(f"{path}: {exc}")
                continue
            name = schema_name(path, doc)
        if name is None:
            continue
        checked += 1
        version = _version_problem(path, doc, name)
        if version is not None:  # said plainly, before the schema's pattern says it less clearly
            problems.append(f"{path}: {version}")
            continue
        schema_text = load_schema(schema_path(name))
        if schema_text is None:
            problems.append(f"{path}: its schema {schema_path(name)} does not exist")
            continue
        for error in sorted(_validator(schema_text).iter_errors(doc), key=lambda e: list(e.absolute_path)):
            where = "/".join(str(p) for p in error.absolute_path) or "(top level)"
            problems.append(f"{path}: {where}: {error.message[:300]} ({schema_path(name)})")
    return checked, problems


def corpus_files(root: Path, generated: Mapping[str, bytes]) -> dict[str, bytes]:
    """Every corpus file: the regenerated ones, plus committed ones no generator writes (recorded, log)."""
    files = dict(generated)
    for data in SCHEMA_DATA:
        if data not in files and (root / data).is_file():
            files[data] = read_file(root / data, data)
    for path in sorted((root / "golden").rglob("*.json")):
        relative = path.relative_to(root).as_posix()
        if relative not in files and schema_name(relative, None) is not None:
            files[relative] = read_file(path, relative)
    return files
