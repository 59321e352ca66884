"""The tokenizer's JSON files that cannot be used, refused in full (``tokenizer.files``; the texts are
schema/pairjudge-check-table.json's ``detail.file.*``), and a repeated
key in one of them carried as a warning. An unreadable one: test_pairjudge_side_files.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pairjudge_support import apply_ops, copy_bundle, verify_recipe

from contract.pairjudge import sidejson, verify_bundle


@pytest.mark.parametrize(("name", "text", "problem"), [
    ("tokenizer_config.json", "[1]", "tokenizer_config.json is not a JSON object"),
    ("tokenizer.json", "[1]", "tokenizer.json is not a JSON object"),
    ("tokenizer_config.json", "{",
     "tokenizer_config.json is not valid JSON: Expecting property name enclosed in double quotes at line 1 column 2"),
])
def test_a_tokenizer_file_that_is_not_a_json_object(tmp_path: Path, name: str, text: str, problem: str) -> None:
    verdict = verify_recipe(tmp_path, [{"op": "write_text", "file": name, "text": text}])
    assert (verdict.code, verdict.message) == ("tokenizer.files", problem)


def test_a_tokenizer_file_over_the_size_bound(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sidejson, "MAX_BYTES", 10)
    verdict = verify_recipe(tmp_path, [])
    assert (verdict.code, verdict.message) == ("tokenizer.files", "tokenizer.json is larger than 10 bytes")


def test_a_repeated_key_in_a_tokenizer_file_is_a_warning_the_verdict_carries(tmp_path: Path) -> None:
    bundle = copy_bundle("full-run/merged", tmp_path)
    config = json.loads((bundle / "tokenizer_config.json").read_text(encoding="utf-8"))
    key = next(iter(config))
    text = json.dumps({key: "first"})[:-1] + ", " + json.dumps(config)[1:]  # the key twice, the recorded value last
    apply_ops(bundle, [{"op": "write_text", "file": "tokenizer_config.json", "text": text}, {"op": "rehash"}])
    verdict = verify_bundle(bundle)
    assert verdict.ok, verdict
    assert (f"tokenizer_config.json repeats the key {key!r}; the reference keeps the last value, other readers may "
            "keep the first") in verdict.warnings
