"""The kit's own adapter: ``python -m contract.conformance.adapter`` answers protocol requests.

It reads one JSON request per line on stdin and writes one JSON answer per line on stdout, using the
kit's runtime: :func:`contract.model.compatibility.evaluate`, :func:`contract.model.manifest.read_manifest`,
:func:`contract.model.tensors.check_graph` and :func:`contract.features.extract_fen`. A request it cannot
parse, or whose ``formatVersion`` names a protocol major it does not speak (docs/versioning.md),
or that lacks a field its kind needs (or gives it the wrong type: the answer names the field, checked
against ``schema/adapter-protocol.schema.json``), or a runtime that raises, gets an ``error`` answer
(the run counts it as a disagreement); the adapter itself never stops before stdin closes. It is also
the template for other Python adapters (see :mod:`contract.conformance.training_adapter`).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import IO, Any

from contract.conformance.protocol import request_problem
from contract.core import formatversion
from contract.core.errors import ContractError

Answer = dict[str, Any]


class Unsupported(ContractError):
    """Raised by a handler that cannot answer this request (the answer is ``unsupported``)."""


def engine_compatibility(request: dict[str, Any]) -> Answer:
    from contract.model.compatibility import evaluate

    result = evaluate(request["constraint"], request["engineVersion"])
    return {"outcome": str(result.outcome), "message": result.message, "code": result.code}


def _verdict(message: str | None, code: str | None = None) -> Answer:
    answer: Answer = {"verdict": "accepted" if message is None else "refused", "message": message}
    if code is not None or message is None:
        answer["code"] = code
    return answer


def _manifest_bytes(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


def manifest(request: dict[str, Any]) -> Answer:
    from contract.model.manifest import read_manifest

    result = read_manifest(_manifest_bytes(request["manifest"]), request["engineVersion"],
                           request["expectedRole"])
    return _verdict(result.message, None if result.refusal is None else result.refusal.code)


def tensor_contract(request: dict[str, Any]) -> Answer:
    from contract.model.manifest import read_manifest
    from contract.model.tensors import check_graph

    read = read_manifest(_manifest_bytes(request["manifest"]), request["engineVersion"])
    if read.manifest is None:
        raise ValueError(f"the case's manifest is refused: {read.message}")
    outcome = check_graph(Path(request["graph"]), read.manifest)
    message: str | None = getattr(outcome, "message", None) if outcome is not None else None
    code: str | None = getattr(outcome, "code", None) if outcome is not None else None
    if outcome is not None and getattr(outcome, "ok", False):
        message = code = None
    return _verdict(message, code)


def features(request: dict[str, Any]) -> Answer:
    from contract.features import extract_fen

    vector = extract_fen(request["schemaId"], request["fen"], request["side"])
    return {"vector": [float(v) for v in vector.tolist()]}


HANDLERS: dict[str, Callable[[dict[str, Any]], Answer]] = {
    "engine-compatibility": engine_compatibility,
    "manifest": manifest,
    "tensor-contract": tensor_contract,
    "features": features,
}


def answer(line: str, handlers: Mapping[str, Callable[[dict[str, Any]], Answer]] | None = None) -> Answer:
    """The answer to one request line; never raises."""
    table = HANDLERS if handlers is None else handlers
    try:
        request = json.loads(line)
    except ValueError as exc:
        return {"id": "?", "status": "error", "message": f"request is not JSON: {exc}"}
    if not isinstance(request, dict) or not isinstance(request.get("id"), str):
        return {"id": "?", "status": "error", "message": "request is not an object with a string id"}
    case_id = request["id"]
    version = formatversion.problem(request, "adapter-protocol")
    if version is not None:  # a request of a protocol major this adapter does not speak is never guessed at
        return {"id": case_id, "status": "error", "message": f"request: {version}"}
    handler = table.get(str(request.get("kind")))
    if handler is None:
        return {"id": case_id, "status": "unsupported", "message": f"kind {request.get('kind')!r}"}
    problem = request_problem(request)
    if problem is not None:  # a missing or mistyped field is named, never a KeyError
        return {"id": case_id, "status": "error", "message": f"request does not follow the protocol: {problem}"}
    try:
        return {"id": case_id, "status": "ok", **handler(request)}
    except Unsupported as exc:
        return {"id": case_id, "status": "unsupported", "message": str(exc) or "not implemented"}
    except Exception as exc:  # an adapter reports its implementation's failure, it does not crash
        return {"id": case_id, "status": "error", "message": f"{exc.__class__.__name__}: {exc}"}


def serve(stdin: IO[str], stdout: IO[str],
          handlers: Mapping[str, Callable[[dict[str, Any]], Answer]] | None = None) -> None:
    for line in stdin:
        if not line.strip():
            continue
        stdout.write(json.dumps(answer(line, handlers), ensure_ascii=True) + "\n")
        stdout.flush()


def main() -> int:
    sys.stdin.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
    serve(sys.stdin, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
