"""Package loading (§4.1 steps 1, 2, 7, path prefixes) and the engine's verdict on each reference manifest."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from contract.core.refusal import Refusal
from contract.model.package import ModelPackage
from contract.model.scoring import Scorer, ScoringError

# Reference manifest -> the graph it describes (spec/contract.md §8.1).
PAIRS = {
    "value": "value",
    "value_legacy": "value",
    "collapse": "value",
    "prerank": "value",
    "renamed_tensors": "renamed",
    "static_batch": "static",
}


def _load(graphs: dict[str, Path], manifests: Path, name: str, role: str | None = None) -> ModelPackage | Refusal:
    return ModelPackage.load_files(graphs[PAIRS[name]], manifests / f"synthetic_kcp13_{name}_manifest.json",
                                   "0.12.0", role)


@pytest.mark.parametrize("name", ["value", "value_legacy", "collapse", "prerank", "renamed_tensors", "static_batch"])
def test_every_reference_manifest_loads_with_its_graph(graphs: dict[str, Path], manifests: Path, name: str) -> None:
    assert isinstance(_load(graphs, manifests, name), ModelPackage)


@pytest.mark.parametrize(("name", "role"), [("value", "position-value"), ("value_legacy", "position-value"),
                                            ("collapse", "chance-collapse"), ("prerank", "move-prerank")])
def test_each_role_serves_as_itself(graphs: dict[str, Path], manifests: Path, name: str, role: str) -> None:
    package = _load(graphs, manifests, name, role)
    assert isinstance(package, ModelPackage) and package.manifest.model_role == role


def test_static_batch_is_refused_when_the_session_opens(graphs: dict[str, Path], manifests: Path) -> None:
    package = _load(graphs, manifests, "static_batch")
    assert isinstance(package, ModelPackage)
    scorer = Scorer.from_package(package)
    assert isinstance(scorer, Refusal)
    assert scorer.message == "input 'input' must have shape [batch,13] with a dynamic batch dimension; got [1,13]"


def test_renamed_tensors_load_and_score_like_the_default_model(graphs: dict[str, Path], manifests: Path) -> None:
    renamed = _load(graphs, manifests, "renamed_tensors")
    value = _load(graphs, manifests, "value")
    assert isinstance(renamed, ModelPackage) and isinstance(value, ModelPackage)
    assert (renamed.manifest.input_name, renamed.manifest.output_name) == ("features", "win_probability")
    rows = np.random.default_rng(7).normal(size=(9, 13)).astype(np.float32)
    a, b = Scorer.from_package(renamed), Scorer.from_package(value)
    assert isinstance(a, Scorer) and isinstance(b, Scorer)
    assert np.array_equal(a.score(rows), b.score(rows))


def test_scoring_refuses_bad_batches(graphs: dict[str, Path], manifests: Path) -> None:
    package = _load(graphs, manifests, "value")
    assert isinstance(package, ModelPackage)
    scorer = Scorer.from_package(package)
    assert isinstance(scorer, Scorer)
    with pytest.raises(ScoringError, match=r"^features must be \[n,13\], got \[2, 12\]$"):
        scorer.score(np.zeros((2, 12), np.float32))
    with pytest.raises(ScoringError, match=r"^features must be float32, got float64$"):
        scorer.score(np.zeros((2, 13)))
    with pytest.raises(ScoringError, match=r"^features contain a non-finite value$"):
        scorer.score(np.full((1, 13), np.nan, np.float32))
    assert scorer.score(np.zeros((0, 13), np.float32)).shape == (0,)


def test_a_model_whose_output_is_not_finite_is_refused(tmp_path: Path) -> None:
    from runtime_graphs import build

    from contract.core.regularfile import sha256_file
    from contract.model.manifest import read_manifest

    model = tmp_path / "model.onnx"
    model.write_bytes(build())  # output = 0.5 * sum(input): overflows to inf for huge inputs
    text = json.dumps({"manifestVersion": "1.1.0", "modelId": "m", "modelSha256": sha256_file(model),
                       "modelRole": "position-value", "featureSchema": "kcp-13", "featureCount": 13,
                       "perspective": "side-to-move", "engineCompatibility": ">=0.12.0"})
    (tmp_path / "manifest.json").write_text(text)
    assert read_manifest(text, "0.12.0").ok
    package = ModelPackage.load(tmp_path, "0.12.0")
    assert isinstance(package, ModelPackage)
    scorer = Scorer.from_package(package)
    assert isinstance(scorer, Scorer)
    with pytest.raises(ScoringError, match=r"^ONNX output contains a non-finite value$"):
        scorer.score(np.full((1, 13), 3e38, np.float32))


def test_missing_model_is_refused_first(tmp_path: Path, manifests: Path) -> None:
    result = ModelPackage.load(tmp_path, "0.12.0")
    assert result == Refusal(f"{tmp_path / 'model.onnx'}: model file not readable",
                                                            "package.model.unreadable")


def test_a_directory_is_not_a_readable_model(tmp_path: Path, manifests: Path) -> None:
    (tmp_path / "model.onnx").mkdir()
    shutil.copy(manifests / "synthetic_kcp13_value_manifest.json", tmp_path / "manifest.json")
    assert ModelPackage.load(tmp_path, "0.12.0") == Refusal(f"{tmp_path / 'model.onnx'}: model file not readable",
                                                            "package.model.unreadable")


def test_missing_manifest_is_refused(tmp_path: Path, graphs: dict[str, Path]) -> None:
    shutil.copy(graphs["value"], tmp_path / "model.onnx")
    assert ModelPackage.load(tmp_path, "0.12.0") == Refusal(
        f"{tmp_path / 'manifest.json'}: manifest file not readable", "package.manifest.unreadable")


def test_an_oversized_manifest_is_refused_before_parsing(tmp_path: Path, graphs: dict[str, Path]) -> None:
    shutil.copy(graphs["value"], tmp_path / "model.onnx")
    (tmp_path / "manifest.json").write_bytes(b" " * (1024 * 1024 + 1))
    assert ModelPackage.load(tmp_path, "0.12.0") == Refusal(
        f"{tmp_path / 'manifest.json'}: manifest file is larger than 1048576 bytes", "package.manifest.tooLarge")


def test_manifest_messages_carry_the_manifest_path(tmp_path: Path, graphs: dict[str, Path]) -> None:
    shutil.copy(graphs["value"], tmp_path / "model.onnx")
    (tmp_path / "manifest.json").write_text("[1, 2]")
    assert ModelPackage.load(tmp_path, "0.12.0") == Refusal(
        f"{tmp_path / 'manifest.json'}: manifest must be a JSON object", "manifest.notObject")


def test_digest_mismatch_names_both_digests(tmp_path: Path, graphs: dict[str, Path], manifests: Path) -> None:
    result = ModelPackage.load_files(graphs["renamed"], manifests / "synthetic_kcp13_value_manifest.json", "0.12.0")
    assert result == Refusal(
        f"{graphs['renamed']}: model SHA-256 mismatch: manifest "
        "e078ff34038d02b504b1d9a68535f88d6860ef1ce464a9168bc3db5b7950d980, file "
        "b368eec5dc8c72330566a75f444de4edaf231650204a53afa934679c40a539da",
        "package.model.sha256Mismatch", "/modelSha256",
    )


def test_an_upper_case_digest_verifies(tmp_path: Path, graphs: dict[str, Path], manifests: Path) -> None:
    text = (manifests / "synthetic_kcp13_value_manifest.json").read_text()
    digest = "e078ff34038d02b504b1d9a68535f88d6860ef1ce464a9168bc3db5b7950d980"
    (tmp_path / "manifest.json").write_text(text.replace(digest, digest.upper()))
    shutil.copy(graphs["value"], tmp_path / "model.onnx")
    assert isinstance(ModelPackage.load(tmp_path, "0.12.0"), ModelPackage)


def test_the_digest_is_checked_before_the_graph_is_opened(tmp_path: Path, manifests: Path) -> None:
    # A model that is not a graph at all is refused by digest, never by a graph parser.
    (tmp_path / "model.onnx").write_bytes(b"garbage")
    shutil.copy(manifests / "synthetic_kcp13_value_manifest.json", tmp_path / "manifest.json")
    result = ModelPackage.load(tmp_path, "0.12.0")
    assert isinstance(result, Refusal) and "model SHA-256 mismatch" in result.message


def test_a_manifest_that_cannot_be_read_is_refused_with_the_io_message(
        tmp_path: Path, graphs: dict[str, Path], manifests: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import contract.model.package as package_module

    shutil.copy(graphs["value"], tmp_path / "model.onnx")
    shutil.copy(manifests / "synthetic_kcp13_value_manifest.json", tmp_path / "manifest.json")
    real_open = package_module.open_regular

    def failing_open(path: Path) -> object:
        if str(path).endswith("manifest.json"):
            raise OSError(5, "Input/output error")
        return real_open(path)

    monkeypatch.setattr(package_module, "open_regular", failing_open)
    assert ModelPackage.load(tmp_path, "0.12.0") == Refusal(
        f"{tmp_path / 'manifest.json'}: cannot be read: Input/output error", "package.manifest.readError")


def test_a_model_that_cannot_be_digested_is_refused_with_the_io_message(
        tmp_path: Path, graphs: dict[str, Path], manifests: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import contract.model.package as package_module

    shutil.copy(graphs["value"], tmp_path / "model.onnx")
    shutil.copy(manifests / "synthetic_kcp13_value_manifest.json", tmp_path / "manifest.json")

    def failing_digest(path: Path, root: Path | None = None) -> bytes:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(package_module, "read_model", failing_digest)
    model = tmp_path / "model.onnx"
    assert ModelPackage.load(tmp_path, "0.12.0") == Refusal(f"{model}: cannot digest {model}: Input/output error",
                                                                    "package.model.digestError")


def test_scoring_refuses_ragged_rows_and_a_closed_scorer(graphs: dict[str, Path], manifests: Path) -> None:
    package = _load(graphs, manifests, "value")
    assert isinstance(package, ModelPackage)
    scorer = Scorer.from_package(package)
    assert isinstance(scorer, Scorer)
    ragged = [[0.0] * 13, [0.0] * 12]
    with pytest.raises(ValueError) as numpy_says:
        np.asarray(ragged)
    with pytest.raises(ScoringError) as caught:
        scorer.score(ragged)
    assert (str(caught.value), caught.value.code) == (f"features are not an array: {numpy_says.value}",
                                                      "scoring.features.notArray")
    scorer.close()
    with pytest.raises(ScoringError) as caught:
        scorer.score(np.zeros((1, 13), np.float32))
    assert (str(caught.value), caught.value.code) == ("the scorer is closed", "scoring.closed")


@pytest.mark.parametrize("which", ["manifest", "model"])
def test_a_fifo_swapped_in_after_the_readability_check_does_not_hang(tmp_path: Path, graphs: dict[str, Path],
                                                                    manifests: Path, which: str) -> None:
    # Readability is checked before the file is opened; a FIFO put in its place in between must be
    # refused, not waited on. The check is made to pass so that the open meets the FIFO.
    import os
    import subprocess
    import sys
    import textwrap

    shutil.copy(graphs["value"], tmp_path / "model.onnx")
    shutil.copy(manifests / "synthetic_kcp13_value_manifest.json", tmp_path / "manifest.json")
    fifo = tmp_path / f"{which}.fifo"
    os.mkfifo(fifo)
    model = fifo if which == "model" else tmp_path / "model.onnx"
    manifest = fifo if which == "manifest" else tmp_path / "manifest.json"
    script = textwrap.dedent(f"""
        import contract.model.package as package
        package._readable_file = lambda path: True
        print(package.ModelPackage.load_files({str(model)!r}, {str(manifest)!r}, "0.12.0").message)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False)
    expected = (f"{fifo}: cannot be read: not a regular file" if which == "manifest"
                else f"{fifo}: cannot digest {fifo}: not a regular file")
    assert done.stdout == expected + "\n", done.stderr


