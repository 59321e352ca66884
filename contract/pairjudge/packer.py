"""The ``packer`` object of a pairjudge bundle (the reference's ``PackerConfig``) and its checks.

The 13 fields and their defaults are the reference's; :data:`PACKER_CHECKS` is its validation in
its order with its messages: the ``packer`` family of ``schema/pairjudge-check-table.json``, each
check bound to its test here by code. Where the reference fails with a raw Python error instead of a
designed message (a non-object packer, an unknown field, a template that ``str.format`` rejects),
the kit gives a message of its own naming the field. Like the reference, a missing field takes
its default; unlike it, the kit says so in a warning (saved bundles always carry all 13 fields).
"""

from __future__ import annotations

import math
import re
import string
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from contract.core.checktable import PAIRJUDGE_TABLE as TABLE
from contract.core.checktable import PASS, Entry, Fields
from contract.core.errors import ContractError

DEFAULTS: dict[str, Any] = {
    "max_length": 2048,
    "ratios": [0.2, 0.4, 0.4],
    "min_tail_budget": 80,
    "ellipsis": "......",
    "final_instruction": "\n\n---\nWhich response is better? [A or B or tie]\nAnswer: ",
    "round_header": "\n\n## Round {round}:",
    "first_round_header": "## Round {round}:",
    "prompt_prefix": "\n### Prompt:\n{text}",
    "response_a_prefix": "\n\n### Response A:\n{text}",
    "response_b_prefix": "\n\n### Response B:\n{text}",
    "add_bos": True,
    "add_eos": True,
    "packing_format": "balanced_v2",
}
FIELDS: tuple[str, ...] = tuple(DEFAULTS)
PACKING_FORMATS = ("balanced_v2", "competition_v1")
_BOOLEAN_FIELDS = ("add_bos", "add_eos")
_STRING_FIELDS = ("ellipsis", "final_instruction", "round_header", "first_round_header")
_PREFIX_FIELDS = ("prompt_prefix", "response_a_prefix", "response_b_prefix")
_HEADER_FIELDS = ("round_header", "first_round_header")
_SUM_TOLERANCE = 1e-9
Test = Callable[[Any], Fields | None]


@dataclass
class PackerSubject:
    """A packer value as found (any JSON), read with the reference's defaults for absent fields."""

    raw: Any
    warnings: list[str] = field(default_factory=list)

    def get(self, name: str) -> Any:
        if isinstance(self.raw, dict) and name in self.raw:
            return self.raw[name]
        return DEFAULTS[name]

    def filled(self) -> dict[str, Any]:
        """All 13 fields, defaults filled in: what the reference compares for override conflicts."""
        return {name: self.get(name) for name in FIELDS}


