"""The corpus text layout reproduces the engine golden generator's files byte for byte; readers refuse junk."""

from __future__ import annotations

import re

import numpy as np
import pytest
from budget import share
from golden_testkit import RECORDED
from hypothesis import given, settings
from hypothesis import strategies as st

from contract.core.corpuslayout import render
from contract.core.strictjson import parse
from contract.recordings.vectorfile import VectorFileError, read

RECORDED_GOLDENS = sorted(p.name for p in RECORDED.glob("*.engine-*.json"))


def test_the_recorded_goldens_are_found() -> None:
    # the four the engine recorded for this kit; a newer recording adds a file and breaks nothing
    assert {"kcp-13.engine-0.12.0.json", "rich-9-v1.engine-0.12.0.json", "kcp-mobility-27-v1.engine-0.9.3.json",
            "kcp-mobility-pawns-31-v1.engine-0.9.3.json"} <= set(RECORDED_GOLDENS)


@pytest.mark.parametrize("name", RECORDED_GOLDENS)
def test_render_reproduces_a_recorded_golden_byte_for_byte(name: str) -> None:
    data = (RECORDED / name).read_bytes()
    assert render(parse(data)) == data


def test_render_refuses_a_non_finite_value() -> None:
    with pytest.raises(ValueError, match="only finite numbers"):
        render({"features": [float("nan")]})
    with pytest.raises(TypeError, match="not a JSON scalar"):
        render({"features": [object()]})


GOOD = b'{"formatVersion": "1.0.0", "schema": "s", "engineVersion": "0.12.0", "columns": ["a", "b"], "probes": [%s]}'
PROBE = b'{"id": "%s", "fen": "8/8/8/8/8/8/8/8 w - -", "side": "w", "features": %s}'


@pytest.mark.parametrize(("probes", "message"), [
    (PROBE % (b"x", b"[1.0, 2.0]") + b", " + PROBE % (b"x", b"[1.0, 2.0]"), "probe x: id appears twice"),
    (PROBE % (b"x", b"[1.0]"), "probe x: 1 features, the file has 2 columns"),
    (PROBE % (b"x", b'[1.0, "2"]'), "probe x column b: '2' is not a number"),
    (PROBE % (b"x", b"[1.0, 1e39]"), "probe x column b: 1e+39 is not a finite float32"),
    (b'{"fen": "8/8/8/8/8/8/8/8 w - -"}', "probes[0]: missing field 'id'"),
])
def test_a_bad_vector_file_is_refused_by_name(probes: bytes, message: str) -> None:
    with pytest.raises(VectorFileError, match="^" + re.escape(f"bad.json: {message}") + "$"):
        read("bad.json", GOOD % probes)


def test_a_vector_file_that_is_not_json_is_refused() -> None:
    with pytest.raises(VectorFileError, match="^" + re.escape("bad.json: not valid JSON")):
        read("bad.json", b'{"schema": NaN}')


@pytest.mark.parametrize(("version", "message"), [
    (b'"2.0.0"', "formatVersion 2.0.0 is not one this kit reads: it reads golden-vectors format 1.x (docs/versioning.md)"),
    (b'"1.0"', "formatVersion '1.0' is not a MAJOR.MINOR.PATCH version"),
    (b"1", "formatVersion 1 is not a string"),
])
def test_a_vector_file_of_a_version_the_kit_does_not_read_is_refused_by_name(version: bytes, message: str) -> None:
    data = (GOOD % (PROBE % (b"x", b"[1.0, 2.0]"))).replace(b'"1.0.0"', version)
    for versioned in (True, False):  # a recording that carries a version is held to it as well
        with pytest.raises(VectorFileError, match="^" + re.escape(f"golden/vectors/x.json: {message}") + "$"):
            read("golden/vectors/x.json", data, versioned=versioned)


def test_only_the_engines_recordings_may_carry_no_version() -> None:
    unversioned = (GOOD % (PROBE % (b"x", b"[1.0, 2.0]"))).replace(b'"formatVersion": "1.0.0", ', b"")
    with pytest.raises(VectorFileError, match=r"^golden/vectors/x\.json: no formatVersion"):
        read("golden/vectors/x.json", unversioned)
    assert read("golden/recorded/x.engine-0.12.0.json", unversioned, versioned=False).probes["x"].features == (1.0, 2.0)


def test_bits_are_float32_bits() -> None:
    corpus = read("ok.json", GOOD % (PROBE % (b"x", b"[0.4212963, 78.0]")))
    assert corpus.probes["x"].bits() == (0x3ED7B426, 0x429C0000)


@settings(share(3))
@given(st.lists(st.floats(width=32, allow_nan=False, allow_infinity=False), min_size=1, max_size=20))
def test_rendered_values_read_back_to_the_same_float32_bits(values: list[float]) -> None:
    doc = {"formatVersion": "1.0.0", "schema": "s", "engineVersion": "0.12.0", "columns": [f"c{i}" for i in range(len(values))],
           "probes": [{"id": "x", "fen": "8/8/8/8/8/8/8/8 w - -", "side": "w", "features": values}]}
    corpus = read("prop.json", render(doc))
    expected = tuple(int(b) for b in np.asarray(values, dtype=np.float32).view(np.uint32))
    assert corpus.probes["x"].bits() == expected  # -0.0 included
