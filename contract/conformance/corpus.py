"""The cases every implementation is asked, read from ``golden/``: one :class:`Case` per question.

Four kinds, in this order: ``engine-compatibility`` (``golden/conformance/engine-compatibility.json``),
``manifest`` (``manifests.json``), ``tensor-contract`` (``tensor-contract.json`` with graphs under
``golden/``) and ``features`` (the engine's recorded vectors in ``golden/recorded/*.engine-*.json``,
then the kit's golden vectors in ``golden/vectors/*.json``). Each case carries the canonical answer and,
for the recorded replay, what the spec or the verdicts file records other implementations to answer;
the engine's recording of every case is its recorded live answer
(``golden/recorded/engine-live/conformance-engine-answers.jsonl.gz``, :mod:`contract.conformance.recording`).

A corpus file that is missing, not JSON, or does not match its ``schema/conformance-*.schema.json`` is
refused with a :class:`CorpusError` naming the file; a graph a case names must exist.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Final

from jsonschema import Draft202012Validator

from contract.conformance.corpusroot import golden as golden_dir
from contract.conformance.corpusroot import schemas as schema_dir
from contract.conformance.protocol import PROTOCOL_VERSION
from contract.core import formatversion
from contract.core.errors import CorpusError

KINDS: Final = ("engine-compatibility", "manifest", "tensor-contract", "features")
VERDICTS_FILE: Final = "recorded/engine-compatibility-verdicts.json"
# The verdicts file's column for each recorded implementation.
VERDICT_COLUMNS: Final = {"engine": "engine", "training": "python", "service": "service"}

_CORPORA: Final = {
    "engine-compatibility": ("conformance/engine-compatibility.json",
                             "conformance-engine-compatibility.schema.json"),
    "manifest": ("conformance/manifests.json", "conformance-manifests.schema.json"),
    "tensor-contract": ("conformance/tensor-contract.json", "conformance-tensor-contract.schema.json"),
}


@dataclass(frozen=True)
class Expected:
    """An answer to compare with: the canonical one, or a recorded one.

    ``fields`` holds ``outcome``/``verdict`` and ``message`` (or ``vector``). A key that is absent is
    not compared (a recording that names no exact text). ``prefix`` compares the message as a prefix.
    """

    fields: dict[str, Any]
    prefix: bool = False
    source: str = ""
    status: str = "ok"  # a recorded answer may be a recorded ``unsupported`` or ``error``


@dataclass(frozen=True)
class Case:
    id: str
    kind: str
    request: dict[str, Any]  # the protocol request without ``id``/``kind``
    expected: Expected
    source: str
    recorded: dict[str, Expected] = field(default_factory=dict)
    stale: dict[str, str] = field(default_factory=dict)  # implementation -> why its recording is not used

    def request_line(self) -> dict[str, Any]:
        return {"formatVersion": PROTOCOL_VERSION, "id": self.id, "kind": self.kind, **self.request}


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CorpusError(f"{path}: corpus file is missing (run `python -m contract.golden regenerate`)")\
            from None
    except (OSError, ValueError) as exc:
        raise CorpusError(f"{path}: cannot read the corpus: {exc}") from None


def _check_version(path: Path, document: Any, name: str) -> None:
    why = formatversion.problem(document, name)
    if why is not None:
        raise CorpusError(f"{path}: {why}")


def _validator(schema_name: str) -> Draft202012Validator:
    return _validator_at(schema_dir() / schema_name)


@cache
def _validator_at(path: Path) -> Draft202012Validator:
    return Draft202012Validator(_read_json(path))


def _load(kind: str) -> list[dict[str, Any]]:
    relative, schema_name = _CORPORA[kind]
    path = golden_dir() / relative
    document = _read_json(path)
    _check_version(path, document, schema_name.removesuffix(".schema.json"))
    error = next(iter(_validator(schema_name).iter_errors(document)), None)
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "(top)"
        raise CorpusError(f"{path}: does not match {schema_name} at {where}: {error.message}")
    cases: list[dict[str, Any]] = document["cases"]
    return cases


def _recorded_verdicts() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = _read_json(golden_dir() / VERDICTS_FILE)["cases"]
    return cases


def compatibility_cases() -> list[Case]:
    verdicts = _recorded_verdicts()
    out = []
    for raw in _load("engine-compatibility"):
        recorded: dict[str, Expected] = {}
        index = raw.get("verdictsIndex")
        if index is not None:
            row = verdicts[index]
            if (row["constraint"], row["engineVersion"]) != (raw["constraint"], raw["engineVersion"]):
                raise CorpusError(f"{raw['id']}: verdictsIndex {index} names a different case")
            for impl, column in VERDICT_COLUMNS.items():
                if row[column] != "unknown":
                    recorded[impl] = Expected({"outcome": row[column]}, source=f"verdicts #{index}")
        out.append(Case(
            id=raw["id"],
            kind="engine-compatibility",
            request={"constraint": raw["constraint"], "engineVersion": raw["engineVersion"]},
            expected=Expected(_with_code({"outcome": raw["outcome"], "message": raw["message"]}, raw)),
            source=raw["source"],
            recorded=recorded,
        ))
    return out


def _with_code(fields: dict[str, Any], raw: dict[str, Any]) -> dict[str, Any]:
    """The canonical answer's fields, with the check-table code the case names (null when it passes).

    An implementation that answers with a ``code`` is compared on it; one that gives none (the
    recorded implementations) is compared on the other fields only.
    """
    return {**fields, "code": raw.get("code")}


def _recorded_verdict(raw: dict[str, Any]) -> dict[str, Expected]:
    recorded: dict[str, Expected] = {}
    for impl, entry in raw.get("recorded", {}).items():
        fields: dict[str, Any] = {"verdict": entry["verdict"]}
        if "message" in entry:
            fields["message"] = entry["message"]
        elif entry["verdict"] == "accepted":
            fields["message"] = None
        recorded[impl] = Expected(fields, source=entry["source"])
    return recorded


def manifest_cases() -> list[Case]:
    return [
        Case(
            id=raw["id"],
            kind="manifest",
            request={"manifest": raw["manifest"], "engineVersion": raw["engineVersion"],
                     "expectedRole": raw["expectedRole"]},
            expected=Expected(_with_code({"verdict": raw["verdict"], "message": raw["message"]}, raw),
                              prefix=raw["messageMatch"] == "prefix"),
            source=raw["source"],
            recorded=_recorded_verdict(raw),
        )
        for raw in _load("manifest")
    ]


def tensor_cases() -> list[Case]:
    out = []
    for raw in _load("tensor-contract"):
        graph = golden_dir() / raw["graph"]
        if not graph.is_file():
            raise CorpusError(f"{raw['id']}: graph {graph} is missing (run `python -m contract.golden"
                              " regenerate`)")
        out.append(Case(
            id=raw["id"],
            kind="tensor-contract",
            request={"graph": str(graph.resolve()), "manifest": raw["manifest"],
                     "engineVersion": raw["engineVersion"]},
            expected=Expected(_with_code({"verdict": raw["verdict"], "message": raw["message"]}, raw)),
            source=raw["source"],
            recorded=_recorded_verdict(raw),
        ))
    return out


def _vector_files() -> Iterable[tuple[str, Path, bool]]:
    """(label, path, recorded-by-the-engine) for every vector file, recorded ones first."""
    for path in sorted((golden_dir() / "recorded").glob("*.engine-*.json")):
        yield f"recorded/{path.stem}", path, True
    for path in sorted((golden_dir() / "vectors").glob("*.json")):
        yield f"vectors/{path.stem}", path, False


def feature_cases() -> list[Case]:
    recorded_rows: dict[tuple[str, str, str], list[float]] = {}
    out = []
    for label, path, by_engine in _vector_files():
        document = _read_json(path)
        if not by_engine:  # the engine's recordings are in its golden tool's format, which has no version
            _check_version(path, document, "golden-vectors")
        try:
            schema_id = document["schema"]
            probes = document["probes"]
            for probe in probes:
                key = (schema_id, probe["fen"], probe["side"])
                vector = [float(v) for v in probe["features"]]
                if by_engine:
                    recorded_rows[key] = vector
                recorded: dict[str, Expected] = {}
                if key in recorded_rows:
                    recorded["engine"] = Expected({"vector": recorded_rows[key]}, source=f"{label}")
                out.append(Case(
                    id=f"features/{label}/{probe['id']}",
                    kind="features",
                    request={"schemaId": schema_id, "fen": probe["fen"], "side": probe["side"]},
                    expected=Expected({"vector": vector}),
                    source=f"golden/{label}.json ({document.get('generator', 'unknown generator')})",
                    recorded=recorded,
                ))
        except (KeyError, TypeError, ValueError) as exc:
            raise CorpusError(f"{path}: not a vector file ({exc.__class__.__name__}: {exc})") from None
    return out


_LOADERS: Final = {
    "engine-compatibility": compatibility_cases,
    "manifest": manifest_cases,
    "tensor-contract": tensor_cases,
    "features": feature_cases,
}


def load_cases(kinds: Sequence[str] = KINDS) -> list[Case]:
    """Every case of the requested kinds, in corpus order; ids are unique. The engine's recording of each
    is its live recorded answer (:mod:`contract.conformance.recording`)."""
    from contract.conformance import recording

    cases: list[Case] = []
    for kind in KINDS:
        if kind in kinds:
            cases.extend(_LOADERS[kind]())
    cases = recording.apply(cases)
    seen: set[str] = set()
    for case in cases:
        if case.id in seen:
            raise CorpusError(f"duplicate case id {case.id!r}")
        seen.add(case.id)
    return cases