@pytest.mark.parametrize(("given", "shown"), [
    ("./pkg", "./pkg/manifest.json"),        # the JVM keeps ./ (pathlib would drop it)
    ("pkg//", "pkg/manifest.json"),          # redundant and trailing slashes go
    ("./pkg/.", "./pkg/./manifest.json"),    # '.' components stay
])
def test_paths_are_rendered_as_the_jvm_renders_them(tmp_path: Path, graphs: dict[str, Path],
                                                    monkeypatch: pytest.MonkeyPatch, given: str, shown: str) -> None:
    (tmp_path / "pkg").mkdir()
    shutil.copy(graphs["value"], tmp_path / "pkg" / "model.onnx")
    (tmp_path / "pkg" / "manifest.json").write_text("[1, 2]")
    monkeypatch.chdir(tmp_path)
    assert ModelPackage.load(given, "0.12.0") == Refusal(f"{shown}: manifest must be a JSON object", "manifest.notObject")
    assert ModelPackage.load_files("./pkg//model.onnx", given + "/manifest.json", "0.12.0") == Refusal(
        f"{shown}: manifest must be a JSON object", "manifest.notObject")


def test_an_empty_directory_path_resolves_as_on_the_jvm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert ModelPackage.load("", "0.12.0") == Refusal("model.onnx: model file not readable", "package.model.unreadable")


