"""``pairjudge verify --reference``: ask the real pairjudge loader too, in a subprocess.

Where a Python with ``pairjudge`` (and its torch stack) is at hand, the CLI can run the reference's
own layer on the same bundle (``read_manifest(dir)`` for ``--layer manifest``,
``PairwiseJudge.from_pretrained(dir, device="cpu", local_files_only=True, ...)`` for ``full``) and
report both verdicts side by side. The kit's verdict and exit code do not change. A reference that
cannot be imported, crashes or does not answer within the timeout is reported as such: never as a
verdict, never as agreement.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from contract.core.oserrors import os_error_reason

TIMEOUT_SECONDS = 600.0
_MAX_MESSAGE = 600
_MARK = "PAIRJUDGE-REFERENCE "

# Run by the reference's Python: reads one request on stdin, prints one marked JSON line.
_PROGRAM = """
import importlib.metadata, json, os, sys
os.environ.setdefault("HF_HUB_OFFLINE", "1")
request = json.loads(sys.stdin.read())
try:
    from pairjudge.artifacts import read_manifest
    from pairjudge.judge import PairwiseJudge
    from pairjudge.packing import PackerConfig
except Exception as exc:
    print("PAIRJUDGE-REFERENCE " + json.dumps({"available": False, "message": f"{type(exc).__name__}: {exc}"}))
    sys.exit(0)
try:
    version = importlib.metadata.version("pairjudge")
except Exception:
    version = "unknown"
answer = {"available": True, "version": version, "ok": True, "message": None}
try:
    if request["layer"] == "manifest":
        read_manifest(request["bundle"])
    else:
        kwargs = dict(request["kwargs"])
        if kwargs.get("packer_config") is not None:
            kwargs["packer_config"] = PackerConfig(**kwargs["packer_config"])
        PairwiseJudge.from_pretrained(request["bundle"], device="cpu", local_files_only=True, **kwargs)
except Exception as exc:
    answer.update(ok=False, message=f"{type(exc).__name__}: {exc}")
print("PAIRJUDGE-REFERENCE " + json.dumps(answer))
"""


@dataclass(frozen=True)
class ReferenceVerdict:
    """What the reference said: ``available`` False when it could not be asked (then ``ok`` is None)."""

    available: bool
    ok: bool | None
    message: str | None
    version: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"available": self.available, "ok": self.ok, "message": self.message, "version": self.version}


def _unavailable(message: str) -> ReferenceVerdict:
    return ReferenceVerdict(False, None, message)


def ask_reference(
    python: str,
    bundle: Path,
    layer: str,
    *,
    allow_legacy: bool = False,
    label_order: Sequence[Any] | None = None,
    packer_config: Mapping[str, Any] | None = None,
    timeout: float = TIMEOUT_SECONDS,
) -> ReferenceVerdict:
    """Run the reference's ``layer`` on ``bundle`` with ``python``; never raises."""
    kwargs: dict[str, Any] = {}
    if allow_legacy:
        kwargs["allow_legacy"] = True
    if label_order is not None:
        kwargs["label_order"] = list(label_order)
    if packer_config is not None:
        kwargs["packer_config"] = dict(packer_config)
    request = json.dumps({"bundle": str(Path(bundle).resolve()), "layer": layer, "kwargs": kwargs})
    try:
        done = subprocess.run(
            [python, "-c", _PROGRAM], input=request, capture_output=True, text=True, timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired:
        return _unavailable(f"the reference gave no answer within {timeout:g} s")
    except OSError as exc:
        return _unavailable(f"cannot run {python}: {os_error_reason(exc)}")
    lines = [line for line in done.stdout.splitlines() if line.startswith(_MARK)]
    if not lines:
        return _unavailable(f"the reference process ended (exit {done.returncode}) without an answer")
    try:
        answer = json.loads(lines[-1][len(_MARK) :])
    except json.JSONDecodeError:
        return _unavailable("the reference process printed an unreadable answer")
    message = answer.get("message")
    if isinstance(message, str) and len(message) > _MAX_MESSAGE:
        message = message[:_MAX_MESSAGE] + "..."
    if not answer.get("available"):
        return _unavailable(f"pairjudge is not importable by {python} ({message})")
    return ReferenceVerdict(True, bool(answer.get("ok")), message, str(answer.get("version")))
