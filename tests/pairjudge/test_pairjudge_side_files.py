"""The bundle's side JSON files (config.json) and the manifest fields the reference's loader reads,
refused in full: the texts are the table's (schema/pairjudge-check-table.json: ``config.file``,
``manifest.loader_fields`` and their ``detail.file.*`` / ``detail.loader.*`` details).

Whether the reference refuses such a bundle at all is the fuzz replay's question
(tests/pairjudge/test_pairjudge_fuzz.py); these pin which check speaks and what it says.
"""

from __future__ import annotations

import errno
from pathlib import Path
from typing import Any, BinaryIO

import pytest
from pairjudge_support import copy_bundle, verify_recipe

from contract.pairjudge import sidejson, verify_bundle

CONFIG = "the full bundle's config.json cannot be used: "
LOADER = "; the reference's loader reads it and fails"


@pytest.mark.parametrize(("ops", "problem"), [
    ([{"op": "remove_file", "file": "config.json"}, {"op": "delete", "path": "/files/config.json"}],
     "config.json is missing"),
    ([{"op": "write_text", "file": "config.json", "text": "[1]"}], "config.json is not a JSON object"),
    ([{"op": "write_text", "file": "config.json", "text": "{"}],
     "config.json is not valid JSON: Expecting property name enclosed in double quotes at line 1 column 2"),
], ids=["missing", "not-object", "malformed"])
def test_config_json_that_cannot_be_used(tmp_path: Path, ops: list[dict[str, Any]], problem: str) -> None:
    verdict = verify_recipe(tmp_path, name="full-run/merged", ops=ops)
    assert (verdict.code, verdict.message) == ("config.file", CONFIG + problem)


def test_config_json_over_the_size_bound(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    limit = max(p.stat().st_size for p in copy_bundle("full-run/merged", tmp_path / "sizes").glob("*.json"))
    monkeypatch.setattr(sidejson, "MAX_BYTES", limit)
    padded = '{"model_type": "gpt2", "pad": "' + "x" * limit + '"}'
    verdict = verify_recipe(tmp_path, name="full-run/merged", ops=[{"op": "write_text", "file": "config.json",
                                                                    "text": padded}])
    assert (verdict.code, verdict.message) == ("config.file", CONFIG + f"config.json is larger than {limit} bytes")


@pytest.mark.parametrize(("name", "code", "message"), [
    ("config.json", "config.file", CONFIG + "config.json cannot be read (Input/output error)"),
    ("tokenizer.json", "tokenizer.files", "tokenizer.json cannot be read (Input/output error)"),
])
def test_a_side_file_that_cannot_be_read_names_the_reason(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          name: str, code: str, message: str) -> None:
    copied = copy_bundle("full-run/merged", tmp_path)
    open_regular = sidejson.open_regular

    def failing(path: Path) -> BinaryIO:
        if path.name == name:
            raise OSError(errno.EIO, "Input/output error")
        return open_regular(path)

    monkeypatch.setattr(sidejson, "open_regular", failing)
    verdict = verify_bundle(copied)
    assert (verdict.code, verdict.message) == (code, message)


def test_a_repeated_key_in_config_json_is_a_warning_the_verdict_carries(tmp_path: Path) -> None:
    ops = [{"op": "write_text", "file": "config.json", "text": '{"model_type": "x", "model_type": "gpt2"}'}]
    verdict = verify_recipe(tmp_path, name="full-run/merged", ops=ops)
    assert "config.json repeats the key 'model_type'; the reference keeps the last value, other readers may keep " \
           "the first" in verdict.warnings


@pytest.mark.parametrize(("name", "ops", "message"), [
    ("full-run/merged", [{"op": "set", "path": "/inference", "value": 3}], "inference is a number, not an object"),
    ("full-run/merged", [{"op": "set", "path": "/source", "value": "x"}], "source is a string, not an object"),
    ("lora-run/adapter", [{"op": "delete", "path": "/source"}],
     "source is missing (an adapter's loader reads source[...])"),
    ("lora-run/adapter", [{"op": "set", "path": "/source", "value": 1.5}], "source is a number, not an object"),
    ("lora-run/adapter", [{"op": "set", "path": "/inference", "value": "s"}], "inference is a string, not an object"),
    ("lora-run/adapter", [{"op": "set", "path": "/model_config", "value": []}], "model_config is an array, not an object"),
    ("lora-run/adapter", [{"op": "set", "path": "/training/config", "value": None}],
     "training.config is null, not an object"),
], ids=["full-inference", "full-source", "adapter-source-missing", "adapter-source", "adapter-inference",
        "adapter-model-config", "adapter-training-config"])
def test_a_field_the_loader_reads_is_refused_in_full(tmp_path: Path, name: str, ops: list[dict[str, Any]],
                                                      message: str) -> None:
    verdict = verify_recipe(tmp_path, name=name, ops=ops)
    assert (verdict.code, verdict.message) == ("manifest.loader_fields", f"pairjudge.json {message}{LOADER}")


@pytest.mark.parametrize("path", ["/model_config", "/training/config"])
def test_a_full_bundle_does_not_read_the_adapter_only_fields(tmp_path: Path, path: str) -> None:
    verdict = verify_recipe(tmp_path, name="full-run/merged", ops=[{"op": "set", "path": path, "value": []}])
    assert verdict.code is None, verdict
