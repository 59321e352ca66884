"""The engine's recorded answer to every conformance case (``golden/recorded/engine-live/``).

``conformance-engine-answers.jsonl.gz`` is gzip-compressed JSON Lines, one case a line: ``case`` (its id),
``kind``, ``engineAnswer`` (the answer as the adapter protocol gives it: ``status`` and the answer's
fields) and ``expected`` (the corpus's canonical answer *when it was recorded*). The recorded mode of
``--impl engine`` replays ``engineAnswer``. A recording whose ``expected`` is not the case's canonical
answer today was made for another version of the case: it is *stale*, reported as such and never compared
(:func:`apply`); a recording of a case the corpus no longer has is stale too.

:func:`read` refuses (:class:`RecordingError`, naming the file and the line) a file that is not gzip, is
larger than :data:`MAX_BYTES` uncompressed, or has a line that is not such an answer.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final

from contract.conformance.corpusroot import golden as golden_dir
from contract.core.errors import CorpusError
from contract.core.jsonlines import parse_object, read_capped

ANSWERS_FILE: Final = "recorded/engine-live/conformance-engine-answers.jsonl.gz"
RECORDER: Final = "engine 0.12.0 (rebuild, recorded live 2026-12-01, golden/recorded/engine-live)"
MAX_BYTES: Final = 64 * 1024 * 1024
STATUSES: Final = ("ok", "unsupported", "error")


class RecordingError(CorpusError):
    """The recorded answers cannot be read; the message names the file and the line."""


@dataclass(frozen=True)
class RecordedAnswer:
    case: str
    kind: str
    answer: dict[str, Any]  # with ``status``
    expected: dict[str, Any]  # the canonical answer when it was recorded


@dataclass(frozen=True)
class StaleRecording:
    implementation: str
    case: str
    why: str


def _answer(line: bytes, where: str) -> RecordedAnswer:
    doc = parse_object(line, where, MAX_BYTES, RecordingError)
    case, kind, answer, expected = (doc.get(k) for k in ("case", "kind", "engineAnswer", "expected"))
    if not isinstance(case, str) or not isinstance(kind, str) or not case.startswith(kind + "/"):
        raise RecordingError(f"{where}: 'case' and 'kind' must be strings, the case id starting with its kind")
    if not isinstance(answer, dict) or answer.get("status") not in STATUSES:
        raise RecordingError(f"{where}: 'engineAnswer' must be an object whose status is one of"
                             f" {', '.join(STATUSES)}")
    if not isinstance(expected, dict):
        raise RecordingError(f"{where}: 'expected' must be an object")
    return RecordedAnswer(case, kind, answer, expected)


def read(path: Path) -> dict[str, RecordedAnswer]:
    """Every recorded answer by case id (an id recorded twice is refused)."""
    name = f"golden/{ANSWERS_FILE}"
    data = read_capped(path, name, MAX_BYTES, RecordingError)
    out: dict[str, RecordedAnswer] = {}
    for number, line in enumerate(data.split(b"\n"), start=1):
        if not line.strip():
            continue
        recorded = _answer(line, f"{name}: line {number}")
        if recorded.case in out:
            raise RecordingError(f"{name}: line {number}: case {recorded.case} is recorded twice")
        out[recorded.case] = recorded
    if not out:
        raise RecordingError(f"{name}: no answer recorded")
    return out


def engine_answers() -> Mapping[str, RecordedAnswer]:
    """The recorded answers of the corpus the run reads (:mod:`.corpusroot`)."""
    return _answers_at(golden_dir() / ANSWERS_FILE)


@cache
def _answers_at(path: Path) -> Mapping[str, RecordedAnswer]:
    return read(path)


def apply(cases: Sequence[Any], answers: Mapping[str, RecordedAnswer] | None = None) -> list[Any]:
    """``cases`` with the engine's recorded live answer as their ``engine`` recording, or, where it was
    made for another version of the case, with the reason in ``stale`` instead. A case the live recording
    does not have (added since) keeps the engine recording the corpus gives it (its recorded vectors, the
    verdicts file), if any."""
    table = engine_answers() if answers is None else answers
    out = []
    for case in cases:
        found = table.get(case.id)
        if found is None:  # a case added since the live recording keeps its older recording, if any
            out.append(case)
            continue
        recorded = {k: v for k, v in case.recorded.items() if k != "engine"}
        stale = {k: v for k, v in case.stale.items() if k != "engine"}
        if found.expected != case.expected.fields:
            stale["engine"] = (f"recorded for a case whose canonical answer was {found.expected!r}; it is now"
                               f" {case.expected.fields!r} (re-record the engine's answer)")
        else:
            fields = {k: v for k, v in found.answer.items() if k not in ("id", "status")}
            recorded["engine"] = type(case.expected)(fields, source=RECORDER, status=str(found.answer["status"]))
        out.append(dataclasses.replace(case, recorded=recorded, stale=stale))
    return out


def stale_recordings(cases: Sequence[Any], kinds: Sequence[str],
                     answers: Mapping[str, RecordedAnswer] | None = None) -> list[StaleRecording]:
    """Every stale recording among ``cases``, and every recorded case of ``kinds`` the corpus lacks."""
    table = engine_answers() if answers is None else answers
    out = [StaleRecording(impl, case.id, why) for case in cases for impl, why in case.stale.items()]
    known = {case.id for case in cases}
    out += [StaleRecording("engine", case, "the corpus has no such case any more (remove or re-record it)")
            for case, recorded in table.items() if recorded.kind in kinds and case not in known]
    return out
