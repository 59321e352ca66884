"""The check tables (schema/check-table.json, schema/pairjudge-check-table.json) are the one place
codes, order and messages live.

Their schema is applied by ``python -m contract.golden check`` (tests/golden) and here; here also: codes
are unique, every kind has an interpreter, every code the kit names exists, no message text of either
table is typed in ``contract/**/*.py`` or ``js/src/*.js`` (no literal fragment of a template, and no
check or refusal built from a literal message), and every refused corpus case gets its code from the kit.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import pytest
from jsonschema import Draft202012Validator

from contract.conformance import adapter
from contract.conformance.protocol import PROTOCOL_VERSION
from contract.core import resources
from contract.core.checktable import (
    CONTRACT_TABLE,
    PAIRJUDGE_TABLE,
    Table,
    TableEntry,
    literal_parts,
    placeholders,
    table_document,
    table_family,
)
from contract.core.refusal import refusal
from contract.model import compatibility, manifest

ROOT = Path(__file__).resolve().parents[2]
# Adapters that classify another implementation's texts may quote them: the conformance adapters
# (contract/conformance/*adapter*: the kit's own answers with the table's texts, the training adapter
# classifies the training repository's texts). Nothing else is exempt.
ADAPTERS = {"contract/conformance/adapter.py", "contract/conformance/training_adapter.py"}
TABLES = (CONTRACT_TABLE, PAIRJUDGE_TABLE)


def _all_entries() -> Iterator[TableEntry]:
    for table in TABLES:
        yield from table.entries()


@pytest.mark.parametrize("table", TABLES, ids=lambda t: t.file)
def test_each_table_validates_against_the_one_table_schema(table: Table) -> None:
    schema = json.loads((resources.schema_dir() / "check-table.schema.json").read_text(encoding="utf-8"))
    errors = [e.message for e in Draft202012Validator(schema).iter_errors(table.document())]
    assert errors == []


@pytest.mark.parametrize("table", TABLES, ids=lambda t: t.file)
def test_codes_are_unique_within_each_table(table: Table) -> None:
    def walk(raw: list[dict[str, object]]) -> Iterator[str]:
        for entry in raw:
            if "each" in entry:
                yield from walk(entry["checks"])  # type: ignore[arg-type]
            elif "code" in entry:
                yield str(entry["code"])

    codes = [code for family in table.document()["families"].values() for code in walk(family["checks"])]
    assert len(codes) == len(set(codes)) == len(table.entries())


def test_codes_name_their_family() -> None:
    for family in table_document()["families"]:
        for entry in table_family(family):
            for code in [entry.code] if entry.each is None else [sub.code for sub in entry.checks]:
                assert code.split(".")[0] == family


def test_every_kind_of_the_manifest_and_compatibility_families_has_a_python_test() -> None:
    interpreted = set(manifest._KINDS) | {"compatibility"}
    for entry in CONTRACT_TABLE.entries():
        if entry.code.startswith("manifest."):
            assert entry.kind in interpreted, entry.code
        if entry.code.startswith("engineCompatibility."):
            assert entry.kind in compatibility.TESTS, entry.code
    assert len(manifest.checks()) == len(table_family("manifest"))


def test_a_field_pointer_uses_only_placeholders_its_message_has() -> None:
    for entry in _all_entries():
        if entry.field is not None and entry.message:
            assert set(placeholders(entry.field)) <= set(placeholders(entry.message)) | {"name"}, entry.code


HOLE = "\x00"  # where an f-string or a JS template literal interpolates a value


def _python_texts(path: Path) -> Iterator[str]:
    """Every string a module builds, f-strings whole (values as HOLE), docstrings left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                skip.add(id(first.value))
        if isinstance(node, ast.JoinedStr):
            skip |= {id(value) for value in node.values}
            yield "".join(v.value if isinstance(v, ast.Constant) else HOLE for v in node.values)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            yield node.value


JS_STRING = re.compile(r"""'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`""")


def _js_texts(path: Path) -> Iterator[str]:
    code = re.sub(r"^\s*(?://|\*|/\*\*).*$", "", path.read_text(encoding="utf-8"), flags=re.MULTILINE)
    for literal in JS_STRING.findall(code):
        yield re.sub(r"\$\{[^}]*\}", HOLE, literal[1:-1])


def _source_texts(root: Path = ROOT) -> list[tuple[str, str]]:
    """(file, string) for every string built in ``contract/**/*.py`` and ``js/src/*.js``, adapters left out."""
    texts = [(p.relative_to(root).as_posix(), t) for p in sorted((root / "contract").rglob("*.py"))
             if p.relative_to(root).as_posix() not in ADAPTERS for t in _python_texts(p)]
    texts += [(p.relative_to(root).as_posix(), t) for p in sorted((root / "js" / "src").glob("*.js"))
              for t in _js_texts(p)]
    return texts


