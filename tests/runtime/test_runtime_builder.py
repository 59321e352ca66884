"""``package build``: round trips for every role, refusals that publish nothing, and interrupted builds."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from budget import share
from hypothesis import given, settings
from hypothesis import strategies as st

from contract.core.refusal import Refusal
from contract.model import builder
from contract.model.builder import PackageSpec, build_package, service_cost, witness_version
from contract.model.compatibility import evaluate
from contract.model.package import ModelPackage

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


def test_a_position_value_graph_with_renamed_tensors_is_refused_before_staging(
        tmp_path: Path, graphs: dict[str, Path]) -> None:
    result = build_package(spec(graphs["renamed"]), tmp_path / "pkg")
    assert isinstance(result, Refusal)
    assert result.message == (
        f"refusing to publish {tmp_path / 'pkg'}: a position-value artifact cannot rename its tensors: 1.0.0 has "
        "no field for it and the evaluation service reads no other version; the graph's tensors are "
        "'features'/'win_probability' (rename them input/output, or opt in to a package the service cannot mount)")
    assert list(tmp_path.iterdir()) == []  # nothing published, nothing staged, nothing kept aside


@pytest.mark.parametrize("role", ["chance-collapse", "move-prerank"])
def test_other_roles_declare_renamed_tensors_in_1_1_0(tmp_path: Path, graphs: dict[str, Path], role: str) -> None:
    package = build_package(spec(graphs["renamed"], role=role), tmp_path / "pkg")
    assert isinstance(package, ModelPackage) and service_cost(package) is None
    assert package.manifest.manifest_version == "1.1.0"
    assert (package.manifest.input_name, package.manifest.output_name) == ("features", "win_probability")


def test_the_opt_in_writes_it_and_names_the_cost(tmp_path: Path, graphs: dict[str, Path]) -> None:
    package = build_package(spec(graphs["renamed"], allow_service_unmountable=True), tmp_path / "pkg")
    assert isinstance(package, ModelPackage)
    assert package.manifest.manifest_version == "1.1.0"
    assert service_cost(package) == (
        "manifest 1.1.0 position-value package with tensors 'features'/'win_probability': the evaluation service "
        "reads only manifest 1.0.0 and the tensors input/output, so it CANNOT MOUNT this package (it starts without "
        "a model); only the engine can load it")
    plain = build_package(spec(graphs["value"], allow_service_unmountable=True), tmp_path / "plain")
    assert isinstance(plain, ModelPackage) and plain.manifest.manifest_version == "1.0.0"
    assert service_cost(plain) is None  # the opt-in changes nothing for a graph the service can mount


def test_the_cli_refuses_renamed_value_tensors_unless_told_and_then_warns(
        tmp_path: Path, graphs: dict[str, Path]) -> None:
    args = ["package", "build", "--model", str(graphs["renamed"]), "--schema", "kcp-13", "--role",
            "position-value", "--engine-compatibility", ">=0.12.0 <1.0.0", "--model-id", "m-1"]
    refused = cli(*args, "--out", str(tmp_path / "pkg"))
    assert refused.returncode == 1 and "cannot rename its tensors" in refused.stdout
    assert list(tmp_path.iterdir()) == []
    forced = cli(*args, "--out", str(tmp_path / "pkg"), "--allow-service-unmountable")
    assert forced.returncode == 0, forced.stdout + forced.stderr
    assert forced.stderr.startswith("WARNING: manifest 1.1.0 position-value package with tensors "
                                    "'features'/'win_probability'")
    assert "CANNOT MOUNT" in forced.stderr
    assert json.loads((tmp_path / "pkg" / "manifest.json").read_text())["manifestVersion"] == "1.1.0"


def test_manifest_text_is_canonical(tmp_path: Path, graphs: dict[str, Path]) -> None:
    build_package(spec(graphs["value"], calibration_temperature=1.0, provenance={"b": "2", "a": "1"}),
                  tmp_path / "pkg")
    text = (tmp_path / "pkg" / "manifest.json").read_text()
    doc = json.loads(text)
    assert text == json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    assert doc["calibration"] == {"temperature": 1.0}
    assert sorted(p.name for p in (tmp_path / "pkg").iterdir()) == ["manifest.json", "model-card.md", "model.onnx"]


def test_an_existing_directory_is_refused_and_left_alone(tmp_path: Path, graphs: dict[str, Path]) -> None:
    out = tmp_path / "pkg"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    result = build_package(spec(graphs["value"]), out)
    assert result == Refusal(f"refusing to overwrite {out}: it already exists", "builder.destination.exists")
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
    reason = (f"{graphs['static']}: input 'input' must have shape [batch,13] with a dynamic batch dimension; "
              "got [1,13]")
    assert result.message == f"refusing to publish {out}: {reason}"  # the user's --model, not the kit's copy
    assert (failed / "REFUSED.txt").read_text() == reason + "\n"


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


@pytest.mark.slow
def test_a_builder_killed_between_staging_and_rename_leaves_no_package(tmp_path: Path,
                                                                        graphs: dict[str, Path]) -> None:
    out = tmp_path / "pkg"
    script = textwrap.dedent(f"""
        import os, signal
        from pathlib import Path
        from contract.model import builder
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


