"""The kit's ``.pre-commit-hooks.yaml``, run by pre-commit itself (PyPI) on a scratch git repository that
uses the kit as a hook repository: both hooks pass on a good repository and fail, naming the file, on a
bad one. pre-commit installs the kit from its git history (the commit checked out here) into its own
environment, as a user's repository would. The validate hook cannot be bypassed (review 2026-12-04 C3): a
commit deleting a package's model, a commit deleting a package the hook names, a second broken package the
hook's args do not name, and `pre-commit run --all-files` in CI each fail with the kit's message."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from contract.core.resources import data_root, golden_dir, is_checkout

pytestmark = pytest.mark.slow  # pre-commit builds an environment with the kit and its dependencies


def _git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True, timeout=120).stdout


@pytest.fixture(scope="module")
def kit_commit() -> str:
    if not is_checkout() or not (data_root() / ".git").exists():
        pytest.skip("needs the kit as a git checkout (pre-commit installs hooks from git)")
    return _git(data_root(), "rev-parse", "HEAD").strip()


def _scratch(tmp_path: Path, commit: str) -> Path:
    repo = tmp_path / "user-repo"
    repo.mkdir()
    _git(repo, "init", "-q")
    _git(repo, "config", "user.email", "ci@example.invalid")
    _git(repo, "config", "user.name", "ci")
    shutil.copytree(golden_dir() / "example-package", repo / "models" / "value")
    subprocess.run([sys.executable, "-m", "contract", "vendor", str(repo / "third_party" / "contract")],
                   check=True, capture_output=True, timeout=300)
    (repo / ".pre-commit-config.yaml").write_text(json.dumps({"repos": [{
        "repo": str(data_root()), "rev": commit, "hooks": [
            {"id": "dicechess-contract-validate", "args": ["models/value", "--engine-version", "0.12.0"]},
            {"id": "dicechess-contract-vendor-check", "args": ["third_party/contract"]},
        ]}]}), encoding="utf-8")  # JSON is YAML
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "packages")
    return repo


def _binary() -> str:
    binary = shutil.which("pre-commit", path=str(Path(sys.executable).parent)) or shutil.which("pre-commit")
    if binary is None:
        pytest.fail("pre-commit is a test dependency (pyproject's test extra) and is not installed")
    return binary


def _env(home: Path) -> dict[str, str]:
    env = {**os.environ, "PRE_COMMIT_HOME": str(home)}
    env.pop("VIRTUAL_ENV", None)
    return env


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One pre-commit home for the module: the hook environment (the kit and its dependencies) is built once."""
    return tmp_path_factory.mktemp("pre-commit-home")


def _pre_commit(repo: Path, home: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([_binary(), "run", "--all-files", "--color", "never"], cwd=repo, env=_env(home),
                          capture_output=True, text=True, check=False, timeout=1800)


def _commit(repo: Path, home: Path, message: str) -> subprocess.CompletedProcess[str]:
    """``git commit`` with the hooks installed, as a developer commits."""
    subprocess.run([_binary(), "install"], cwd=repo, env=_env(home), capture_output=True, check=True, timeout=300)
    return subprocess.run(["git", "commit", "-m", message], cwd=repo, env=_env(home), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, check=False, timeout=1800)


def test_the_hooks_pass_on_a_good_repository_and_name_the_file_on_a_bad_one(
        tmp_path: Path, kit_commit: str, home: Path) -> None:
    repo = _scratch(tmp_path, kit_commit)
    good = _pre_commit(repo, home)
    assert good.returncode == 0, good.stdout + good.stderr
    assert "dicechess-contract validate" in good.stdout and "dicechess-contract vendor --check" in good.stdout

    manifest = repo / "models" / "value" / "manifest.json"
    document = json.loads(manifest.read_text(encoding="utf-8"))
    document["featureCount"] = 14
    manifest.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    edited = repo / "third_party" / "contract" / "schema" / "feature-schemas.json"
    edited.write_bytes(edited.read_bytes() + b" ")
    bad = _pre_commit(repo, home)
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "refusing to serve: models/value/manifest.json: featureCount 14" in bad.stdout, bad.stdout
    assert "FAIL third_party/contract/schema/feature-schemas.json: edited" in bad.stdout, bad.stdout


def test_deleting_a_model_fails_the_commit(tmp_path: Path, kit_commit: str, home: Path) -> None:
    repo = _scratch(tmp_path, kit_commit)
    _git(repo, "rm", "-q", "models/value/model.onnx")
    done = _commit(repo, home, "drop the model")
    assert done.returncode == 1, done.stdout
    assert "refusing to serve: models/value/model.onnx: model file not readable" in done.stdout, done.stdout


def test_deleting_a_named_package_fails_the_commit_and_ci(tmp_path: Path, kit_commit: str, home: Path) -> None:
    repo = _scratch(tmp_path, kit_commit)
    _git(repo, "rm", "-rq", "models/value")
    done = _commit(repo, home, "drop the package")
    assert done.returncode == 1, done.stdout
    assert "refusing to serve: models/value: no such directory" in done.stdout, done.stdout
    _git(repo, "commit", "-q", "--no-verify", "-m", "drop the package anyway")
    ci = _pre_commit(repo, home)
    assert ci.returncode == 1, ci.stdout + ci.stderr
    assert "refusing to serve: models/value: no such directory" in ci.stdout, ci.stdout


def test_a_second_broken_package_the_args_do_not_name_fails(tmp_path: Path, kit_commit: str, home: Path) -> None:
    repo = _scratch(tmp_path, kit_commit)
    shutil.copytree(repo / "models" / "value", repo / "models" / "second")
    manifest = repo / "models" / "second" / "manifest.json"
    document = json.loads(manifest.read_text(encoding="utf-8"))
    document["featureCount"] = 14
    manifest.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    _git(repo, "add", "-A")
    done = _commit(repo, home, "a second package")
    assert done.returncode == 1, done.stdout
    assert "refusing to serve: models/second/manifest.json: featureCount 14" in done.stdout, done.stdout