# A literal fragment of a template shorter than this ("{name} is missing", "{parent} is not a directory")
# says too little to tell it from other text; longer ones are the contract's own words.
MIN_FRAGMENT = 20


def _fragments() -> dict[str, str]:
    """Every distinctive literal fragment of every template of both tables -> the code it belongs to."""
    return {part.strip(): entry.code for entry in _all_entries() for part in literal_parts(entry.message)
            if len(part.strip()) >= MIN_FRAGMENT}


def typed_fragments(root: Path = ROOT) -> list[tuple[str, str, str]]:
    """(file, code, fragment) for each template fragment that a source file types as a string."""
    fragments = _fragments()
    return sorted({(where, code, fragment) for where, text in _source_texts(root)
                   for fragment, code in fragments.items() if fragment in text})


@pytest.mark.source
def test_no_fragment_of_a_table_message_is_typed_in_the_kit_or_the_js_implementation() -> None:
    fragments = _fragments()
    # the tables' own words, not an empty list that would pass anything: both tables contribute
    contract_codes = {entry.code for entry in CONTRACT_TABLE.entries()}
    pairjudge_codes = {entry.code for entry in PAIRJUDGE_TABLE.entries()}
    assert len(set(fragments.values()) & contract_codes) > 40
    assert len(set(fragments.values()) & pairjudge_codes) > 40
    assert "ratios must contain finite, non-negative values" in fragments
    assert "features contain a non-finite value" in fragments
    texts = _source_texts()
    assert any("must be" in text for _, text in texts)  # the scan sees the sources' strings
    assert typed_fragments() == []


# Constructors whose message argument is a contract message: a literal there is a message typed in code.
MESSAGE_CALLS = {"Check": ("message", 2), "Refusal": ("message", 0), "Failure": ("message", 1),
                 "Verdict": ("message", 1)}


# Modules of the kit's own tooling, whose refusals are not contract messages (docs/architecture.md,
# "Contract messages"): vendoring the contract files into another repository.
TOOLING = {"contract/vendoring/vendored.py", "contract/vendoring/lock.py"}


def _literal(node: ast.expr) -> bool:
    """A string literal or f-string holding words of its own (``f"{path}: {message}"`` holds none)."""
    if isinstance(node, ast.JoinedStr):
        text = "".join(v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str))
    elif isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value
    else:
        return False
    return re.search(r"[A-Za-z]{2,}", text) is not None


def literal_messages(root: Path = ROOT) -> list[tuple[str, int, str]]:
    """(file, line, constructor) for each check, refusal or verdict built from a literal message."""
    found = []
    for path in sorted((root / "contract").rglob("*.py")):
        where = path.relative_to(root).as_posix()
        if where in ADAPTERS | TOOLING:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name | ast.Attribute):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else node.func.attr
            if name not in MESSAGE_CALLS:
                continue
            keyword, index = MESSAGE_CALLS[name]
            args = [k.value for k in node.keywords if k.arg == keyword]
            args += node.args[index:index + 1]
            if any(_literal(arg) for arg in args):
                found.append((where, node.lineno, name))
    return found


@pytest.mark.source
def test_no_check_refusal_or_verdict_is_built_from_a_literal_message() -> None:
    assert literal_messages() == []


@pytest.mark.source
def test_every_code_the_kit_names_is_in_the_table() -> None:
    codes = {e.code for e in _all_entries()}
    named: set[str] = set()
    for path in (ROOT / "contract").rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        named |= set(re.findall(r"""(?:refusal|StrictJsonError)\(\s*"([A-Za-z.]+)\"""", source))
        for check in re.findall(r"""refusal\(f"tensor\.\{kind\}\.([A-Za-z]+)\"""", source):
            named |= {f"tensor.input.{check}", f"tensor.output.{check}"}
    assert named, "the scan found no code at all"
    assert named <= codes, named - codes


@pytest.mark.parametrize(("code", "fields", "message", "pointer"), [
    ("manifest.entry.notScalar", {"name": "provenance", "key": "a/b"},
     "field 'provenance.a/b' must be a string, number or boolean", "/provenance/a~1b"),
    ("manifest.featureCount.mismatch", {"value": 27, "schema": "kcp-13", "width": 13},
     "featureCount 27 does not match featureSchema 'kcp-13' (13 columns)", "/featureCount"),
    ("json.syntax", {"detail": "Expecting value at line 1 column 1"},
     "not valid JSON: Expecting value at line 1 column 1", None),
])
def test_a_refusal_renders_the_template_and_the_pointer(code: str, fields: dict[str, object], message: str,
                                                        pointer: str | None) -> None:
    # Expected texts from spec/contract.md §4.1 and RFC 6901 (``/`` in a key is ``~1``).
    made = refusal(code, **fields)
    assert (made.message, made.code, made.field) == (message, code, pointer)


