"""safetensors headers without torch: the recorded corruption cases (safetensors-cases.json, outcomes
of safetensors 0.8.0) are refused with a message naming the problem, the valid variants accepted,
and no bytes whatsoever make the reader raise."""

from __future__ import annotations

import json
import struct
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from budget import share
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pairjudge_support import BUNDLES, RECORDED, apply_ops, copy_bundle

from contract.pairjudge import verify_bundle
from contract.pairjudge.safetensors import DTYPE_BITS, Header, HeaderRefusal, parse_header, read_header

SOURCE = BUNDLES / "full-run/merged/model.safetensors"
RECORDED_CASES: dict[str, dict[str, Any]] = json.loads((RECORDED / "safetensors-cases.json").read_text())["cases"]


def _split(data: bytes) -> tuple[bytes, bytes]:
    (length,) = struct.unpack("<Q", data[:8])
    return data[8 : 8 + length], data[8 + length :]


def _join(header: bytes, buffer: bytes) -> bytes:
    return struct.pack("<Q", len(header)) + header + buffer


def _edit_header(edit: Callable[[dict[str, Any]], None]) -> Callable[[bytes], bytes]:
    def corrupt(data: bytes) -> bytes:
        header, buffer = _split(data)
        document = json.loads(header)
        edit(document)
        return _join(json.dumps(document, separators=(",", ":")).encode(), buffer)

    return corrupt


def _shift_offsets(document: dict[str, Any]) -> None:
    for name, info in document.items():
        if name != "__metadata__":
            info["data_offsets"] = [o + 4 for o in info["data_offsets"]]