def _nothing_but(directory: Path, *names: str) -> bool:
    return sorted(p.name for p in directory.iterdir()) == sorted(names)


def test_a_name_the_filesystem_cannot_hold_is_refused_and_leaves_nothing(tmp_path: Path,
                                                                        graphs: dict[str, Path]) -> None:
    out = tmp_path / ("p" * 250)  # fits NAME_MAX (255), but its staging sibling does not
    result = build_package(spec(graphs["value"]), out)
    assert isinstance(result, Refusal)
    assert result.message.startswith(f"refusing to publish {out}: ")
    assert result.message.endswith(": File name too long")
    assert _nothing_but(tmp_path)


def test_a_write_that_fails_midway_is_refused_and_the_stage_removed(tmp_path: Path, graphs: dict[str, Path],
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    import errno
    import os

    def full_disk(fd: int) -> None:  # the disk fills when the staged model is flushed: no file name given
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr("contract.core.stagedfile.os.fsync", full_disk)
    out = tmp_path / "pkg"
    result = build_package(spec(graphs["value"]), out)
    assert isinstance(result, Refusal)
    assert result.message.startswith(f"refusing to publish {out}: {tmp_path}/.pkg.tmp-")
    assert result.message.endswith("/model.onnx: No space left on device")
    assert _nothing_but(tmp_path)


def test_a_destination_created_during_the_build_is_not_replaced(tmp_path: Path, graphs: dict[str, Path],
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    out = tmp_path / "pkg"
    real_rename = os.rename

    def racing_rename(source: Path, target: Path) -> None:
        if Path(target) == out:  # another process publishes first, between the last check and rename(2)
            out.mkdir()
            (out / "theirs.txt").write_text("theirs")
        real_rename(source, target)

    monkeypatch.setattr(os, "rename", racing_rename)
    result = build_package(spec(graphs["value"]), out)
    assert result == Refusal(f"refusing to overwrite {out}: it already exists", "builder.destination.exists")
    assert _nothing_but(out, "theirs.txt")
    assert _nothing_but(tmp_path, "pkg")


def test_text_that_is_not_unicode_is_refused_before_staging(tmp_path: Path, graphs: dict[str, Path]) -> None:
    import os

    model_id = os.fsdecode(b"m-\xff")  # what undecodable command-line bytes become: a lone surrogate
    base = spec(graphs["value"])
    result = build_package(PackageSpec(base.model, base.schema_id, base.role, base.engine_compatibility, model_id),
                           tmp_path / "pkg")
    assert result == Refusal(f"refusing to publish {tmp_path / 'pkg'}: field 'modelId' is not valid Unicode text "
                             "(it holds a lone surrogate)", "builder.field.notUnicode", "/modelId")
    assert _nothing_but(tmp_path)


def test_a_destination_path_that_is_not_utf8_is_published_and_its_refusals_written(
        tmp_path: Path, graphs: dict[str, Path]) -> None:
    import os

    out = tmp_path / os.fsdecode(b"pkg-\xff")
    assert isinstance(build_package(spec(graphs["value"]), out), ModelPackage)
    assert isinstance(ModelPackage.load(out, "0.12.0"), ModelPackage)
    refused = build_package(spec(graphs["static"]), tmp_path / os.fsdecode(b"static-\xff"))
    assert isinstance(refused, Refusal)
    (failed,) = [p for p in tmp_path.iterdir() if ".failed-" in p.name]
    assert str(failed) not in refused.message
    assert (failed / "REFUSED.txt").read_bytes().startswith(str(graphs["static"]).encode("utf-8", "backslashreplace"))


@pytest.mark.parametrize(("version", "expected"), [
    ("0.11.0", Refusal("engineCompatibility '>=0.12.0 <1.0.0' does not include engine version '0.11.0'",
                       "engineCompatibility.excluded", "/engineCompatibility")),
    ("0.12", Refusal("invalid engine version: invalid semantic version '0.12'; expected MAJOR.MINOR.PATCH",
                     "engineCompatibility.engineVersion.syntax")),
])
def test_a_host_version_the_constraint_refuses_is_refused_before_staging(tmp_path: Path, graphs: dict[str, Path],
                                                                         version: str, expected: Refusal) -> None:
    result = build_package(spec(graphs["value"]), tmp_path / "pkg", engine_version=version)
    assert result == expected.prefixed(f"refusing to publish {tmp_path / 'pkg'}")
    assert _nothing_but(tmp_path)


@pytest.mark.parametrize("temperature", [0.0, -0.0, -1.0])
def test_a_temperature_that_is_not_positive_is_refused(tmp_path: Path, graphs: dict[str, Path],
                                                       temperature: float) -> None:
    result = build_package(spec(graphs["value"], calibration_temperature=temperature), tmp_path / "pkg")
    assert result == Refusal(f"refusing to publish {tmp_path / 'pkg'}: calibration temperature must be greater "
                             f"than 0, got {temperature}", "builder.calibration.notPositive",
                             "/calibration/temperature")
    assert _nothing_but(tmp_path)


def test_what_is_published_is_synced_before_and_after_the_rename(tmp_path: Path, graphs: dict[str, Path],
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    events: list[str] = []
    real_fsync, real_rename = os.fsync, os.rename

    def fsync(fd: int) -> None:
        events.append("sync " + os.readlink(f"/proc/self/fd/{fd}"))
        real_fsync(fd)

    def rename(source: Path, target: Path) -> None:
        events.append(f"rename {target}")
        real_rename(source, target)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "rename", rename)
    out = tmp_path / "pkg"
    assert isinstance(build_package(spec(graphs["value"]), out), ModelPackage)
    published = events.index(f"rename {out}")
    before = [e.rsplit("/", 1)[-1] for e in events[:published] if e.startswith("sync ")]
    assert any(e.startswith(".model.onnx.tmp-") for e in before)                      # the model, before its rename
    assert any(e.startswith(".pkg.tmp-") for e in before)                             # the stage
    assert any(e.startswith(".manifest.json.tmp-") for e in before)                   # the manifest, before its rename
    assert events[published + 1:] == [f"sync {tmp_path}"]                              # the directory holding the name


def test_repeated_provenance_keys_are_a_usage_error(tmp_path: Path, graphs: dict[str, Path]) -> None:
    done = cli("package", "build", "--model", str(graphs["value"]), "--schema", "kcp-13", "--role", "position-value",
               "--engine-compatibility", ">=0.12.0", "--model-id", "m", "--out", str(tmp_path / "pkg"),
               "--provenance", "run=a", "--provenance", "run=b")
    assert done.returncode == 2
    assert done.stderr.endswith("error: --provenance run given more than once\n")
    assert _nothing_but(tmp_path)


def test_a_failed_sync_after_the_rename_still_reports_the_published_package(
        tmp_path: Path, graphs: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    out = tmp_path / "pkg"
    real_sync = builder.sync_path

    def sync(path: Path) -> None:
        if path == tmp_path:  # the parent, synced only after the rename has published the package
            raise OSError(errno.EIO, "Input/output error")
        real_sync(path)

    monkeypatch.setattr(builder, "sync_path", sync)
    assert isinstance(build_package(spec(graphs["value"]), out), ModelPackage)
    assert _nothing_but(tmp_path, "pkg")


_SMALL = st.sampled_from(["0", "1", "2", "3"])
_SMALL_CONSTRAINTS = st.lists(
    st.builds(lambda op, a, b, c: f"{op}{a}.{b}.{c}", st.sampled_from(["", "=", ">", ">=", "<", "<="]),
              _SMALL, _SMALL, _SMALL), min_size=1, max_size=4).map(" ".join)


@settings(share(3))
@given(_SMALL_CONSTRAINTS)
def test_the_witness_is_the_lowest_version_the_evaluator_admits(constraint: str) -> None:
    # Brute force over every version with components 0-4: with bounds of 0-3 the lowest admitted
    # version (0.0.0, a bound, or a bound's successor) always lies there, so this is exact.
    admitted = [f"{a}.{b}.{c}" for a in range(5) for b in range(5) for c in range(5)
                if evaluate(constraint, f"{a}.{b}.{c}").ok]
    witness = witness_version(constraint)
    if admitted:
        assert witness == admitted[0]
    else:
        assert witness == Refusal(f"engineCompatibility '{constraint}' admits no engine version",
                                   "builder.compatibility.empty", "/engineCompatibility")


def test_a_long_constraint_gets_its_witness_in_one_pass() -> None:
    # 1000 distinct lower bounds: trying each bound's neighbours with a full evaluation per try took
    # a minute here; the interval is computed in one pass over the comparators.
    constraint = " ".join(f">=0.{i}.0" for i in range(1000)) + " <1.0.0"
    assert witness_version(constraint) == "0.999.0"


@pytest.mark.parametrize("as_json", [False, True])
def test_the_cli_names_the_kept_copy_of_a_refused_build(tmp_path: Path, graphs: dict[str, Path],
                                                         as_json: bool) -> None:
    """A refused build is kept as DIR.failed-HEX: the console says where, on stderr (stdout keeps its one line or
    one JSON object); a copy kept by an earlier refusal is not named again."""
    out = tmp_path / "pkg"
    earlier = tmp_path / "pkg.failed-00000000"
    earlier.mkdir()
    done = cli("package", "build", "--model", str(graphs["static"]), "--schema", "kcp-13", "--role",
               "position-value", "--engine-compatibility", ">=0.12.0 <1.0.0", "--model-id", "m-1", "--out", str(out),
               *(["--json"] if as_json else []))
    assert done.returncode == 1
    (kept,) = [p for p in tmp_path.iterdir() if p.name.startswith("pkg.failed-") and p != earlier]
    assert done.stderr == f"the refused build is kept as {kept} (REFUSED.txt says why); remove it when done\n"
    assert (kept / "REFUSED.txt").is_file()
    if as_json:
        assert json.loads(done.stdout)["ok"] is False
    else:
        assert done.stdout.startswith(f"refusing to publish {out}: ")
