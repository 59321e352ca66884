"""The check-table engine (contract/core/checktable.py) binding a table at test time: a small table
of its own (families given as entries, not a file) with a ``within`` family holding an ``each``
group and an ``each`` group holding a ``within``: every way the engine nests is bound and run here.
The expected codes, order, messages and pointers are written out by hand from the table below."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pytest

from contract.core.checktable import (
    Check,
    Failure,
    ForEach,
    Table,
    TableEntry,
    Within,
    codes,
    first_failure,
    literal_parts,
    placeholders,
    render_pointer,
    table_check,
)


def _check(code: str, message: str, field: str | None = None) -> TableEntry:
    return TableEntry(code=code, kind="k", message=message, field=field)


def _each(part: str, *checks: TableEntry) -> TableEntry:
    return TableEntry(code="", kind="each", message="", each=part, checks=checks)


def _within(part: str, family: str) -> TableEntry:
    return TableEntry(code="", kind="within", message="", within=part, family=family)


FAMILIES: dict[str, tuple[TableEntry, ...]] = {
    "outer": (
        _check("outer.first", "first {a} {{literal}}", "/{a}"),
        _within("part", "inner"),
        _each("item", _check("outer.item", "item {n}", "/items/{n}"), _within("sub", "leaf")),
        _check("outer.last", "last"),
    ),
    "inner": (_check("inner.one", "inner {x}"), _each("innerItem", _check("inner.item", "inner item {i}"))),
    "leaf": (_check("leaf.check", "leaf {v}", "/leaf"),),
}


class _OwnTable(Table):
    """The engine's binding with the families above in place of a file's."""

    def family(self, name: str) -> tuple[TableEntry, ...]:
        return FAMILIES[name]


Test = Callable[[Any], Mapping[str, object] | None]
TESTS: dict[str, Test] = {
    "outer.first": lambda s: s["first"],
    "inner.one": lambda s: s["one"],
    "inner.item": lambda s: s,
    "outer.item": lambda s: s["item"],
    "leaf.check": lambda s: s["leaf"],
    "outer.last": lambda s: s["last"],
}
PARTS: dict[str, Callable[[Any], Any]] = {
    "part": lambda s: s["part"],
    "innerItem": lambda s: s["items"],
    "item": lambda s: s["items"],
    "sub": lambda s: s["sub"],
}


def _subject(**fail: Any) -> dict[str, Any]:
    """A subject every check passes, with the failures named in ``fail`` put in place."""
    return {
        "first": fail.get("first"),
        "part": {"one": fail.get("one"), "items": [None, fail.get("innerItem")]},
        "items": [{"item": None, "sub": {"leaf": None}},
                  {"item": fail.get("item"), "sub": {"leaf": fail.get("leaf")}}],
        "last": fail.get("last"),
    }


@pytest.fixture
def table() -> Table:
    return _OwnTable("engine-test")


def test_engine_binds_nested_groups_in_table_order(table: Table) -> None:
    built = table.checks("outer", TESTS, PARTS)
    assert codes(built) == ["outer.first", "inner.one", "inner.item", "outer.item", "leaf.check", "outer.last"]
    assert [type(e) for e in built] == [Check, Within, ForEach, Check]
    within, each = built[1], built[2]
    assert isinstance(within, Within) and isinstance(each, ForEach)
    assert [type(e) for e in within.checks] == [Check, ForEach]
    assert [type(e) for e in each.checks] == [Check, Within]
    assert built[0] == Check("outer.first", TESTS["outer.first"], "first {a} {{literal}}", "/{a}")
    assert built[3] == Check("outer.last", TESTS["outer.last"], "last", None)
    assert first_failure(built, _subject()) is None


@pytest.mark.parametrize(
    ("fail", "expected"),
    [
        ({"first": {"a": "x/y~z"}}, Failure("outer.first", "first x/y~z {literal}", "/x~1y~0z")),
        ({"one": {"x": 3}}, Failure("inner.one", "inner 3", None)),
        ({"innerItem": {"i": "b"}}, Failure("inner.item", "inner item b", None)),
        ({"item": {"n": 1}}, Failure("outer.item", "item 1", "/items/1")),
        ({"leaf": {"v": "deep"}}, Failure("leaf.check", "leaf deep", "/leaf")),
        ({"last": {}}, Failure("outer.last", "last", None)),
        ({"leaf": {"v": 1}, "last": {}}, Failure("leaf.check", "leaf 1", "/leaf")),
        ({"one": {"x": 1}, "item": {"n": 2}}, Failure("inner.one", "inner 1", None)),
    ],
)
def test_engine_runs_nested_groups_first_failure_wins(table: Table, fail: dict[str, Any], expected: Failure) -> None:
    assert first_failure(table.checks("outer", TESTS, PARTS), _subject(**fail)) == expected


def test_engine_binds_a_family_without_groups(table: Table) -> None:
    built = table.checks("leaf", {"leaf.check": TESTS["leaf.check"]}, {})
    assert built == (Check("leaf.check", TESTS["leaf.check"], "leaf {v}", "/leaf"),)


def test_engine_refuses_a_test_the_family_does_not_state(table: Table) -> None:
    with pytest.raises(KeyError) as raised:
        table.checks("leaf", {"leaf.check": TESTS["leaf.check"], "leaf.other": TESTS["leaf.check"]}, {})
    assert raised.value.args == (f"{table.file} family 'leaf' has no check 'leaf.other'",)


def test_engine_refuses_a_check_without_a_test(table: Table) -> None:
    tests = {k: v for k, v in TESTS.items() if k != "leaf.check"}
    with pytest.raises(KeyError) as raised:
        table.checks("outer", tests, PARTS)
    assert raised.value.args == (f"{table.file}: no test for the check 'leaf.check'",)


def test_table_check_keeps_code_message_and_field() -> None:
    def test(subject: object) -> None:
        return None

    entry = TableEntry(code="demo.code", kind="k", message="demo {x}", field="/demo/{x}")
    assert table_check(entry, test) == Check("demo.code", test, "demo {x}", "/demo/{x}")
    plain = TableEntry(code="demo.plain", kind="k", message="plain")
    assert table_check(plain, test) == Check("demo.plain", test, "plain", None)


@pytest.mark.parametrize(
    ("template", "parts"),
    [
        ("no placeholder", ["no placeholder"]),
        ("{a}", ["", ""]),
        ("ab{x}", ["ab", ""]),
        ("{x}cd", ["", "cd"]),
        ("a{x}b{y}c", ["a", "b", "c"]),
        ("{{", ["{"]),
        ("x{{y}}z", ["x{y}z"]),
        ("a}}{x}{{b", ["a}", "{b"]),
        ("unknown placeholder {{{name}}}", ["unknown placeholder {", "}"]),
        ("p {a} q {{lit}} r {b} s", ["p ", " q {lit} r ", " s"]),
    ],
)
def test_literal_parts(template: str, parts: list[str]) -> None:
    assert literal_parts(template) == parts


@pytest.mark.parametrize(
    ("template", "names"),
    [("{{x}} {a}", ["a"]), ("{a}{{b}}{c}", ["a", "c"]), ("{{}}", []), ("unknown placeholder {{{name}}}", ["name"])],
)
def test_placeholders_skip_escaped_braces(template: str, names: list[str]) -> None:
    assert placeholders(template) == names


@pytest.mark.parametrize(
    ("value", "pointer"),
    [("a~b/c", "/a~0b~1c"), ("~1", "/~01"), ("/~", "/~1~0"), ("plain", "/plain")],
)
def test_render_pointer_escapes_as_rfc_6901(value: str, pointer: str) -> None:
    assert render_pointer("/{key}", {"key": value}) == pointer


def test_require_codes_passes_a_family_that_states_every_implemented_check_and_names_the_first_missing() -> None:
    from contract.core.checktable import PAIRJUDGE_TABLE, require_codes
    from contract.core.errors import CheckTableError

    require_codes(PAIRJUDGE_TABLE, "manifest", ["manifest.present", "files.digest"])  # both in the family
    with pytest.raises(CheckTableError) as caught:
        require_codes(PAIRJUDGE_TABLE, "manifest", ["manifest.present", "manifest.gone", "files.gone"])
    message = ("schema/pairjudge-check-table.json: the manifest family lacks the check 'manifest.gone' (2 missing): "
               "the table is edited or stale, and nothing is served without it")
    assert (str(caught.value), caught.value.message, caught.value.args) == (message, message, (message,))
