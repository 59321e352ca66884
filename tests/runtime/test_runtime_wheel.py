"""The built wheel carries schema/, grammar/ and golden/, so an installed kit works outside the checkout."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

SCRIPT = """
import json, sys
import contract, contract.core.resources as r
from contract.model.package import ModelPackage
from contract.core.registry import feature_schemas
from contract.model.compatibility import evaluate
assert not r.is_checkout(), r.data_root()
assert str(r.data_root()).startswith(sys.argv[1]), r.data_root()
package = ModelPackage.load(r.golden_dir() / "example-package", "0.12.0")
print(json.dumps({"widths": {k: v.width for k, v in feature_schemas().items()},
                  "compat": evaluate(">=0.12.0 <1.0.0", "0.12.0").outcome,
                  "example": getattr(package, "message", None) or package.manifest.model_id}))
"""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(REPO)],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        pytest.fail(f"building the wheel failed:\n{done.stdout}\n{done.stderr}")
    (built,) = out.glob("dicechess_contract-*.whl")
    return built


@pytest.mark.slow
def test_the_wheel_packages_the_language_neutral_sources(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for required in ("contract/py.typed", "contract/_data/schema/feature-schemas.json",
                     "contract/_data/schema/manifest-1.0.0.schema.json", "contract/_data/schema/manifest-1.1.0.schema.json",
                     "contract/_data/grammar/engine_compatibility.lark",
                     "contract/_data/golden/example-package/manifest.json",
                     "contract/_data/golden/example-package/model.onnx"):
        assert required in names


@pytest.mark.slow
def test_the_installed_kit_works_outside_the_checkout(wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    # Only the unpacked wheel provides `contract`; the dependencies come from this interpreter.
    env = {**os.environ, "PYTHONPATH": str(site)}
    done = subprocess.run([sys.executable, "-S", "-c", "import site; site.main(); " + "exec(" + repr(SCRIPT) + ")",
                           str(site)], cwd=elsewhere, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert '"compat": "satisfied"' in done.stdout
    assert '"kcp-13": 13' in done.stdout and '"raw-board-768-v1": 768' in done.stdout
    assert '"example": "dicechess-contract-example-kcp13-value"' in done.stdout, done.stdout
