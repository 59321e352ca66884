"""js/ as a real npm package: ``npm pack`` it, install the tarball into a scratch project far from any
checkout, and validate a manifest and a constraint through the public API (``require("dicechess-contract")``).

Needs ``node`` and ``npm`` (and the npm registry or cache for ajv). The tarball ships ``index.d.ts`` and
only run-time code: the differential against node-semver (``test/differential.js``) and semver itself are
development-only. Without them the test is
skipped with the reason, except under ``DICECHESS_REQUIRE_JS=1`` (``tox -e js-package``), where it fails.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest

from contract.core.resources import data_root

JS = data_root() / "js"
NODE, NPM = shutil.which("node"), shutil.which("npm")
if NODE is None or NPM is None or not (JS / "package.json").is_file():
    if os.environ.get("DICECHESS_REQUIRE_JS") == "1":
        raise RuntimeError("DICECHESS_REQUIRE_JS=1 but node, npm or js/package.json is missing")
    pytest.skip("node and npm are needed (tox -e js-package runs this)", allow_module_level=True)

SCRIPT = """
const fs = require("fs");
const contract = require("dicechess-contract");
const text = fs.readFileSync(process.argv[2], "utf8");
console.log(JSON.stringify({
  accepted: contract.readManifest(text, "0.12.0"),
  refused: contract.readManifest(text, "2.0.0"),
  compat: contract.evaluate(">=0.12.0 <1.0.0", "0.12.0"),
  data: contract.dataPath("schema"),
  version: require("dicechess-contract/package.json").version,
}));
"""


def _npm(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    assert NPM is not None
    return subprocess.run([NPM, *args, "--no-audit", "--no-fund"], cwd=cwd, capture_output=True, text=True,
                          timeout=600, check=False)


@pytest.mark.slow
def test_the_packed_tarball_installs_and_validates_a_manifest(tmp_path: Path) -> None:
    packed = _npm("pack", "--pack-destination", str(tmp_path), cwd=JS)
    assert packed.returncode == 0, packed.stdout + packed.stderr
    assert not (JS / "data").exists(), "postpack must remove the copied data from the checkout"
    (tarball,) = tmp_path.glob("dicechess-contract-*.tgz")
    with tarfile.open(tarball) as archive:
        names = set(archive.getnames())
    for required in ("package/package.json", "package/src/index.js", "package/src/data.js",
                     "package/generated/engine_compatibility_parser.js",
                     "package/generated/engine_compatibility_parser.stamp.json",
                     "package/data/schema/manifest-1.1.0.schema.json", "package/data/schema/feature-schemas.json",
                     "package/data/grammar/engine_compatibility.lark"):
        assert required in names, sorted(names)
    assert not [n for n in names if n.startswith(("package/test/", "package/tools/", "package/node_modules/"))]
    assert "package/index.d.ts" in names and not [n for n in names if n.endswith("differential.js")]
    with tarfile.open(tarball) as archive:
        shipped = archive.extractfile("package/package.json")
        assert shipped is not None
        manifest_of_package = json.loads(shipped.read())
    assert set(manifest_of_package["dependencies"]) == {"ajv"}, manifest_of_package  # semver is test-only
    assert manifest_of_package["types"] == "index.d.ts"

    scratch = tmp_path / "scratch"
    scratch.mkdir()
    (scratch / "package.json").write_text(json.dumps({"name": "scratch", "version": "1.0.0", "private": True}))
    installed = _npm("install", "--prefer-offline", str(tarball), cwd=scratch)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    (scratch / "use.js").write_text(SCRIPT, encoding="utf-8")
    manifest = data_root() / "golden" / "example-package" / "manifest.json"
    assert NODE is not None
    done = subprocess.run([NODE, "use.js", str(manifest)], cwd=scratch, capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["accepted"]["verdict"] == "accepted", result
    assert result["refused"]["verdict"] == "refused", result
    assert result["refused"]["message"].endswith("engineCompatibility '>=0.12.0 <1.0.0' does not include engine "
                                                 "version '2.0.0'"), result
    assert (result["compat"]["outcome"], result["compat"]["message"]) == ("satisfied", None)
    assert Path(result["data"]) == scratch / "node_modules" / "dicechess-contract" / "data" / "schema"
    package_json = json.loads((JS / "package.json").read_text(encoding="utf-8"))
    assert result["version"] == package_json["version"]


def test_one_node_floor_everywhere() -> None:
    floor = json.loads((JS / "package.json").read_text(encoding="utf-8"))["engines"]["node"]
    assert floor == ">=20"
    readme = (data_root() / "README.md").read_text(encoding="utf-8")
    assert "Node.js ≥ 20" in readme and "Node.js ≥ 18" not in readme
