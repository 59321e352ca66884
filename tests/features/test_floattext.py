"""Shortest float32 text, as the goldens print it (Java Float.toString)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from contract.core import floattext
from contract.core.floattext import float32_text, float32_text_rows, parse_float32

from .conftest import GOLDEN_FILES, RECORDED


@pytest.mark.parametrize(("value", "text"), [
    (0.4212963, "0.4212963"), (78.0, "78.0"), (0.0, "0.0"), (-0.0, "-0.0"), (-2000.0, "-2000.0"),
    (1 / 216, "0.0046296297"), (0.2, "0.2"), (1.0, "1.0"), (0.001, "0.001"), (1e-4, "1.0E-4"),
    (12345678.0, "1.2345678E7"), (9999999.0, "9999999.0"), (float("nan"), "NaN"),
    (float("inf"), "Infinity"), (float("-inf"), "-Infinity"),
])
def test_examples(value: float, text: str) -> None:
    assert float32_text(np.float32(value)) == text


def test_every_probability_and_pdi_round_trips_shortest() -> None:
    values = [np.float32(c / 216.0) for c in range(217)]
    values += [np.float32(k) / np.float32(5) for k in range(6)]
    for value in values:
        text = float32_text(value)
        assert parse_float32(text).view(np.uint32) == value.view(np.uint32)
        assert text == str(value) or "E" in text
        if value == 0:
            continue
        # no text with fewer significant digits reads back to the same float32
        significant = len(text.split("E")[0].replace("-", "").replace(".", "").strip("0"))
        for n in range(1, significant):
            assert np.float32(float(f"{float(value):.{n - 1}e}")) != value, (text, n)


def test_golden_text_is_reproduced() -> None:
    """The number texts in the recorded files are exactly float32_text of their float32 values."""
    for name in GOLDEN_FILES:
        raw = (RECORDED / name).read_text(encoding="utf-8")
        for raw_line in raw.splitlines():
            line = raw_line.strip()
            if line.startswith('"features": ['):
                texts = line[len('"features": ['):].rstrip("]").split(", ")
                for text in texts:
                    assert float32_text(parse_float32(text)) == text
        json.loads(raw)


@settings(max_examples=300, deadline=None)
@given(patterns=st.lists(st.integers(min_value=0, max_value=2**32 - 1), min_size=1, max_size=60),
       width=st.integers(min_value=1, max_value=7))
def test_text_rows_equal_float32_text_of_every_value(patterns: list[int], width: int) -> None:
    """Any float32 bit pattern (subnormals, -0.0, NaN payloads, infinities), in rows of any width."""
    patterns += [0, 0x80000000, 1, 0x7F7FFFFF, 0x7FC00001, 0xFF800000][: (-len(patterns)) % width]
    patterns += [0] * ((-len(patterns)) % width)
    matrix = np.array(patterns, dtype=np.uint32).view(np.float32).reshape(-1, width)
    expected = [", ".join(float32_text(v) for v in row) for row in matrix]
    assert float32_text_rows(matrix) == expected
    assert float32_text_rows(matrix) == expected  # the remembered texts
    assert float32_text_rows(matrix, separator=",") == [text.replace(", ", ",") for text in expected]


def test_text_rows_beyond_the_remembered_limit_are_still_right(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(floattext, "_REMEMBERED", {})
    monkeypatch.setattr(floattext, "REMEMBERED_LIMIT", 5)
    matrix = np.arange(24, dtype=np.float32).reshape(4, 6) / np.float32(7)
    expected = [", ".join(float32_text(v) for v in row) for row in matrix]
    assert float32_text_rows(matrix) == expected
    assert len(floattext._REMEMBERED) == 5
    assert float32_text_rows(matrix[::-1]) == expected[::-1]
    assert float32_text_rows(np.zeros((0, 3), dtype=np.float32)) == []
    with pytest.raises(ValueError, match="2-dimensional"):
        float32_text_rows(np.zeros(3, dtype=np.float32))
