"""``pairjudge verify`` against hostile bundles and arguments (review 2026-12-01: C3, C4, C8, H5, H8, H11,
H12, H14, L7). Each test fails on 7f9a987: ``-0`` passed as an offset, ``null`` metadata was refused,
an unknown layer skipped the full layer, each ``files`` key was hashed again, side JSON was bounded in
bytes only, unlisted side files and links out of the bundle passed silently, wrong types raised, and
``--packer-config`` was read whole with a blocking open."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from pairjudge_support import apply_ops, copy_bundle, verify_recipe

from contract.pairjudge import manifest, referencejson, sidejson, verify_bundle
from contract.pairjudge.safetensors import Header, HeaderRefusal, parse_header


def _file(header_text: str, buffer: bytes = b"") -> bytes:
    raw = header_text.encode()
    return struct.pack("<Q", len(raw)) + raw + buffer


@pytest.mark.parametrize(("field", "text", "shown"), [
    ("data_offsets", "[-0,4]", "[-0.0, 4]"),
    ("data_offsets", "[0.0,4]", "[0.0, 4]"),
    ("data_offsets", "[0,4e0]", "[0, 4.0]"),
    ("shape", "[-0]", "[-0.0]"),
    ("shape", "[1E0]", "[1.0]"),
])
def test_a_number_token_that_is_not_plain_digits_is_refused_as_serde_refuses_it(field: str, text: str,
                                                                               shown: str) -> None:
    entry = {"dtype": "F32", "shape": "[1]", "data_offsets": "[0,4]", field: text}
    header = '{"t":{' + ",".join(f'"{k}":{v}' if k != "dtype" else f'"{k}":"{v}"' for k, v in entry.items()) + "}}"
    found = parse_header(_file(header, bytes(4)))
    kind = "two non-negative integers" if field == "data_offsets" else "a list of non-negative integers"
    assert found == HeaderRefusal(f"tensor 't' has {field} {shown}, not {kind}")


def test_minus_zero_inside_a_tensor_name_is_only_a_name() -> None:
    found = parse_header(_file('{"w[-0]":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}', bytes(4)))
    assert isinstance(found, Header) and list(found.tensors) == ["w[-0]"]


def test_null_metadata_is_no_metadata() -> None:
    found = parse_header(_file('{"__metadata__":null,"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}',
                               bytes(4)))
    assert isinstance(found, Header) and found.metadata == {} and list(found.tensors) == ["w"]


@pytest.mark.parametrize("layer", ["Full", "full ", "all", "FULL", None, 1])
def test_an_unknown_layer_is_an_arguments_refusal(tmp_path: Path, layer: Any) -> None:
    verdict = verify_bundle(copy_bundle("full-run/merged", tmp_path), layer=layer)
    assert (verdict.ok, verdict.code, verdict.stage) == (False, "arguments.layer", "arguments")
    assert verdict.message == f"layer must be 'manifest' or 'full', not {layer!r}"


def test_an_empty_directory_with_allow_legacy_does_not_verify(tmp_path: Path) -> None:
    for layer in ("full", "FULL"):
        verdict = verify_bundle(tmp_path, layer=layer, allow_legacy=True,  # type: ignore[arg-type]
                                label_order=["tie", "a_wins", "b_wins"], packer_config={})
        assert not verdict.ok, layer


@pytest.mark.parametrize(("kwargs", "code", "message"), [
    ({"bundle": None}, "arguments.bundle", "the bundle must be a path (str or os.PathLike), not None"),
    ({"bundle": b"dir"}, "arguments.bundle", "the bundle must be a path (str or os.PathLike), not bytes"),
    ({"allow_legacy": "yes"}, "arguments.allow_legacy", "allow_legacy must be True or False, not str"),
    ({"label_order": 5}, "arguments.label_order", "label_order must be a permutation of ('a_wins', 'b_wins', 'tie')"),
    ({"label_order": "tie"}, "arguments.label_order",
     "label_order must be a permutation of ('a_wins', 'b_wins', 'tie')"),
    ({"packer_config": [1]}, "arguments.packer_config",
     "packer_config must be a mapping of PackerConfig fields (or None), not list"),
])
def test_wrong_argument_types_are_refusals_never_raised(tmp_path: Path, kwargs: dict[str, Any], code: str,
                                                        message: str) -> None:
    given = dict(kwargs)  # a copy: the parameter's dict is shared by every run of the test in one process
    bundle = given.pop("bundle", tmp_path)
    verdict = verify_bundle(bundle, **given)
    assert (verdict.ok, verdict.code, verdict.message, verdict.stage) == (False, code, message, "arguments")


def _repeated_entries(tmp_path: Path, count: int) -> Path:
    bundle = copy_bundle("full-run/merged", tmp_path)
    document = json.loads((bundle / "pairjudge.json").read_text())
    digest = document["files"]["model.safetensors"]
    for number in range(1, count):
        document["files"]["./" * number + "model.safetensors"] = digest
    (bundle / "pairjudge.json").write_text(json.dumps(document))
    return bundle


def test_each_distinct_file_is_hashed_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bundle = _repeated_entries(tmp_path, 40)
    hashed: list[str] = []
    real = manifest.file_sha256

    def counting(path: Path) -> str | None:
        hashed.append(os.path.normpath(path))
        return real(path)

    monkeypatch.setattr(manifest, "file_sha256", counting)
    verdict = verify_bundle(bundle, layer="manifest")
    assert verdict.ok, verdict
    assert len(hashed) == len(set(hashed)) == len(json.loads((bundle / "pairjudge.json").read_text())["files"]) - 39


def test_the_digests_stop_at_the_byte_budget(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bundle = copy_bundle("full-run/merged", tmp_path)
    monkeypatch.setattr(manifest, "MAX_HASHED_BYTES", 10_000)
    verdict = verify_bundle(bundle, layer="manifest")
    first_over = next(key for key in json.loads((bundle / "pairjudge.json").read_text())["files"]
                      if (bundle / key).stat().st_size > 10_000)
    assert (verdict.code, verdict.message) == (
        "files.budget", f"files entry {first_over} would take the digests past 10000 bytes in all (each distinct "
        "file is hashed once); the kit stops there to bound the time a verification takes")


def test_side_json_is_refused_by_its_memory_estimate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    values = "[" + ",".join(["{}"] * 5_000) + "]"
    text = (copy_bundle("full-run/merged", tmp_path / "read") / "config.json").read_text()
    padded = text.rstrip()[:-1] + ', "x": ' + values + "}"
    estimate = sidejson.memory_estimate(padded.encode())
    monkeypatch.setattr(sidejson, "MAX_MEMORY", estimate - 1)
    verdict = verify_recipe(tmp_path, [{"op": "write_text", "file": "config.json", "text": padded}])
    assert (verdict.code, verdict.message) == (
        "config.file", f"the full bundle's config.json cannot be used: config.json would take up to {estimate} bytes "
        f"of memory to parse (deliberately refused above {estimate - 1}: the kit bounds the memory a verification "
        "takes; the reference has no bound)")


def test_the_memory_estimate_bounds_what_parsing_takes() -> None:
    import tracemalloc

    for text in ("[" + ",".join(["{}"] * 20_000) + "]", "{" + ",".join(f'"{i}":[]' for i in range(20_000)) + "}",
                 "[" + ",".join(['"\u4e00"'] * 20_000) + "]"):
        data = text.encode()
        tracemalloc.start()
        referencejson.load(data, "x", referencejson.SIDE_MAX_DEPTH)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert peak < sidejson.memory_estimate(data), text[:20]


def test_running_out_of_memory_while_parsing_is_a_refusal(monkeypatch: pytest.MonkeyPatch) -> None:
    def exhausted(*args: Any, **kwargs: Any) -> Any:
        raise MemoryError

    # referencejson's own json only: the check table reads its JSON file through json.loads too, and under
    # mutation testing (its caches cleared before each test) it would run out of memory first
    monkeypatch.setattr(referencejson, "json", SimpleNamespace(loads=exhausted, JSONDecodeError=json.JSONDecodeError))
    assert referencejson.load(b"{}", "config.json") == referencejson.JsonProblem(
        "config.json is not valid JSON: out of memory while parsing")


@pytest.mark.parametrize("name", ["config.json", "tokenizer.json", "tokenizer_config.json"])
def test_an_unlisted_side_file_gets_the_not_listed_warning(tmp_path: Path, name: str) -> None:
    verdict = verify_recipe(tmp_path, [{"op": "delete", "path": f"/files/{name}"}])
    assert verdict.ok, verdict
    assert (f"{name} is loaded but not listed in pairjudge.json files, so its digest is not checked (the reference "
            "accepts this)") in verdict.warnings


def _linked_outside(tmp_path: Path, name: str, listed: bool) -> Any:
    """verify_bundle on a copy whose ``name`` is a link to a file outside the bundle."""
    bundle = copy_bundle("full-run/merged", tmp_path)
    if not listed:
        apply_ops(bundle, [{"op": "delete", "path": f"/files/{name}"}])
    outside = tmp_path / f"outside-{name}"
    (bundle / name).rename(outside)
    os.symlink(outside, bundle / name)
    verdict = verify_bundle(bundle)
    assert verdict.ok, verdict
    return verdict


def test_an_unlisted_side_file_leading_outside_the_bundle_is_named(tmp_path: Path) -> None:
    verdict = _linked_outside(tmp_path, "config.json", listed=False)
    assert ("config.json is read by the loader and leads outside the bundle (through a symbolic link); whoever "
            "controls the target can change the model after this check") in verdict.warnings


def test_a_listed_weights_link_leaving_the_bundle_says_so(tmp_path: Path) -> None:
    verdict = _linked_outside(tmp_path, "model.safetensors", listed=True)
    assert ("files entry 'model.safetensors' leads outside the bundle (through a symbolic link); the reference "
            "follows it, and whoever controls the target can change the model after this check") in verdict.warnings


def _verify_command(bundle: Path, packer: Path) -> list[str]:
    return [sys.executable, "-m", "contract", "pairjudge", "verify", str(bundle), "--packer-config", str(packer)]


def test_a_fifo_packer_config_is_a_usage_error_not_a_hang(tmp_path: Path) -> None:
    fifo = tmp_path / "packer.json"
    os.mkfifo(fifo)
    done = subprocess.run(_verify_command(copy_bundle("full-run/merged", tmp_path), fifo), capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 2
    assert done.stderr.strip() == f"usage error: cannot read --packer-config {fifo}: not a regular file"


def test_a_deep_packer_config_is_a_usage_error_not_a_traceback(tmp_path: Path) -> None:
    deep = tmp_path / "packer.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    done = subprocess.run(_verify_command(copy_bundle("full-run/merged", tmp_path), deep), capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.startswith(f"usage error: --packer-config {deep} is ")
