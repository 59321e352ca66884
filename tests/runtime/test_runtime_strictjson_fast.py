"""``strictjson.parse_fast`` against ``strictjson.parse``: the same value or the same refusal, every input.

The fast path reads a document itself only when C-level checks prove it plain and hands everything else
to the strict parser; a difference would be a refusal lost (a duplicate key, NaN, a number no double
holds, nesting, size, a byte-order mark, bytes that are not UTF-8, …) or a value read differently. The
inputs: the hostile cases the kit's tests and conformance corpus already hold, the same at tight limits,
and generated documents (valid ones, the same with a refusable feature injected, byte-level mutations,
random bytes).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from budget import share  # tests/ is on the path (tests/conftest.py)
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from contract.core import strictjson
from contract.core.refusal import Refusal
from contract.core.strictjson import StrictJsonError

REPO = Path(__file__).resolve().parents[2]
Outcome = tuple[str, str] | tuple[str, Refusal]


def outcome(parser: Any, data: bytes, **limits: int) -> Outcome:
    try:
        return "value", repr(parser(data, **limits))  # repr tells 1 / 1.0 / True / -0.0 and key order apart
    except StrictJsonError as exc:
        return "refused", exc.refusal


def agree(data: bytes, **limits: int) -> Outcome:
    strict = outcome(strictjson.parse, data, **limits)
    assert outcome(strictjson.parse_fast, data, **limits) == strict, (data[:200], limits)
    return strict


HOSTILE = [
    b'{"id": 1, "fen": "8/8/8/8/8/8/8/8 w - -"}',
    b'{"id": "dup", "id": "dup2", "fen": "8/8/8/8/8/8/8/8 w - -"}',
    b'{"a": {"b": 1, "b": 2}}',
    b'[{"k": 1}, {"k": 1, "k": 1}]',
    b'{"id": "nan", "fen": NaN}',
    b"[Infinity]", b"[-Infinity]", b"[1e999]", b"[-1e999]", b"[1.5e400]", b"[1e308]", b"[1.7976931348623157e308]",
    b"[" + b"1" + b"0" * 307 + b"]", b"[" + b"1" + b"0" * 308 + b"]", b"[-" + b"9" * 307 + b"]",
    b"[-" + b"9" * 308 + b"]", b"[" + b"9" * 5000 + b"]", b"1" + b"0" * 400, b"-" + b"9" * 400,
    b'"' + b"x" * 400 + b'", 1' + b"0" * 320,
    b'{"n": 1' + b"0" * 320 + b', "pad": "' + b"y" * 10 + b'"}',
    b"\xef\xbb\xbf{}", b"\xef\xbb\xbf" + b'{"id": 1}',
    b'{"id":"latin1","fen":"\xe9"}', b'"\xff"', b'["ok", "\xed\xa0\x80"]', b"\xc3",
    b'{"id":"lone\\ud800","fen":"x"}', b'"\\udfff\\ud800"', b'"\\ud83d\\ude00"', '"\u00e9\u4e2d"'.encode(),
    b"", b" ", b"\n", b"{", b"}", b"[1]\n[2]", b"[1,]", b'{"a": }', b'{"a" 1}', b"nul", b"X" * 1000,
    b"[" * 64 + b"]" * 64, b"[" * 65 + b"]" * 65, b"{" * 32 + b"[" * 33, b"[X" * 65,
    b'"[[[["', b'["\\"[[[["]', b'["\\\\", "x"]', b'{"]]]]": [[1]]}', b"[[]] [[[1]]]",
    b"\x00[\x00]", b"[\x00]", b'"\x00"', b"[1]\x00", b"\x00\x00\x00[", b"\xfe\xff\x00[\x00]",
    b"X1X", b"X[1]", b"[1]X", b"X 1", b"1 X", b"x1", b"1x",  # a character JSON does not take as whitespace
    b"[1, 2]\r", b"\t[true, false, null]\r\n", b"\x0c[1]", b"[1]\x0b", b"\x1c1", b"1\x1f", b" \r\n\t", b"[-0.0, 0.0, -0, 1E2, 1e-400]", b"[01]", b"[.5]", b"[+1]",
    b'{"id": "' + b"k" * 2000 + b'"}', b"[[" + b"1," * 500 + b"1]]",
]


def corpus_documents() -> list[bytes]:
    """Every manifest text of the conformance corpus (valid ones and hostile ones)."""
    data = json.loads((REPO / "golden" / "conformance" / "manifests.json").read_text(encoding="utf-8"))
    out = []
    for case in data["cases"]:
        manifest = case.get("manifest")
        if isinstance(manifest, str):
            out.append(manifest.encode("utf-8", "surrogatepass"))
    return out


def test_the_hostile_cases_agree_at_the_default_limits_and_tight_ones() -> None:
    documents = HOSTILE + corpus_documents()
    assert len(documents) > 150
    kinds = set()
    for data in documents:
        kind, result = agree(data)
        kinds.add(result.code if isinstance(result, Refusal) else kind)
    # every refusal the strict parser gives is among the cases, and so are accepted documents
    assert kinds >= {"value", "json.syntax", "json.duplicateKey", "json.notANumber", "json.numberRange",
                     "json.tooDeep", "json.byteOrderMark", "json.notUtf8"}
    for data in documents:
        for limits in ({"max_depth": 0}, {"max_depth": 1}, {"max_depth": 2}, {"max_bytes": 0},
                       {"max_bytes": max(len(data) - 1, 0)}, {"max_bytes": len(data)}):
            agree(data, **limits)
    assert agree(b"1" * 2, max_bytes=1)[1] == Refusal("larger than 1 bytes (2 bytes)", "json.tooLarge")


# --- generated -----------------------------------------------------------------------------------------

keys = st.text(alphabet=st.sampled_from('abid"\\\u00e9\ud800 '), max_size=4)
scalars = st.one_of(
    st.none(), st.booleans(),
    st.integers(), st.integers(min_value=-(10**320), max_value=10**320),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=8), st.text(alphabet=st.sampled_from('"\\/[]{}\ud800\udc00\u00e9\x00\n'), max_size=6),
)
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4),
    st.lists(st.tuples(keys, inner), max_size=4),  # an object as pairs: duplicate keys allowed
), max_leaves=12)


def render(value: Any, ascii_only: bool) -> str:
    """JSON text of ``value``; a list of pairs is an object (kept with any duplicate keys); floats that are
    not finite print as Python does (NaN, Infinity), which the strict parser refuses."""
    if isinstance(value, list) and value and all(isinstance(v, tuple) for v in value):
        return "{" + ", ".join(f"{json.dumps(k, ensure_ascii=ascii_only)}: {render(v, ascii_only)}"
                               for k, v in value) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(render(v, ascii_only) for v in value) + "]"
    if isinstance(value, float) and not math.isfinite(value):
        return json.dumps(value)
    return json.dumps(value, ensure_ascii=ascii_only)


@settings(share(15), suppress_health_check=[HealthCheck.too_slow])
@given(value=values, ascii_only=st.booleans(), depth=st.integers(min_value=0, max_value=6),
       nested=st.integers(min_value=0, max_value=70))
@example(value=[("a", 1), ("a", 2)], ascii_only=True, depth=6, nested=0)
@example(value=math.inf, ascii_only=True, depth=6, nested=64)
def test_generated_documents_agree(value: Any, ascii_only: bool, depth: int, nested: int) -> None:
    text = "[" * nested + render(value, ascii_only) + "]" * nested
    data = text.encode("utf-8", "surrogatepass")  # a lone surrogate unescaped: bytes that are not UTF-8
    agree(data)
    agree(data, max_depth=depth)
    agree(data, max_bytes=len(data) // 2)


MUTATION_BYTES = b'[]{}",:\\ 0123456789eE.-+NaIfinty\x00\xef\xbb\xbf\xc3\xa9\xed\xa0\x80\xff\r\n\tud8'


@settings(share(15), suppress_health_check=[HealthCheck.too_slow])
@given(value=values, edits=st.lists(st.tuples(st.integers(min_value=0), st.integers(min_value=0, max_value=2),
                                               st.sampled_from(list(MUTATION_BYTES))), min_size=1, max_size=4))
def test_mutated_documents_agree(value: Any, edits: list[tuple[int, int, int]]) -> None:
    data = bytearray(render(value, True).encode("utf-8", "surrogatepass"))
    for at, kind, byte in edits:
        where = at % (len(data) + 1)
        if kind == 0:
            data.insert(where, byte)
        elif where < len(data):
            if kind == 1:
                del data[where]
            else:
                data[where] = byte
    agree(bytes(data))
    agree(bytes(data), max_depth=2)


@settings(share(10))
@given(data=st.binary(max_size=64))
def test_random_bytes_agree(data: bytes) -> None:
    agree(data)


# --- the fast path is taken --------------------------------------------------------------------------------
# Plain documents at the limits' edges, each with the value Python's own reader gives (the strict parser
# agrees: the cases above): parse_fast must read them without handing them to the strict parser, which is
# its reason to exist (a bulk reader's lines at several times the speed). A document on an edge that went
# to the strict parser would still get the right value, only slowly: so the strict parser is disabled here.
PLAIN: list[tuple[bytes, dict[str, int]]] = [
    (b'{"a": [1, 2.5, "x", null, true, false, -0.0, 1E2], "b": {"c": {}}, "d": []}', {}),
    (b' \t\r\n[1, {"k": "v"}]\n\r\t ', {}),   # JSON's four whitespace characters around the value
    (b"[[[1]]]", {"max_depth": 3}),              # brackets and braces exactly at the depth limit
    (b'{"a": [{"b": [1]}]}', {"max_depth": 4}),
    (b"[1, 2, 3]", {"max_bytes": 9}),            # exactly the size limit
    (b"[" + b"1" * 308 + b"]", {}),              # a long document: an integer literal of the longest plain length
    (b"-" + b"9" * 307, {}),
    (b"1" * 308, {}),
    (b'"' + b"s" * 400 + b'"', {}),
    (b'[1.5, "' + b"t" * 400 + b'", {"n": -12}]', {}),
]


@pytest.mark.parametrize(("data", "limits"), PLAIN, ids=[f"plain-{i}" for i in range(len(PLAIN))])
def test_a_plain_document_is_read_by_the_fast_path(data: bytes, limits: dict[str, int],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    expected = json.loads(data)
    assert outcome(strictjson.parse, data, **limits) == ("value", repr(expected))

    def not_here(*_args: object, **_kwargs: object) -> Any:
        raise AssertionError(f"handed to the strict parser: {data[:60]!r}")

    monkeypatch.setattr(strictjson, "parse", not_here)
    assert repr(strictjson.parse_fast(data, **limits)) == repr(expected)
