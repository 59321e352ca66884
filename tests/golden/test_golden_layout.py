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
from contract.golden.vectors import VectorFileError, read

RECORDED_GOLDENS = sorted(p.name for p in RECORDED.glob("*.engine-*.json"))


def test_there_are_four_recorded_goldens() -> None:
    assert len(RECORDED_GOLDENS) == 4


@pytest.mark.parametrize("name", RECORDED_GOLDENS)
def test_render_reproduces_a_recorded_golden_byte_for_byte(name: str) -> None:
    data = (RECORDED / name).read_bytes()
    assert render(parse(data)) == data


def test_render_refuses_a_non_finite_value() -> None:
    with pytest.raises(ValueError, match="only finite numbers"):
        render({"features": [float("nan")]})
    with pytest.raises(TypeError, match="not a JSON scalar"):
        render({"features": [object()]})


GOOD = b'{"schema": "s", "engineVersion": "0.12.0", "columns": ["a", "b"], "probes": [%s]}'
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


def test_bits_are_float32_bits() -> None:
    corpus = read("ok.json", GOOD % (PROBE % (b"x", b"[0.4212963, 78.0]")))
    assert corpus.probes["x"].bits() == (0x3ED7B426, 0x429C0000)


@settings(share(3))
@given(st.lists(st.floats(width=32, allow_nan=False, allow_infinity=False), min_size=1, max_size=20))
def test_rendered_values_read_back_to_the_same_float32_bits(values: list[float]) -> None:
    doc = {"schema": "s", "engineVersion": "0.12.0", "columns": [f"c{i}" for i in range(len(values))],
           "probes": [{"id": "x", "fen": "8/8/8/8/8/8/8/8 w - -", "side": "w", "features": values}]}
    corpus = read("prop.json", render(doc))
    expected = tuple(int(b) for b in np.asarray(values, dtype=np.float32).view(np.uint32))
    assert corpus.probes["x"].bits() == expected  # -0.0 included
