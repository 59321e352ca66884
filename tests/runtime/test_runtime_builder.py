"""``package build``: round trips for every role, refusals that publish nothing, and interrupted builds."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from contract import builder
from contract.builder import PackageSpec, build_package, witness_version
from contract.package import ModelPackage
from contract.refusal import Refusal

ROLES = ["position-value", "chance-collapse", "move-prerank"]


def spec(model: Path, role: str = "position-value", **extra: object) -> PackageSpec:
    return PackageSpec(model=model, schema_id="kcp-13", role=role, engine_compatibility=">=0.12.0 <1.0.0",
                       model_id="m-1", **extra)  # type: ignore[arg-type]


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "contract", *args], capture_output=True, text=True, check=False)


@pytest.mark.parametrize("role", ROLES)
def test_build_then_validate_round_trips_for_every_role(tmp_path: Path, graphs: dict[str, Path], role: str) -> None:
    out = tmp_path / "pkg"
    done = cli("package", "build", "--model", str(graphs["value"]), "--schema", "kcp-13", "--role", role,
               "--engine-compatibility", ">=0.12.0 <1.0.0", "--model-id", "m-1", "--out", str(out),
               "--provenance", "run=abc", "--provenance", "seed=7")
    assert done.returncode == 0, done.stdout + done.stderr
    check = cli("validate", str(out), "--engine-version", "0.12.0", "--role", role, "--json")
    assert check.returncode == 0, check.stdout
    verdict = json.loads(check.stdout)
    assert verdict["modelRole"] == role
    assert verdict["manifestVersion"] == ("1.0.0" if role == "position-value" else "1.1.0")


def test_renamed_tensors_need_the_1_1_0_manifest(tmp_path: Path, graphs: dict[str, Path]) -> None:
    package = build_package(spec(graphs["renamed"]), tmp_path / "pkg")
    assert isinstance(package, ModelPackage)
    assert package.manifest.manifest_version == "1.1.0"
    assert (package.manifest.input_name, package.manifest.output_name) == ("features", "win_probability")


def test_manifest_text_is_canonical(tmp_path: Path, graphs: dict[str, Path]) -> None:
    build_package(spec(graphs["value"], calibration_temperature=1.0, provenance={"b": "2", "a": "1"}),
                  tmp_path / "pkg")
    text = (tmp_path / "pkg" / "manifest.json").read_text()
    doc = json.loads(text)
    assert text == json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    assert doc["calibration"] == {"temperature": 1.0}
    assert sorted((tmp_path / "pkg").iterdir()) == [tmp_path / "pkg" / "manifest.json", tmp_path / "pkg" / "model.onnx"]


def test_an_existing_directory_is_refused_and_left_alone(tmp_path: Path, graphs: dict[str, Path]) -> None:
    out = tmp_path / "pkg"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    result = build_package(spec(graphs["value"]), out)
    assert result == Refusal(f"refusing to overwrite {out}: it already exists")
    assert [p.name for p in out.iterdir()] == ["keep.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pkg"]


def test_a_static_batch_graph_publishes_nothing_and_keeps_the_failed_stage(tmp_path: Path,
                                                                           graphs: dict[str, Path]) -> None:
    out = tmp_path / "pkg"
    result = build_package(spec(graphs["static"]), out)
    assert isinstance(result, Refusal)
    assert not out.exists()
    (failed,) = [p for p in tmp_path.iterdir()]
    assert failed.name.startswith("pkg.failed-")
    assert result.message == (f"refusing to publish {out}: {failed / 'model.onnx'}: input 'input' must have shape "
                              "[batch,13] with a dynamic batch dimension; got [1,13]")
    assert (failed / "REFUSED.txt").read_text() == result.message.split(": ", 1)[1] + "\n"


def test_a_width_mis_wiring_is_caught_before_publishing(tmp_path: Path, graphs: dict[str, Path]) -> None:
    wrong = PackageSpec(model=graphs["value"], schema_id="kcp-mobility-27-v1", role="position-value",
                        engine_compatibility=">=0.12.0", model_id="m")
    result = build_package(wrong, tmp_path / "pkg")
    assert isinstance(result, Refusal) and result.message.endswith(
        "input 'input' must have shape [batch,27] with a dynamic batch dimension; got [batch,13]")
    assert not (tmp_path / "pkg").exists()


@pytest.mark.parametrize(("changes", "message"), [
    ({"role": "move-prerank", "calibration_temperature": 2.0},
     "a ranking score has nothing to calibrate; remove the calibration temperature"),
    ({"calibration_temperature": float("nan")}, "calibration temperature must be a finite number, got nan"),
    ({"engine_compatibility": ">=1.0.0 <0.5.0"}, "engineCompatibility '>=1.0.0 <0.5.0' admits no engine version"),
    ({"engine_compatibility": "~>1.0"},
     "invalid engineCompatibility '~>1.0'; expected space-separated comparators such as '>=0.12.0 <1.0.0'"),
    ({"model_id": "  "}, "modelId must not be blank"),
])
def test_refusals_before_staging(tmp_path: Path, graphs: dict[str, Path], changes: dict[str, object],
                                 message: str) -> None:
    base = {"model": graphs["value"], "schema_id": "kcp-13", "role": "position-value",
            "engine_compatibility": ">=0.12.0 <1.0.0", "model_id": "m"}
    base.update(changes)
    result = build_package(PackageSpec(**base), tmp_path / "pkg")  # type: ignore[arg-type]
    assert isinstance(result, Refusal) and result.message.endswith(message)
    assert not (tmp_path / "pkg").exists()
    assert not [p for p in tmp_path.iterdir() if not p.name.startswith("pkg.failed-")]


def test_witness_version() -> None:
    assert witness_version(">=0.12.0 <1.0.0") == "0.12.0"
    assert witness_version(">0.12.0 <0.12.2") == "0.12.1"
    assert witness_version("<0.5.0 >0.4.9") == "0.4.10"


def test_an_interrupted_build_publishes_nothing(tmp_path: Path, graphs: dict[str, Path],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(staged: Path, out: Path) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(builder, "_publish", interrupted)
    with pytest.raises(KeyboardInterrupt):
        build_package(spec(graphs["value"]), tmp_path / "pkg")
    assert list(tmp_path.iterdir()) == []


def test_a_builder_killed_between_staging_and_rename_leaves_no_package(tmp_path: Path,
                                                                        graphs: dict[str, Path]) -> None:
    out = tmp_path / "pkg"
    script = textwrap.dedent(f"""
        import os, signal
        from pathlib import Path
        from contract import builder
        def killed(staged, out):
            assert (staged / "manifest.json").is_file() and (staged / "model.onnx").is_file()
            os.kill(os.getpid(), signal.SIGKILL)
        builder._publish = killed
        builder.build_package(builder.PackageSpec(model=Path({str(graphs["value"])!r}), schema_id="kcp-13",
            role="position-value", engine_compatibility=">=0.12.0", model_id="m"), Path({str(out)!r}))
    """)
    done = subprocess.run([sys.executable, "-c", script], check=False)
    assert done.returncode == -9
    assert not out.exists()
    (leftover,) = list(tmp_path.iterdir())
    assert leftover.name.startswith(".pkg.tmp-")  # hidden staging, never the final name
    # A rerun publishes a complete package.
    package = build_package(spec(graphs["value"]), out)
    assert isinstance(package, ModelPackage)
