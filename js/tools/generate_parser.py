"""Generate js/generated/engine_compatibility_parser.js from grammar/engine_compatibility.lark with lark-js.

Run it in an environment of its own with ``lark==1.1.2`` and ``lark-js==0.1.4`` (``tox -e js-parser``):
lark-js 0.1.4 emits a parser that fails at load (``Unknown options: strict, ...``) when generated with
lark >= 1.2 (spec/tooling-notes.md). The parser is committed; its stamp file records the grammar's
SHA-256 so the Node evaluator refuses a parser generated from another grammar. lark-js output is not
byte-deterministic (table order follows Python set order), so CI does not diff bytes: ``--check``
generates into a temporary directory and runs the engineCompatibility corpus and the node-semver
differential through the fresh parser, proving the committed pipeline still works.

Refuses (exit 1, message on stderr) when lark is not 1.1.x, lark-js is missing, or node fails.
Standard library only, so it runs without the kit installed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
GRAMMAR = REPO / "grammar" / "engine_compatibility.lark"
OUT_DIR = REPO / "js" / "generated"
PARSER_NAME = "engine_compatibility_parser.js"


def _versions() -> tuple[str, str]:
    try:
        lark_version, larkjs_version = version("lark"), version("lark-js")
    except PackageNotFoundError as exc:
        raise SystemExit(f"error: {exc.name} is not installed here; run `tox -e js-parser`") from None
    if not lark_version.startswith("1.1."):
        raise SystemExit(f"error: lark {lark_version} is installed; lark-js needs lark 1.1.x (tox -e js-parser)")
    return lark_version, larkjs_version


def generate(out_dir: Path) -> Path:
    lark_version, larkjs_version = _versions()
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / PARSER_NAME
    tmp = out_dir / f".{PARSER_NAME}.tmp"
    command = [sys.executable, "-m", "larkjs", str(GRAMMAR), "-l", "contextual", "-o", str(tmp)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        tmp.unlink(missing_ok=True)
        raise SystemExit(f"error: lark-js failed: {done.stderr.strip()}")
    os.replace(tmp, target)
    stamp = {
        "grammar": "grammar/engine_compatibility.lark",
        "grammarSha256": hashlib.sha256(GRAMMAR.read_bytes()).hexdigest(),
        "generator": f"lark-js {larkjs_version} (lark {lark_version}), lexer contextual",
        "command": "tox -e js-parser  (python js/tools/generate_parser.py)",
    }
    stamp_path = out_dir / "engine_compatibility_parser.stamp.json"
    stamp_path.write_text(json.dumps(stamp, indent=2) + "\n", encoding="utf-8")
    return target


def check() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        parser = generate(Path(tmp))
        env = {**os.environ, "DICECHESS_JS_PARSER": str(parser)}
        done = subprocess.run(["node", str(REPO / "js" / "test" / "differential.js")], env=env, check=False)
        if done.returncode != 0:
            raise SystemExit("error: the freshly generated parser fails the differential check")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true",
                      help="generate into a temporary directory and test it instead of writing js/generated/")
    mode.add_argument("--write", action="store_true", help="write js/generated/ (the default)")
    args = parser.parse_args()
    if args.check:
        check()
        print("fresh lark-js parser passes the corpus and the node-semver differential")
    else:
        print(f"wrote {generate(OUT_DIR).relative_to(REPO)} and its stamp")
    return 0


if __name__ == "__main__":
    sys.exit(main())