def test_any_array_layout_scores_as_its_contiguous_copy(graphs: dict[str, Path], manifests: Path) -> None:
    package = _load(graphs, manifests, "value")
    assert isinstance(package, ModelPackage)
    scorer = Scorer.from_package(package)
    assert isinstance(scorer, Scorer)
    wide = np.random.default_rng(3).normal(size=(12, 26)).astype(np.float32)
    read_only = np.ascontiguousarray(wide[:, :13])
    read_only.setflags(write=False)
    for layout in (wide[:, ::2], wide[::-2, 1::2], np.asfortranarray(wide[:, :13]), read_only):
        assert np.array_equal(scorer.score(layout), scorer.score(np.ascontiguousarray(layout)))


def test_a_fifo_swapped_in_between_the_type_check_and_the_open_is_refused_not_waited_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The narrowest window: the path is a regular file when stat'ed and a FIFO when opened. Only a
    # non-blocking open survives it; a blocking one waits for a writer forever (_open_guarded
    # plays the writer after 10 s so that such a failure ends).
    import errno
    import os

    target = tmp_path / "model.onnx"
    target.write_bytes(b"graph")
    real_open = os.open

    def swap_then_open(path: Any, *args: Any, **kwargs: Any) -> int:
        if str(path) == str(target) and not target.is_fifo():
            target.unlink()
            os.mkfifo(target)
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", swap_then_open)
    error = _open_guarded(target)
    assert isinstance(error, OSError)
    assert (error.errno, error.strerror, error.filename) == (errno.EINVAL, "not a regular file", str(target))


