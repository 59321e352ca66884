"""Time the live engine's extraction of the bench probes, in the same run as the kit's (``bench --engine-version``).

The JVM side is ``dicechesscontract.engine.EngineTiming`` of ``adapters/jvm``: it warms every probe up
(the JIT compiles the extractors) and then times the extractor alone on freshly parsed states, as the
kit's bench does, and prints one median per probe.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Sequence
from typing import Any, Final

from contract.conformance import engine_build
from contract.core.oserrors import os_error_reason

TIMEOUT: Final = 1800.0


def engine_medians(schema_id: str, probes: Sequence[dict[str, Any]], version: str, *, repeat: int, warmup: int,
                   timeout: float = TIMEOUT) -> tuple[dict[str, float] | None, str]:
    """(median ms per probe id, what measured it), or (None, why the engine could not be timed)."""
    built = engine_build.build(version)
    if built.command is None:
        return None, f"no live engine {version}: {built.reason}"
    command = [*built.command[:-1], engine_build.TIMING_CLASS, str(warmup), str(repeat)]
    lines = "".join(json.dumps({"id": p["id"], "schemaId": schema_id, "fen": p["fen"], "side": p["side"]}) + "\n"
                    for p in probes)
    try:
        done = subprocess.run(command, input=lines, capture_output=True, text=True, encoding="utf-8",
                              errors="replace", timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return None, f"the engine's timing did not finish within {timeout:g} s"
    except OSError as exc:
        return None, f"cannot run java: {os_error_reason(exc)}"
    if done.returncode != 0:
        return None, f"the engine's timing exited with status {done.returncode}: {done.stderr.strip()[-300:]}"
    medians: dict[str, float] = {}
    for line in done.stdout.splitlines():
        try:
            answer = json.loads(line)
        except ValueError:
            return None, f"the engine's timing printed {line[:200]!r}"
        if answer.get("status") != "ok":
            return None, f"the engine cannot time {answer.get('id')}: {answer.get('message')}"
        medians[str(answer["id"])] = float(answer["medianNs"]) / 1e6
    if set(medians) != {str(p["id"]) for p in probes}:
        return None, "the engine's timing did not answer every probe"
    return medians, (f"{engine_build.ENGINE_ARTIFACT}:{version}, measured in this run after {warmup} warm-up"
                     f" rounds, median of {repeat}")