def _corpus(name: str) -> list[dict[str, object]]:
    cases: list[dict[str, object]] = json.loads((ROOT / "golden" / "conformance" / name).read_text("utf-8"))["cases"]
    return cases


LONG: Final = 10_000  # characters: the cases written to exhaust a parser (150,000 comparators) take seconds


def _requests(long: bool) -> Iterator[tuple[dict[str, object], dict[str, object]]]:
    """(case, adapter request) of every manifest and engineCompatibility case, the long ones or the others."""
    for case in _corpus("manifests.json"):
        if (len(json.dumps(case)) > LONG) is long:
            yield case, {"formatVersion": PROTOCOL_VERSION, "id": case["id"], "kind": "manifest", "manifest": case["manifest"],
                         "engineVersion": case["engineVersion"], "expectedRole": case["expectedRole"]}
    for case in _corpus("engine-compatibility.json"):
        if (len(json.dumps(case)) > LONG) is long:
            yield case, {"formatVersion": PROTOCOL_VERSION, "id": case["id"], "kind": "engine-compatibility",
                         "constraint": case["constraint"],
                         "engineVersion": case["engineVersion"]}


def _assert_codes(long: bool) -> int:
    seen = 0
    for case, request in _requests(long):
        got = adapter.answer(json.dumps(request))
        assert got["status"] == "ok", got
        if request["kind"] == "manifest" and case["verdict"] == "refused":
            assert isinstance(case["code"], str)
        assert got.get("code") == case.get("code"), case["id"]
        seen += 1
    return seen


def test_every_refused_corpus_case_names_a_code_and_the_kit_gives_it() -> None:
    assert _assert_codes(long=False) > 0


@pytest.mark.slow
def test_the_long_corpus_cases_get_their_codes_too() -> None:
    assert _assert_codes(long=True) > 0


@pytest.mark.parametrize(("table", "code", "fields", "message"), [
    # Expected texts quoted from spec/pairjudge.md (§3, §4, §5, §7) and spec/contract.md §5 (kcp13.predict).
    (PAIRJUDGE_TABLE, "packer.prompt_prefix.placeholder", {},
     "prompt_prefix must contain exactly one {text} placeholder"),
    (PAIRJUDGE_TABLE, "packer.ratios.sum", {"total": "1.5"}, "ratios must sum to <= 1.0 and be > 0.0, got 1.5"),
    (PAIRJUDGE_TABLE, "files.digest", {"key": "config.json"}, "artifact file hash mismatch: config.json"),
    (PAIRJUDGE_TABLE, "detail.overhead.cannotFit", {"maxLength": 8, "tokens": 12},
     "max_length=8 cannot even fit the fixed overhead (special tokens + final instruction = 12 tokens)"),
    (PAIRJUDGE_TABLE, "weights.complete",
     {"detail": "{'missing_keys': {'score.weight'}, 'unexpected_keys': set()}"},
     "incomplete trained weights: {'missing_keys': {'score.weight'}, 'unexpected_keys': set()}"),
    (PAIRJUDGE_TABLE, "detail.template.unknownPlaceholder", {"name": "other"}, "unknown placeholder {other}"),
    (PAIRJUDGE_TABLE, "arguments.legacy", {}, "legacy loading requires explicit packer_config and label_order"),
    (CONTRACT_TABLE, "scoring.features.shape", {"width": 13, "shape": [2, 12]}, "features must be [n,13], got [2, 12]"),
])
def test_a_text_of_either_table_renders_the_specified_message(table: Table, code: str, fields: dict[str, object],
                                                             message: str) -> None:
    assert table.text(code, **fields) == message


def test_a_table_binds_every_check_to_a_test_and_every_test_to_a_check() -> None:
    tests = {entry.code: (lambda _: None) for entry in PAIRJUDGE_TABLE.family("override")}
    assert [c.code for c in PAIRJUDGE_TABLE.checks("override", tests, {})] == list(tests)  # type: ignore[union-attr]
    with pytest.raises(KeyError, match=r"no test for the check 'override\.packer'"):
        PAIRJUDGE_TABLE.checks("override", {"override.label_order": lambda _: None}, {})
    with pytest.raises(KeyError, match=r"has no check 'override\.other'"):
        PAIRJUDGE_TABLE.checks("override", {**tests, "override.other": lambda _: None}, {})
