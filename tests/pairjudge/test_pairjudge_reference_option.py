"""``pairjudge verify --reference``: the real loader's verdict reported beside the kit's.

The real reference needs torch, so these tests check the plumbing only: a Python without
``pairjudge`` is reported as not asked, and a stand-in ``pairjudge`` package (written here, raising
what the test tells it to) shows that the layer, the arguments and the reference's answer travel
both ways and that the exit code stays the kit's. Agreement itself is the fuzz replay's job.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from pairjudge_support import BUNDLES

BUNDLE = BUNDLES / "full-run" / "merged"

STAND_IN = {
    "__init__.py": "",
    "artifacts.py": (
        "import os\n"
        "def read_manifest(folder):\n"
        "    if os.environ.get('STAND_IN_REFUSE'):\n"
        "        raise ValueError('stand-in refuses the manifest')\n"
    ),
    "judge.py": (
        "import json, os\n"
        "class PairwiseJudge:\n"
        "    @classmethod\n"
        "    def from_pretrained(cls, folder, **kwargs):\n"
        "        if os.environ.get('STAND_IN_REFUSE'):\n"
        "            raise RuntimeError('stand-in refuses: ' + json.dumps(sorted(kwargs)))\n"
    ),
    "packing.py": "class PackerConfig:\n    def __init__(self, **fields):\n        self.fields = fields\n",
}


def _stand_in(tmp_path: Path) -> Path:
    package = tmp_path / "site" / "pairjudge"
    package.mkdir(parents=True)
    for name, text in STAND_IN.items():
        (package / name).write_text(text)
    return package.parent


def _verify(*options: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "contract", "pairjudge", "verify", str(BUNDLE), *options]
    return subprocess.run(command, capture_output=True, text=True, check=False, env=env, timeout=300)


def test_reference_not_importable_is_reported_not_agreed(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}  # no pairjudge there
    done = _verify("--reference", "--json", env=env)
    assert done.returncode == 0
    document = json.loads(done.stdout)
    assert document["ok"] is True
    assert document["reference"]["available"] is False
    assert document["reference"]["ok"] is None
    assert "not importable" in document["reference"]["message"]
    from jsonschema import Draft202012Validator

    from contract.core.resources import schema_dir
    schema = json.loads((schema_dir() / "output-pairjudge-verify-1.schema.json").read_text(encoding="utf-8"))
    assert [e.message for e in Draft202012Validator(schema).iter_errors(document)] == []
    text = _verify("--reference", env=env)
    assert "reference: not asked" in text.stdout


def test_reference_verdicts_travel_both_ways(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(_stand_in(tmp_path))}
    agreed = _verify("--reference", sys.executable, env=env)
    assert agreed.returncode == 0
    assert "reference (pairjudge" in agreed.stdout
    assert "agrees with the kit" in agreed.stdout
    refusing = {**env, "STAND_IN_REFUSE": "1"}
    full = _verify("--reference", "--json", env=refusing)
    assert full.returncode == 0  # the exit code is the kit's verdict
    reference = json.loads(full.stdout)["reference"]
    assert reference == {"available": True, "ok": False, "version": reference["version"],
                         "message": 'RuntimeError: stand-in refuses: ["device", "local_files_only"]'}
    manifest = _verify("--layer", "manifest", "--reference", env=refusing)
    assert "refused: ValueError: stand-in refuses the manifest (DISAGREES with the kit)" in manifest.stdout


def test_without_reference_the_json_shape_is_unchanged() -> None:
    done = _verify("--json")
    assert set(json.loads(done.stdout)) == {"outputVersion", "ok", "message", "warnings"}