def json_kind(value: Any) -> str:
    """The JSON type name of a parsed value, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _as_sequence(value: Any) -> list[Any] | None:
    """What Python's ``len``/iteration sees in a JSON value (keys of an object, characters of a
    string), or None where ``len`` raises."""
    if isinstance(value, list | str):
        return list(value)
    if isinstance(value, dict):
        return list(value.keys())
    return None


def _as_float(value: Any) -> float | None:
    """Python ``float(value)``, or None where it raises (so ``"0.2"`` converts, as upstream)."""
    if not isinstance(value, str | int | float):
        return None
    try:
        return float(value)
    except (ValueError, OverflowError):
        return None


def _floats(subject: PackerSubject) -> list[float]:
    items = _as_sequence(subject.get("ratios")) or []
    return [f for f in (_as_float(x) for x in items) if f is not None]


def _ratio_sum(subject: PackerSubject) -> float:
    total = 0.0
    for value in _floats(subject):  # left to right, as Python 3.11's sum() adds floats
        total += value
    return total


# A standard format spec: [[fill]align][sign][z][#][0][width][grouping][.precision][type].
_SPEC = re.compile(
    r"(?P<head>(?:.?[<>=^])?[-+ ]?z?#?0?)(?P<width>[0-9]*)(?P<grouping>[,_]?)"
    r"(?:\.(?P<precision>[0-9]+))?(?P<type>.?)",
    re.DOTALL,
)
# A width (or a number's precision) makes Python build text that large. Up to this bound the
# reference builds it (observed: a width of 9,357,921); far beyond, it fails with MemoryError or
# "precision too big"; in between the outcome depends on the machine's memory, so the kit refuses
# rather than guess (docs/pairjudge.md, "deliberate refusals"). The kit never builds the text.
MAX_TEMPLATE_SIZE = 100_000_000


class TemplateTooLarge(ContractError, ValueError):
    """A template field whose width or precision the kit will not materialise."""


class _TemplateProbe(string.Formatter):
    """``str.format`` semantics, refusing fields that would build huge text (see MAX_TEMPLATE_SIZE)."""

    def format_field(self, value: Any, format_spec: str) -> Any:
        match = _SPEC.fullmatch(format_spec)
        if match is not None:
            width, precision = match.group("width"), match.group("precision")
            for label, digits in (("width", width), ("precision", precision)):
                if not digits or len(digits) > 19 or int(digits) <= 9999:
                    continue  # over 19 digits Python itself reports "Too many decimal digits"
                if int(digits) <= MAX_TEMPLATE_SIZE or (label == "precision" and isinstance(value, str)):
                    start, end = match.span(label)  # same outcome, without building the text
                    format_spec = format_spec[:start] + "9999" + format_spec[end:]
                    continue
                raise TemplateTooLarge(
                    TABLE.text("detail.template.tooLarge", label=label, size=int(digits), limit=MAX_TEMPLATE_SIZE)
                )
        return format(value, format_spec)


def template_problem(template: str, **arguments: Any) -> str | None:
    """Why ``template.format(**arguments)`` fails, or None when it succeeds."""
    try:
        _TemplateProbe().vformat(template, (), arguments)
    except KeyError as exc:
        if exc.args:
            return TABLE.text("detail.template.unknownPlaceholder", name=exc.args[0])
        return TABLE.text("detail.template.unknownPlaceholderUnnamed")
    except TemplateTooLarge as exc:
        return str(exc)
    except Exception as exc:  # any error str.format can raise on a hostile template
        return f"{type(exc).__name__}: {exc}"
    return None


def _not_object(s: PackerSubject) -> Fields | None:
    return PASS if isinstance(s.raw, dict) else {"kind": json_kind(s.raw)}


def _unknown_field(s: PackerSubject) -> Fields | None:
    unknown = [name for name in s.raw if name not in DEFAULTS]
    if unknown:
        return {"name": repr(unknown[0])}
    missing = [name for name in FIELDS if name not in s.raw]
    if missing:
        s.warnings.append(TABLE.text("warning.packer.defaults", missing=", ".join(missing)))
    return PASS


def _positive_max_length(s: PackerSubject) -> Fields | None:
    value = s.get("max_length")
    return PASS if _is_int(value) and value > 0 else {}


def _non_negative_tail(s: PackerSubject) -> Fields | None:
    value = s.get("min_tail_budget")
    return PASS if _is_int(value) and value >= 0 else {}


def _boolean(name: str) -> Test:
    return lambda s: PASS if isinstance(s.get(name), bool) else {}


def _string(name: str) -> Test:
    return lambda s: PASS if isinstance(s.get(name), str) else {}


def _ratios_sequence(s: PackerSubject) -> Fields | None:
    return PASS if _as_sequence(s.get("ratios")) is not None else {"kind": json_kind(s.get("ratios"))}


def _ratios_three(s: PackerSubject) -> Fields | None:
    items = _as_sequence(s.get("ratios")) or []
    if len(items) != 3:
        return {"count": len(items)}
    if not isinstance(s.get("ratios"), list):
        s.warnings.append(TABLE.text("warning.packer.ratiosIterated", kind=json_kind(s.get("ratios"))))
    return PASS


def _ratios_numeric(s: PackerSubject) -> Fields | None:
    items = _as_sequence(s.get("ratios")) or []
    if any(_as_float(x) is None for x in items):
        return {}
    if any(not _is_int(x) and not isinstance(x, float) for x in items):
        s.warnings.append(TABLE.text("warning.packer.ratiosConverted"))
    return PASS


def _ratios_finite(s: PackerSubject) -> Fields | None:
    return PASS if all(math.isfinite(x) and x >= 0 for x in _floats(s)) else {}


def _ratios_sum(s: PackerSubject) -> Fields | None:
    total = _ratio_sum(s)
    return PASS if 0.0 < total <= 1.0 + _SUM_TOLERANCE else {"total": repr(total)}


def _packing_format(s: PackerSubject) -> Fields | None:
    return PASS if s.get("packing_format") in PACKING_FORMATS else {}


def _balanced_positive(s: PackerSubject) -> Fields | None:
    if s.get("packing_format") == "balanced_v2" and any(x == 0 for x in _floats(s)):
        return {}
    return PASS


def _one_placeholder(name: str) -> Test:
    def test(s: PackerSubject) -> Fields | None:
        value = s.get(name)
        return PASS if isinstance(value, str) and value.count("{text}") == 1 else {}

    return test


def _formats(name: str, argument: str) -> Test:
    def test(s: PackerSubject) -> Fields | None:
        problem = template_problem(s.get(name), **{argument: "" if argument == "text" else 1})
        return PASS if problem is None else {"problem": problem}

    return test


TESTS: dict[str, Test] = {
    "packer.object": _not_object,
    "packer.fields": _unknown_field,
    "packer.max_length": _positive_max_length,
    "packer.min_tail_budget": _non_negative_tail,
    **{f"packer.{name}": _boolean(name) for name in _BOOLEAN_FIELDS},
    **{f"packer.{name}": _string(name) for name in _STRING_FIELDS},
    "packer.ratios.sequence": _ratios_sequence,
    "packer.ratios.length": _ratios_three,
    "packer.ratios.numeric": _ratios_numeric,
    "packer.ratios.finite": _ratios_finite,
    "packer.ratios.sum": _ratios_sum,
    "packer.packing_format": _packing_format,
    "packer.balanced_v2.ratios": _balanced_positive,
    **{f"packer.{name}.placeholder": _one_placeholder(name) for name in _PREFIX_FIELDS},
    **{f"packer.{name}.template": _formats(name, "text") for name in _PREFIX_FIELDS},
    **{f"packer.{name}.template": _formats(name, "round") for name in _HEADER_FIELDS},
}
"""The test of each check of the ``packer`` family, by code; order and messages are the table's."""

PACKER_CHECKS: tuple[Entry[PackerSubject], ...] = TABLE.checks("packer", TESTS, {})
