"""``validate --discover`` (the pre-commit hook's command): every package of a repository is checked, a named
package that is gone fails, a package that lost its model or manifest is still found, and vendored copies of the
contract (whose fixtures are broken on purpose) are left to ``vendor --check``. Review 2026-12-04 C3."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from contract.core.resources import golden_dir
from contract.model.discovery import MAX_DEPTH, discover, named

ENGINE = ("--engine-version", "0.12.0")


def run(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).resolve().parents[2]),
                                                        os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-m", "contract", "validate", *args], cwd=cwd, capture_output=True,
                          text=True, check=False, timeout=300, env=env)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    shutil.copytree(golden_dir() / "example-package", tmp_path / "models" / "value")
    return tmp_path


def _break(package: Path) -> None:
    manifest = package / "manifest.json"
    document = json.loads(manifest.read_text(encoding="utf-8"))
    document["featureCount"] = 14
    manifest.write_text(json.dumps(document), encoding="utf-8")


def test_a_good_repository_passes_naming_each_package(repo: Path) -> None:
    done = run(repo, "--discover", *ENGINE)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("models/value: serving dicechess-contract-example-kcp13-value:"), done.stdout


def test_a_second_broken_package_fails_though_the_args_name_only_the_first(repo: Path) -> None:
    shutil.copytree(repo / "models" / "value", repo / "models" / "other")
    _break(repo / "models" / "other")
    done = run(repo, "--discover", "models/value", *ENGINE)
    assert done.returncode == 1
    assert "refusing to serve: models/other/manifest.json: featureCount 14 does not match" in done.stdout
    assert "models/value: serving" in done.stdout


@pytest.mark.parametrize("gone", ["model.onnx", "manifest.json"])
def test_a_package_that_lost_a_file_is_still_found_and_fails(repo: Path, gone: str) -> None:
    (repo / "models" / "value" / gone).unlink()
    done = run(repo, "--discover", *ENGINE)
    assert done.returncode == 1
    assert done.stdout.startswith(f"refusing to serve: models/value/{gone}: "), done.stdout


def test_a_named_package_that_is_gone_fails(repo: Path) -> None:
    shutil.rmtree(repo / "models" / "value")
    done = run(repo, "--discover", "models/value", *ENGINE)
    assert done.returncode == 1
    assert done.stdout == "refusing to serve: models/value: no such directory\n"


def test_validate_of_a_missing_directory_says_so(tmp_path: Path) -> None:
    done = run(tmp_path, "nonexist", *ENGINE)
    assert (done.returncode, done.stdout) == (1, "refusing to serve: nonexist: no such directory\n")
    (tmp_path / "file").write_text("x", encoding="utf-8")
    done = run(tmp_path, "file", *ENGINE)
    assert (done.returncode, done.stdout) == (1, "refusing to serve: file: not a directory\n")


def test_a_glob_that_names_no_package_fails_and_one_that_does_validates(repo: Path) -> None:
    assert run(repo, "--discover", "nothing/*", *ENGINE).stdout == (
        "refusing to serve: nothing/*: no package matches this pattern\n")
    assert run(repo, "--discover", "models/*", *ENGINE).returncode == 0


def test_vendored_copies_dot_directories_and_excluded_trees_are_skipped(repo: Path) -> None:
    for place in ("third_party/contract/golden/bad", ".cache/bad", "node_modules/x/bad", "tests/fixtures/bad"):
        shutil.copytree(repo / "models" / "value", repo / place)
        _break(repo / place)
    (repo / "third_party" / "contract" / "dicechess-contract.lock.json").write_text("{}", encoding="utf-8")
    assert run(repo, "--discover", *ENGINE).returncode == 1  # tests/fixtures/bad is a package like any other
    done = run(repo, "--discover", "--exclude", "tests/fixtures/*", *ENGINE)
    assert done.returncode == 0, done.stdout


def test_a_manifest_json_of_another_kind_is_not_a_package(repo: Path) -> None:
    (repo / "web").mkdir()
    (repo / "web" / "manifest.json").write_text('{"name": "app", "icons": []}', encoding="utf-8")
    assert run(repo, "--discover", *ENGINE).returncode == 0


def test_no_package_at_all_passes_and_says_so(tmp_path: Path) -> None:
    done = run(tmp_path, "--discover", *ENGINE)
    assert (done.returncode, done.stdout) == (0, "validate --discover: no model package below the current directory\n")


def test_a_symbolic_link_is_not_followed(repo: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    outside = tmp_path_factory.mktemp("outside")
    shutil.copytree(repo / "models" / "value", outside / "bad")
    _break(outside / "bad")
    (repo / "link").symlink_to(outside, target_is_directory=True)
    assert [str(p) for p in discover(repo).packages] == [str(repo / "models" / "value")]


def test_the_walk_is_bounded_in_depth(tmp_path: Path) -> None:
    deep = tmp_path.joinpath(*["d"] * (MAX_DEPTH + 2))
    deep.mkdir(parents=True)
    found = discover(tmp_path)
    assert found.refusal is not None and found.refusal.code == "package.discovery.tooDeep"
    assert found.refusal.message.endswith(f"deeper than {MAX_DEPTH} levels below the directory discovery started from")
    assert discover(tmp_path.joinpath(*["d"] * 3)).refusal is None


def test_json_and_model_options_keep_their_one_package_rule(repo: Path) -> None:
    assert run(repo, "--discover", "--json", *ENGINE).returncode == 2
    assert run(repo, "--exclude", "x", "models/value", *ENGINE).returncode == 2
    assert run(repo, "--discover", "--model", "a", "--manifest", "b", *ENGINE).returncode == 2


def test_named_refuses_a_file_in_a_package_place(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("", encoding="utf-8")
    listed = named([str(tmp_path / "f")])
    assert listed.refusal is not None and listed.refusal.code == "package.directory.notDirectory"
