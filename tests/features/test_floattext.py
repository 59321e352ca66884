"""Shortest float32 text, as the goldens print it (Java Float.toString)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from contract.core.floattext import float32_text, parse_float32

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
