"""The Node implementation (js/): it must agree with the kit on every engine-compatibility and manifest
case, ajv must read the schemas as Python ``jsonschema`` does, node-semver must agree on every valid
constraint, and a broken schema or a stale parser must fail loudly, naming the case.

These tests need ``node`` and ``npm ci`` in js/. Without them they are skipped with the reason, except
when ``DICECHESS_REQUIRE_JS=1`` (set by ``tox -e conformance-js``), where a missing toolchain fails.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from contract.conformance.corpus import load_cases
from contract.conformance.divergences import load
from contract.conformance.report import as_text
from contract.conformance.runner import LIVE, Implementation, resolve, run
from contract.core import formatversion, strictjson
from contract.core.resources import data_root

ROOT = data_root()
JS = ROOT / "js"
NODE = shutil.which("node")
READY = NODE is not None and (JS / "node_modules" / "ajv").is_dir() and (JS / "node_modules" / "semver").is_dir()
if not READY:
    if os.environ.get("DICECHESS_REQUIRE_JS") == "1":
        raise RuntimeError("DICECHESS_REQUIRE_JS=1 but node or js/node_modules is missing (run `npm ci` in js/)")
    pytest.skip("node and `npm ci` in js/ are needed (tox -e conformance-js runs them)", allow_module_level=True)

KINDS = ["engine-compatibility", "manifest"]


def test_js_agrees_with_every_engine_compatibility_and_manifest_case() -> None:
    outcome = run([resolve("js")], load_cases(KINDS), KINDS, load())
    assert outcome.ok, as_text(outcome)
    assert all(r.status == "agree" for r in outcome.results), as_text(outcome)


def test_node_semver_agrees_on_every_valid_constraint() -> None:
    done = subprocess.run(["node", str(JS / "test" / "differential.js")], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 disagreement(s)" in done.stdout
    compared = int(done.stdout.split("differential: ")[1].split(" valid")[0])
    assert compared >= 40


_AJV = """
const Ajv2020 = require("ajv/dist/2020");
const fs = require("fs");
const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
const schemas = {};
for (const v of ["1.0.0", "1.1.0"]) schemas[v] = ajv.compile(JSON.parse(fs.readFileSync(`schema/manifest-${v}.schema.json`, "utf8")));
const docs = JSON.parse(fs.readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(docs.map(([v, d]) => schemas[v](d))));
"""


def test_ajv_and_python_jsonschema_read_the_manifest_schemas_alike() -> None:
    validators = {v: Draft202012Validator(json.loads((ROOT / "schema" / f"manifest-{v}.schema.json").read_text()))
                  for v in ("1.0.0", "1.1.0")}
    documents = []
    for case in load_cases(["manifest"]):
        try:
            document = strictjson.parse(case.request["manifest"])
        except strictjson.StrictJsonError:
            continue
        if isinstance(document, dict) and document.get("manifestVersion") in validators:
            documents.append((document["manifestVersion"], document))
    # strings a regex dialect reads differently: Python's \\d and $ versus JavaScript's
    for tricky in ("\u0663" * 64, "a" * 64 + "\n", "\uff10" * 64):
        documents.append(("1.1.0", {**documents[0][1], "modelSha256": tricky}))
    for tricky in (">=\u0663.0.0", ">=0.12.0\n", ">=0.12.0\u00a0<1.0.0", "\u00a0"):
        documents.append(("1.1.0", {**documents[0][1], "engineCompatibility": tricky}))
    assert len(documents) > 80
    done = subprocess.run(["node", "-e", _AJV], input=json.dumps(documents), capture_output=True, text=True,
                          cwd=ROOT, env={**os.environ, "NODE_PATH": str(JS / "node_modules")}, check=True)
    ajv = json.loads(done.stdout)
    python = [validators[v].is_valid(d) for v, d in documents]
    differing = [(d, a, p) for d, a, p in zip(documents, ajv, python, strict=True) if a != p]
    assert not differing, differing


def _copy_js_tree(tmp: Path) -> Path:
    """A copy of what the Node implementation reads: schema/, grammar/, js/src, js/generated."""
    for name in ("schema", "grammar"):
        shutil.copytree(ROOT / name, tmp / name)
    (tmp / "js").mkdir()
    for name in ("src", "generated"):
        shutil.copytree(JS / name, tmp / "js" / name)
    (tmp / "js" / "node_modules").symlink_to(JS / "node_modules")
    return tmp


def test_a_broken_schema_pattern_fails_the_run_naming_the_case(tmp_path: Path) -> None:
    tree = _copy_js_tree(tmp_path)
    schema = tree / "schema" / "manifest-1.1.0.schema.json"
    text = schema.read_text(encoding="utf-8")
    broken = text.replace('"pattern": "^[0-9a-fA-F]{64}$"', '"pattern": "^[0-9a-f]{64}$"')
    assert broken != text, "the modelSha256 pattern changed: update this test"
    schema.write_text(broken, encoding="utf-8")
    impl = Implementation("js-broken", LIVE, ("node", str(tree / "js" / "src" / "adapter.js")))
    outcome = run([impl], load_cases(["manifest"]), ["manifest"], load())
    # The pattern the checks apply is manifest-fields.json's; the generated schema drifted from it, so the
    # cross-check answers with an error naming both (never a silently different verdict).
    failing = {r.case.id for r in [*outcome.unlisted, *outcome.errors]}
    assert not outcome.ok
    assert "manifest/sha-uppercase" in failing
    assert "manifest/sha-uppercase" in as_text(outcome)


def test_a_schema_that_drifts_from_the_checks_is_an_error_not_a_verdict(tmp_path: Path) -> None:
    tree = _copy_js_tree(tmp_path)
    schema = tree / "schema" / "manifest-1.1.0.schema.json"
    document = json.loads(schema.read_text(encoding="utf-8"))
    document["properties"]["provenance"]["anyOf"][0]["maxProperties"] = 0  # no check reads this keyword
    schema.write_text(json.dumps(document), encoding="utf-8")
    impl = Implementation("js-drift", LIVE, ("node", str(tree / "js" / "src" / "adapter.js")))
    cases = [c for c in load_cases(["manifest"]) if c.id == "manifest/accepted-current"]
    result = run([impl], cases, ["manifest"], load()).results[0]
    assert result.got["status"] == "error"
    assert "schema and ordered checks disagree" in result.got["message"]


def test_a_parser_generated_from_another_grammar_is_refused(tmp_path: Path) -> None:
    tree = _copy_js_tree(tmp_path)
    grammar = tree / "grammar" / "engine_compatibility.lark"
    grammar.write_text(grammar.read_text(encoding="utf-8") + "\n// edited\n", encoding="utf-8")
    impl = Implementation("js-stale", LIVE, ("node", str(tree / "js" / "src" / "adapter.js")))
    results = run([impl], load_cases(["engine-compatibility"])[:2], ["engine-compatibility"], load()).results
    assert all(r.got["status"] == "error" and "tox -e js-parser" in r.got["message"] for r in results)


# -- versions (docs/versioning.md) ------------------------------------------------------------------------

def _node(script: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(["node", "-e", script], input=stdin, capture_output=True, text=True, cwd=cwd, check=False)


def test_js_reads_the_majors_the_kit_writes() -> None:
    done = _node('process.stdout.write(JSON.stringify(require("./js/src/data").FORMAT_MAJORS))', ROOT)
    majors = json.loads(done.stdout)
    assert majors and all(major == formatversion.major(formatversion.current(name)) for name, major in majors.items())


def test_js_refuses_a_contract_file_of_another_major(tmp_path: Path) -> None:
    tree = _copy_js_tree(tmp_path)
    table = tree / "schema" / "check-table.json"
    table.write_text(json.dumps({**json.loads(table.read_text(encoding="utf-8")), "formatVersion": "2.0.0"}),
                     encoding="utf-8")
    done = _node('require("./js/src/checktable").checkTable()', tree)
    assert done.returncode != 0
    assert ("schema/check-table.json: formatVersion 2.0.0 is not one this package reads: it reads check-table "
            "format 1.x (docs/versioning.md)") in done.stderr


def test_the_js_adapter_refuses_a_request_of_another_protocol_major() -> None:
    request = {"id": "x", "kind": "engine-compatibility", "constraint": ">=0.1.0", "engineVersion": "0.12.0"}
    lines = "".join(json.dumps({**request, **extra}) + "\n" for extra in
                    ({"formatVersion": "2.0.0"}, {}, {"formatVersion": "1.3.0"}))
    done = subprocess.run(["node", str(JS / "src" / "adapter.js")], input=lines, capture_output=True, text=True,
                          check=True)
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert answers[0] == {"id": "x", "status": "error", "message": "request: formatVersion 2.0.0 is not one this "
                          "package reads: it reads adapter-protocol format 1.x (docs/versioning.md)"}
    assert answers[1]["status"] == "error" and "no formatVersion" in answers[1]["message"]
    assert answers[2]["status"] == "ok" and answers[2]["outcome"] == "satisfied"