def _open_guarded(path: Path) -> object:
    """open_regular(path)'s result or OSError, failing (not hanging) if it waits on a FIFO for 10 s."""
    import threading

    from contract.core.regularfile import open_regular

    outcome: list[object] = []

    def attempt() -> None:
        try:
            outcome.append(open_regular(path))
        except OSError as exc:
            outcome.append(exc)

    worker = threading.Thread(target=attempt, daemon=True)
    worker.start()
    worker.join(10)
    if worker.is_alive():
        with open(path, "wb"):  # release the blocked open
            pass
        worker.join(10)
        raise AssertionError(f"open_regular waited on {path}")
    (result,) = outcome
    return result


@pytest.mark.parametrize("nonblocking", [True, False], ids=["with-o-nonblock", "without-o-nonblock"])
def test_a_regular_file_opens_blocking_and_reads_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       nonblocking: bool) -> None:
    import os

    if not nonblocking:
        monkeypatch.delattr(os, "O_NONBLOCK")  # as on Windows
    target = tmp_path / "model.onnx"
    target.write_bytes(b"graph bytes")
    handle = _open_guarded(target)
    assert not isinstance(handle, OSError), handle
    with handle as opened:  # type: ignore[attr-defined]
        assert os.get_blocking(opened.fileno())  # whatever the open used, reads block as a reader expects
        assert opened.read() == b"graph bytes"


