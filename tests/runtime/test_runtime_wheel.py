"""The built wheel carries schema/, grammar/ and golden/, so an installed kit works outside the checkout."""

from __future__ import annotations

import json
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


def _venv_with_only_the_wheel(wheel: Path, tmp_path: Path) -> Path:
    """A fresh venv with the wheel installed by pip (console script included); the dependencies are this
    interpreter's, reached by a ``.pth`` line (nested ``.pth`` files are not read, so the checkout's
    editable install does not leak in)."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / ("Scripts" if os.name == "nt" else "bin") / "python"
    site_dir = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                              capture_output=True, text=True, check=True).stdout.strip()
    parents = [p for p in sys.path if p.endswith("site-packages") and Path(p).is_dir()]
    (Path(site_dir) / "_parent_dependencies.pth").write_text("\n".join(parents) + "\n", encoding="utf-8")
    # --ignore-installed: the parent environment (reached through the .pth line) already holds the kit as an
    # editable install of the same version, and pip would otherwise call the wheel "already installed"
    done = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--ignore-installed",
                           "--no-deps", "--no-index", str(wheel)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return python.parent


@pytest.mark.slow
def test_the_installed_console_script_does_every_job_in_an_empty_directory(wheel: Path, tmp_path: Path) -> None:
    from jsonschema import Draft202012Validator

    bin_dir = _venv_with_only_the_wheel(wheel, tmp_path)
    empty = tmp_path / "empty"
    empty.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}

    def tool(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(bin_dir / "dicechess-contract"), *args], cwd=empty, env=env, capture_output=True,
                              text=True, timeout=600, check=False)

    data = Path(subprocess.run([str(bin_dir / "python"), "-c", "import contract.core.resources as r; "
                                "print(r.data_root())"], cwd=empty, env=env, capture_output=True, text=True,
                               check=True).stdout.strip())
    assert data.parts[-2:] == ("contract", "_data") and not data.is_relative_to(REPO), data

    def conforms(done: subprocess.CompletedProcess[str], schema: str) -> dict[str, object]:
        document = json.loads(done.stdout)
        validator = Draft202012Validator(json.loads((data / "schema" / f"{schema}.schema.json").read_text("utf-8")))
        assert [e.message for e in validator.iter_errors(document)] == [], document
        return dict(document)

    example = tool("example", "--path")
    assert example.returncode == 0 and example.stdout == f"{data / 'golden' / 'example-package'}\n"
    assert tool("example", "--corpus").stdout == f"{data / 'golden'}\n"
    served = tool("validate", example.stdout.strip(), "--engine-version", "0.12.0")  # the README's first command
    assert served.returncode == 0 and served.stdout.startswith("serving dicechess-contract-example-kcp13-value:")
    version = tool("--version")
    assert version.returncode == 0 and version.stdout.startswith("dicechess-contract ") and "manifest 1.0.0, 1.1.0" in \
        version.stdout
    check = tool("golden", "check", "--quiet")
    lines = check.stdout.splitlines()
    assert check.returncode == 0 and lines[-1].startswith("golden check passed"), check.stdout + check.stderr
    assert any(line.startswith("recorded: ") and line.endswith("; 26 kit-only") for line in lines), check.stdout
    report = tool("golden", "report", "--quiet", "--output", "report")
    assert report.returncode == 0, report.stdout + report.stderr
    page = (empty / "report" / "index.html").read_bytes()
    probes = json.loads((data / "golden" / "probes.json").read_text("utf-8"))["probes"]
    assert len(page) <= 1_500_000 and page.count(b" data-probe-id=") == len(probes)
    assert b"<dt>commit</dt><dd>not known (not a git checkout)</dd>" in page
    regenerate = tool("golden", "regenerate")
    assert regenerate.returncode == 2 and "regenerate runs in a dicechess-contract checkout" in regenerate.stderr
    matrix = tool("conformance", "run", "--impl", "kit")
    assert matrix.returncode == 0 and "PASS: 0 unlisted" in matrix.stdout, matrix.stdout + matrix.stderr

    model = data / "golden" / "fixtures" / "synthetic_kcp13_value_test_model.onnx"
    built = tool("package", "build", "--model", str(model), "--schema", "kcp-13", "--role", "position-value",
                 "--engine-compatibility", ">=0.12.0 <1.0.0", "--model-id", "wheel-test", "--out", "a/b/c", "--json")
    assert built.returncode == 0, built.stdout + built.stderr
    assert conforms(built, "output-package-build-1")["package"] == "a/b/c"
    accepted = tool("validate", "a/b/c", "--engine-version", "0.12.0", "--json")
    assert accepted.returncode == 0 and conforms(accepted, "output-validate-1")["modelId"] == "wheel-test"
    refused = tool("validate", "a/b/c", "--engine-version", "1.0.0", "--json")
    assert refused.returncode == 1 and conforms(refused, "output-validate-1")["ok"] is False
    compat = tool("compat", ">=0.12.0 <1.0.0", "--engine-version", "0.12.0", "--json")
    assert compat.returncode == 0 and conforms(compat, "output-compat-1")["outcome"] == "satisfied"
    bench = tool("bench", "--repeat", "1", "--json")
    assert bench.returncode == 0 and conforms(bench, "output-bench-1")["goldenMismatches"] == []

    assert tool("vendor", "vendored").returncode == 0
    assert tool("vendor", "--check", "vendored").returncode == 0
    edited = empty / "vendored" / "grammar" / "engine_compatibility.lark"
    edited.write_text(edited.read_text(encoding="utf-8") + "// local change\n", encoding="utf-8")
    after = tool("vendor", "--check", "vendored")
    assert after.returncode == 1 and after.stdout.startswith(f"FAIL {Path('vendored/grammar/engine_compatibility.lark')}: "
                                                             "edited"), after.stdout
