"""The check engine reading a table file (contract/core/checktable.py): every entry of both files under
``schema/`` as the engine builds it, compared with the file's own JSON read here with ``json`` (the
table-file format of schema/check-table.schema.json: a check states code, kind, message and optionally
field, of, appliesTo; an ``each`` group states the part and its checks; a ``within`` entry the part and the
family), and the refusal of a code no family states."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from contract.core.checktable import CONTRACT_TABLE, PAIRJUDGE_TABLE, Table, TableEntry, table_entry, table_family
from contract.core.resources import schema_dir

TABLES = [CONTRACT_TABLE, PAIRJUDGE_TABLE]


def _raw(table: Table) -> dict[str, Any]:
    document: dict[str, Any] = json.loads((schema_dir() / table.file).read_text(encoding="utf-8"))
    return document


def _expected(raw: dict[str, Any]) -> tuple[Any, ...]:
    """What an entry states, as the table-file format defines it (absent message: none, i.e. empty)."""
    if "each" in raw:
        return ("", "each", "", raw["each"], None, None, tuple(_expected(sub) for sub in raw["checks"]))
    if "within" in raw:
        return ("", "within", "", None, raw["within"], raw["family"], ())
    applies = raw.get("appliesTo")
    return (raw["code"], raw["kind"], raw.get("message", ""), raw.get("field"), raw.get("of"),
            None if applies is None else tuple(applies))


def _built(entry: TableEntry) -> tuple[Any, ...]:
    if entry.kind == "each":
        return (entry.code, entry.kind, entry.message, entry.each, entry.within, entry.family,
                tuple(_built(sub) for sub in entry.checks))
    if entry.kind == "within":
        return (entry.code, entry.kind, entry.message, entry.each, entry.within, entry.family, entry.checks)
    return (entry.code, entry.kind, entry.message, entry.field, entry.of, entry.applies_to)


@pytest.mark.parametrize("table", TABLES, ids=lambda t: t.file)
def test_every_family_is_built_entry_by_entry_as_the_file_states_it(table: Table) -> None:
    raw = _raw(table)
    assert table.document() == raw
    for name, family in raw["families"].items():
        assert [_built(e) for e in table.family(name)] == [_expected(e) for e in family["checks"]], name
        assert [e.data for e in table.family(name)] == family["checks"]


def _checks(entries: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for raw in entries:
        if "each" in raw:
            yield from _checks(raw["checks"])
        elif "within" not in raw:
            yield raw


@pytest.mark.parametrize("table", TABLES, ids=lambda t: t.file)
def test_entries_are_every_check_in_file_order_groups_flattened(table: Table) -> None:
    raw = [e for family in _raw(table)["families"].values() for e in _checks(family["checks"])]
    assert [_built(e) for e in table.entries()] == [_expected(e) for e in raw]
    for entry in raw:
        assert _built(table.entry(entry["code"])) == _expected(entry)


def test_a_check_without_a_message_has_the_empty_message() -> None:
    # schema/check-table.json's engineCompatibility entry runs a family and states no message of its own
    entry = table_entry("manifest.engineCompatibility")
    assert "message" not in entry.data
    assert (entry.message, entry.kind, entry.of, entry.field) == ("", "compatibility", "engineCompatibility",
                                                                  "/engineCompatibility")


def test_the_groups_of_the_pairjudge_manifest_family_are_built_with_their_parts() -> None:
    family = PAIRJUDGE_TABLE.family("manifest")
    within = [e for e in family if e.kind == "within"]
    each = [e for e in family if e.kind == "each"]
    assert [(e.code, e.message, e.within, e.family, e.each) for e in within] == [("", "", "packer", "packer", None)]
    assert [(e.code, e.message, e.each, e.within) for e in each] == [("", "", "file", None)]
    assert [c.code for c in each[0].checks] == ["files.path", "files.budget", "files.digest"]


@pytest.mark.parametrize("table", TABLES, ids=lambda t: t.file)
@pytest.mark.parametrize("code", ["no.such", "", "manifest"])
def test_a_code_no_family_states_is_refused_naming_the_file_and_the_code(table: Table, code: str) -> None:
    with pytest.raises(KeyError) as raised:
        table.entry(code)
    assert raised.value.args == (f"{table.file} states no check {code!r}",)
    with pytest.raises(KeyError) as raised:
        table.text(code, name="x")
    assert raised.value.args == (f"{table.file} states no check {code!r}",)


def test_the_module_level_readers_read_schema_check_table_json() -> None:
    with pytest.raises(KeyError) as raised:
        table_entry("detail.json.syntax")  # a pairjudge code: not in check-table.json
    assert raised.value.args == ("check-table.json states no check 'detail.json.syntax'",)
    assert table_family("manifest") == CONTRACT_TABLE.family("manifest")
    assert PAIRJUDGE_TABLE.text("detail.json.syntax", name="a", problem="b", line=1, column=2) == \
        _raw(PAIRJUDGE_TABLE)["families"]["details"]["checks"][
            [e.get("code") for e in _raw(PAIRJUDGE_TABLE)["families"]["details"]["checks"]].index("detail.json.syntax")
        ]["message"].replace("{name}", "a").replace("{problem}", "b").replace("{line}", "1").replace("{column}", "2")