def test_without_o_nonblock_a_fifo_is_refused_before_the_open(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import errno
    import os

    monkeypatch.delattr(os, "O_NONBLOCK")
    fifo = tmp_path / "model.onnx"
    os.mkfifo(fifo)
    error = _open_guarded(fifo)
    assert isinstance(error, OSError)
    assert (error.errno, error.strerror, error.filename) == (errno.EINVAL, "not a regular file", str(fifo))



def _package_dir(directory: Path, graphs: dict[str, Path], manifests: Path, padded_to: int | None = None) -> Path:
    directory.mkdir()
    shutil.copy(graphs["value"], directory / "model.onnx")
    text = (manifests / "synthetic_kcp13_value_manifest.json").read_bytes()
    (directory / "manifest.json").write_bytes(text if padded_to is None else text + b" " * (padded_to - len(text)))
    return directory


def test_a_loaded_package_keeps_the_paths_as_the_caller_wrote_them(tmp_path: Path, graphs: dict[str, Path],
                                                                    manifests: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _package_dir(tmp_path / "pkg", graphs, manifests)
    monkeypatch.chdir(tmp_path)
    package = ModelPackage.load("./pkg", "0.12.0")
    assert isinstance(package, ModelPackage)
    assert (package.model_text, package.manifest_text) == ("./pkg/model.onnx", "./pkg/manifest.json")


def test_a_manifest_of_exactly_the_size_limit_is_read(tmp_path: Path, graphs: dict[str, Path], manifests: Path) -> None:
    directory = _package_dir(tmp_path / "pkg", graphs, manifests, padded_to=1024 * 1024)
    assert (directory / "manifest.json").stat().st_size == 1024 * 1024
    assert isinstance(ModelPackage.load(directory, "0.12.0"), ModelPackage)


def test_load_checks_the_role_the_caller_expects(tmp_path: Path, graphs: dict[str, Path], manifests: Path) -> None:
    directory = _package_dir(tmp_path / "pkg", graphs, manifests)
    assert ModelPackage.load(directory, "0.12.0", "chance-collapse") == Refusal(
        f"{directory / 'manifest.json'}: modelRole 'position-value' cannot serve as 'chance-collapse'",
        "manifest.modelRole.cannotServe", "/modelRole")
    assert isinstance(ModelPackage.load(directory, "0.12.0", "position-value"), ModelPackage)


def test_a_trailing_slash_is_dropped_from_a_short_path_and_the_root_gets_one_slash(
        tmp_path: Path, manifests: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The JVM's Path.toString drops a trailing slash from any path longer than "/" itself, and resolving
    a name against "/" gives "/name"."""
    (tmp_path / "d").mkdir()
    monkeypatch.chdir(tmp_path)
    assert ModelPackage.load_files("d/", manifests / "synthetic_kcp13_value_manifest.json", "0.12.0") == Refusal(
        "d: model file not readable", "package.model.unreadable")
    assert ModelPackage.load("/", "0.12.0") == Refusal("/model.onnx: model file not readable", "package.model.unreadable")


def test_a_path_that_cannot_be_looked_at_is_an_unreadable_file(tmp_path: Path) -> None:
    """A name the file system refuses to look up (a component over 255 bytes: the look-up itself fails with
    ENAMETOOLONG rather than 'no such file') is not a readable file: the same refusal as a missing one."""
    from contract.core.resources import golden_dir

    example = golden_dir() / "example-package"
    long_name = tmp_path / ("a" * 300) / "model.onnx"
    assert ModelPackage.load_files(long_name, example / "manifest.json", "0.12.0") == Refusal(
        f"{long_name}: model file not readable", "package.model.unreadable")
    assert ModelPackage.load_files(example / "model.onnx", long_name, "0.12.0") == Refusal(
        f"{long_name}: manifest file not readable", "package.manifest.unreadable")


def test_a_path_that_cannot_be_resolved_is_not_inside_the_package(tmp_path: Path) -> None:
    """Fail closed: a name no file can have (a NUL character) cannot be shown to stay inside the directory."""
    from contract.model.package import _inside

    assert _inside(tmp_path / "model.onnx", tmp_path)
    assert not _inside(tmp_path / "a\0b", tmp_path)
    assert not _inside(tmp_path, tmp_path)  # the directory itself is no file inside it
