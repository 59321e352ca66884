"""Property: whatever bytes or JSON value a manifest holds, loading never raises; it refuses or serves."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from budget import share
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from contract.core.refusal import Refusal
from contract.model.manifest import read_manifest
from contract.model.package import ModelPackage

MANIFESTS = Path(__file__).resolve().parents[2] / "golden" / "recorded" / "manifests"
BASE: dict[str, Any] = json.loads((MANIFESTS / "synthetic_kcp13_value_manifest.json").read_text())

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4),
    max_leaves=12,
)
field_names = st.sampled_from([*BASE, "inputName", "outputName", "evaluationProfile", "other"])


@settings(share(3))
@given(st.binary(max_size=512))
def test_arbitrary_bytes_never_raise(data: bytes) -> None:
    result = read_manifest(data, "0.12.0")
    assert result.ok or (isinstance(result.message, str) and result.message)


@settings(share(3))
@given(json_values)
def test_arbitrary_json_values_never_raise(value: Any) -> None:
    result = read_manifest(json.dumps(value).encode(), "0.12.0")
    assert result.ok or (isinstance(result.message, str) and result.message)


@settings(share(4))
@given(st.dictionaries(field_names, json_values, max_size=5), st.sets(field_names, max_size=3),
       st.sampled_from(["0.12.0", "1.0.0", "0.12", "", "0.12.0\n"]),
       st.sampled_from([None, "position-value", "chance-collapse", "move-prerank", "nonsense"]))
def test_mutated_manifests_never_raise(changes: dict[str, Any], removed: set[str], version: str,
                                       role: str | None) -> None:
    doc = {k: v for k, v in BASE.items() if k not in removed}
    doc.update(changes)
    result = read_manifest(json.dumps(doc).encode(), version, role)
    assert (result.manifest is None) == (result.message is not None)


@settings(share(0.6), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=256) | json_values.map(lambda v: json.dumps(v).encode()))
def test_package_loading_never_raises(tmp_path: Path, data: bytes) -> None:
    (tmp_path / "model.onnx").write_bytes(b"\x08\x08")
    (tmp_path / "manifest.json").write_bytes(data)
    result = ModelPackage.load(tmp_path, "0.12.0")
    assert isinstance(result, ModelPackage | Refusal)
