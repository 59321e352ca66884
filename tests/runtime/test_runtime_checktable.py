"""The check table (schema/check-table.json) is the one place codes, order and messages live.

Its schema is applied by ``python -m contract.golden check`` (tests/golden); here: codes are unique,
every kind has an interpreter, every code the kit names exists, no message text of the table is typed
in ``contract/**/*.py`` or ``js/src/*.js``, and every refused corpus case gets its code from the kit.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from contract.conformance import adapter
from contract.core.checktable import TableEntry, placeholders, table_document, table_family
from contract.core.refusal import refusal
from contract.model import compatibility, manifest

ROOT = Path(__file__).resolve().parents[2]
# Adapters that classify another implementation's texts may quote them.
ADAPTERS = {"contract/conformance/training_adapter.py"}


def _all_entries() -> Iterator[TableEntry]:
    def walk(entries: tuple[TableEntry, ...]) -> Iterator[TableEntry]:
        for entry in entries:
            if entry.each is not None:
                yield from walk(entry.checks)
            else:
                yield entry

    for family in table_document()["families"]:
        yield from walk(table_family(family))


def test_codes_are_unique_and_name_their_family() -> None:
    codes = [e.code for e in _all_entries()]
    assert len(codes) == len(set(codes))
    for family in table_document()["families"]:
        for entry in table_family(family):
            for code in [entry.code] if entry.each is None else [sub.code for sub in entry.checks]:
                assert code.split(".")[0] == family


def test_every_kind_of_the_manifest_and_compatibility_families_has_a_python_test() -> None:
    interpreted = set(manifest._KINDS) | {"compatibility"}
    for entry in _all_entries():
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


def _template_pattern(template: str) -> re.Pattern[str]:
    parts = re.split(r"\{[A-Za-z]+\}", template)
    return re.compile(".*".join(re.escape(part) for part in parts), re.DOTALL)


@pytest.mark.source
def test_no_message_of_the_table_is_typed_in_the_kit_or_the_js_implementation() -> None:
    # A template whose own words are this short ("{reason}", "{parent} is not a directory") says too little
    # to tell it from another message.
    patterns = {e.code: _template_pattern(e.message) for e in _all_entries()
                if len(re.sub(r"\{[A-Za-z]+\}", "", e.message)) >= 20}
    assert len(patterns) > 40  # the table's own texts, not an empty list that would pass anything
    texts = [(p.relative_to(ROOT).as_posix(), t) for p in sorted((ROOT / "contract").rglob("*.py"))
             if p.relative_to(ROOT).as_posix() not in ADAPTERS for t in _python_texts(p)]
    texts += [(p.relative_to(ROOT).as_posix(), t) for p in sorted((ROOT / "js" / "src").glob("*.js"))
              for t in _js_texts(p)]
    assert any("must be" in text for _, text in texts)  # the scan sees the sources' strings
    found = [(where, code, text) for where, text in texts for code, pattern in patterns.items()
             if pattern.fullmatch(text)]
    assert found == []


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


def test_every_refused_corpus_case_names_a_code_and_the_kit_gives_it() -> None:
    for case in _corpus("manifests.json"):
        request = {"id": case["id"], "kind": "manifest", "manifest": case["manifest"],
                   "engineVersion": case["engineVersion"], "expectedRole": case["expectedRole"]}
        got = adapter.answer(json.dumps(request))
        assert got["status"] == "ok", got
        if case["verdict"] == "refused":
            assert isinstance(case["code"], str)
        assert got.get("code") == case.get("code"), case["id"]
    for case in _corpus("engine-compatibility.json"):
        request = {"id": case["id"], "kind": "engine-compatibility", "constraint": case["constraint"],
                   "engineVersion": case["engineVersion"]}
        got = adapter.answer(json.dumps(request))
        assert got.get("code") == case.get("code"), case["id"]
