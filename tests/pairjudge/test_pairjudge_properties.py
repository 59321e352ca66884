"""Property-based: arbitrary JSON (or bytes) as pairjudge.json, and arbitrary values spliced into a
real bundle's manifest, config and tokenizer files, never make the verifier raise: every outcome is
a Verdict, and a refusal always carries a message."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from budget import share
from hypothesis import given, settings
from hypothesis import strategies as st
from pairjudge_support import copy_bundle

from contract.pairjudge import LAYERS, Verdict, verify_bundle

_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()  # NaN and infinities too: Python's json writes them and the reference reads them
    | st.text(max_size=12)
    | st.sampled_from(["a_wins", "b_wins", "tie", "{text}", "{", "model.safetensors", "../x", "1"])
)
_json = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=16,
)


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_bundle("full-run/merged", tmp_path_factory.mktemp("pairjudge"))


def _check(verdict: Verdict) -> None:
    assert isinstance(verdict, Verdict)
    assert verdict.ok or verdict.message


def _verify_both_layers(bundle: Path) -> None:
    for layer in LAYERS:
        _check(verify_bundle(bundle, layer=layer))


@settings(share(2.5))
@given(document=_json)
def test_pairjudge_arbitrary_json_manifest_never_raises(bundle: Path, document: Any) -> None:
    (bundle / "pairjudge.json").write_text(json.dumps(document))
    _verify_both_layers(bundle)


@settings(share(1.5))
@given(data=st.binary(max_size=200))
def test_pairjudge_arbitrary_bytes_manifest_never_raise(bundle: Path, data: bytes) -> None:
    (bundle / "pairjudge.json").write_bytes(data)
    _verify_both_layers(bundle)



@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_bundle("full-run/merged", tmp_path_factory.mktemp("pristine"))


def _paths(document: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(document, dict):
        for key, value in document.items():
            out.extend(_paths(value, (*prefix, key)))
    elif isinstance(document, list):
        for index, value in enumerate(document):
            out.extend(_paths(value, (*prefix, index)))
    return out


def _splice(document: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    parent = document
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = value
    return document


def _rehash(bundle: Path, manifest: dict[str, Any]) -> None:
    files = manifest.get("files")
    if isinstance(files, dict):
        for key in list(files):
            target = bundle / key
            if key in ("config.json", "tokenizer_config.json", "tokenizer.json", "model.safetensors"):
                files[key] = hashlib.sha256(target.read_bytes()).hexdigest()


@settings(share(3))
@given(
    target=st.sampled_from(["pairjudge.json", "config.json", "tokenizer_config.json", "tokenizer.json"]),
    choice=st.integers(min_value=0),
    value=_json,
)
def test_pairjudge_spliced_values_never_raise(
    bundle: Path, pristine: Path, target: str, choice: int, value: Any
) -> None:
    for name in ("pairjudge.json", "config.json", "tokenizer_config.json", "tokenizer.json"):
        (bundle / name).write_bytes((pristine / name).read_bytes())
    document = json.loads((bundle / target).read_text())
    paths = _paths(document)
    document = _splice(document, paths[choice % len(paths)], value)
    (bundle / target).write_text(json.dumps(document, indent=2))
    manifest = json.loads((bundle / "pairjudge.json").read_text())
    if target != "pairjudge.json" and isinstance(manifest, dict):
        _rehash(bundle, manifest)  # so that the full layer is reached
        (bundle / "pairjudge.json").write_text(json.dumps(manifest, indent=2))
    _verify_both_layers(bundle)