def _set(name: str, key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def edit(document: dict[str, Any]) -> None:
        document[name][key] = value

    return edit


def _replace_byte(data: bytes, index: int, value: bytes) -> bytes:
    return data[:index] + value + data[index + 1 :]


# How each recorded corruption is made (the recording names them; the construction is ours), and
# the words the kit's refusal must contain to name the problem.
CORRUPTIONS: dict[str, tuple[Callable[[bytes], bytes], str | None]] = {
    "valid_copy": (lambda d: d, None),
    "truncated_by_one_byte": (lambda d: d[:-1], "1 bytes shorter"),
    "one_extra_trailing_byte": (lambda d: d + b"\0", "1 bytes longer"),
    "file_shorter_than_8_bytes": (lambda d: d[:5], "fewer than the 8-byte header length"),
    "header_length_beyond_file": (lambda d: struct.pack("<Q", len(d)) + d[8:], "runs past the end"),
    "header_length_over_100MB": (lambda d: struct.pack("<Q", 100_000_001) + d[8:], "exceeds the 100000000-byte"),
    "header_invalid_json": (lambda d: _replace_byte(d, 9, b"'"), "not valid JSON"),
    "header_invalid_utf8": (lambda d: _replace_byte(d, 10, b"\xff"), "not UTF-8"),
    "offsets_gap_at_start": (
        lambda d: _join(*_split(_edit_header(_shift_offsets)(d))[:1], b"\0" * 4 + _split(d)[1]),
        "'score.weight' has data_offsets [4, 196]",
    ),
    "shape_dtype_size_mismatch": (_edit_header(_set("score.weight", "shape", [3, 17])), "needs 204"),
    "dtype_size_mismatch": (_edit_header(_set("score.weight", "dtype", "F16")), "x F16 needs 96"),
    "unknown_dtype": (_edit_header(_set("score.weight", "dtype", "Q4")), "unknown dtype 'Q4'"),
    "metadata_non_string_value": (_edit_header(_set("__metadata__", "format", 1)), "__metadata__"),
    "offsets_reversed": (_edit_header(_set("score.weight", "data_offsets", [192, 0])), "run backwards"),
    "header_leading_space": (lambda d: _join(b" " + _split(d)[0], _split(d)[1]), None),
    "header_unpadded": (lambda d: _join(_split(d)[0].rstrip(b" "), _split(d)[1]), None),
}


def test_pairjudge_every_recorded_safetensors_case_is_constructed() -> None:
    assert set(CORRUPTIONS) == set(RECORDED_CASES)


@pytest.mark.parametrize("name", sorted(RECORDED_CASES))
def test_pairjudge_safetensors_case_matches_recorded_outcome(name: str) -> None:
    corrupt, words = CORRUPTIONS[name]
    result = parse_header(corrupt(SOURCE.read_bytes()))
    recorded = RECORDED_CASES[name]
    if recorded["ok"]:
        assert isinstance(result, Header), result
        assert len(result.tensors) == recorded["tensors"]
    else:
        assert isinstance(result, HeaderRefusal)
        assert words is not None and words in result.problem, result.problem


@pytest.mark.parametrize("name", sorted(n for n, c in RECORDED_CASES.items() if not c["ok"]))
def test_pairjudge_corrupt_weights_refused_by_full_layer_only(name: str, tmp_path: Path) -> None:
    bundle = copy_bundle("full-run/merged", tmp_path)
    weights = bundle / "model.safetensors"
    weights.write_bytes(CORRUPTIONS[name][0](weights.read_bytes()))
    apply_ops(bundle, [{"op": "rehash"}])
    assert verify_bundle(bundle, layer="manifest").ok
    verdict = verify_bundle(bundle)
    assert not verdict.ok
    assert verdict.message is not None
    assert verdict.message.startswith("incomplete trained weights: model.safetensors is not a well-formed")
    words = CORRUPTIONS[name][1]
    assert words is not None and words in verdict.message


def test_pairjudge_read_header_matches_parse_header() -> None:
    from_file = read_header(SOURCE)
    assert isinstance(from_file, Header)
    assert from_file == parse_header(SOURCE.read_bytes())
    assert from_file.metadata == {"format": "pt"}
    assert from_file.tensors["score.weight"].shape == (3, 16)


def test_pairjudge_duplicate_tensor_name_refused() -> None:
    header, buffer = _split(SOURCE.read_bytes())
    text = header.decode().replace('"score.weight"', '"transformer.wte.weight"', 1)
    result = parse_header(_join(text.encode(), buffer))
    assert isinstance(result, HeaderRefusal)
    assert "duplicate key 'transformer.wte.weight'" in result.problem


def test_pairjudge_sub_byte_dtype_must_fill_whole_bytes() -> None:
    """Spec §9: F4 is 4 bits, so an odd element count has a bit remainder."""
    header = json.dumps({"x": {"dtype": "F4", "shape": [3], "data_offsets": [0, 2]}}).encode()
    assert isinstance(parse_header(_join(header, b"\0\0")), HeaderRefusal)
    header = json.dumps({"x": {"dtype": "F4", "shape": [4], "data_offsets": [0, 2]}}).encode()
    assert isinstance(parse_header(_join(header, b"\0\0")), Header)


# -- never raises -------------------------------------------------------------------------------


@settings(share(4))
@given(st.binary(max_size=256))
def test_pairjudge_arbitrary_bytes_never_raise(data: bytes) -> None:
    assert isinstance(parse_header(data), Header | HeaderRefusal)


@settings(share(4))
@given(st.binary(max_size=256), st.binary(max_size=64))
def test_pairjudge_arbitrary_header_bytes_never_raise(header: bytes, buffer: bytes) -> None:
    assert isinstance(parse_header(_join(header, buffer)), Header | HeaderRefusal)


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
_count = st.integers(min_value=-2, max_value=2**65) | st.sampled_from([0, 1, 2, 3, 4, 16])
_tensor = st.fixed_dictionaries(
    {
        "dtype": st.sampled_from([*DTYPE_BITS, "Q4"]) | _json,
        "shape": st.lists(_count, max_size=4) | _json,
        "data_offsets": st.lists(_count, min_size=2, max_size=3) | _json,
    }
)


@settings(share(3), suppress_health_check=[HealthCheck.too_slow])
@given(
    st.dictionaries(st.text(max_size=6) | st.just("__metadata__"), _tensor | _json, max_size=5),
    st.integers(min_value=0, max_value=300),
)
def test_pairjudge_arbitrary_header_documents_never_raise(document: dict[str, Any], size: int) -> None:
    header = json.dumps(document).encode()
    assert isinstance(parse_header(_join(header, b"\0" * size)), Header | HeaderRefusal)
