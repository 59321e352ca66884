"""Known divergences (``golden/divergences.json``): disagreements that are explained, not hidden.

Like an ONNX backend's exclude list, each entry names an implementation, a case and the reason, and
(format 2) the **answer** it lists: the outcome or verdict and the message (and the code where the
implementation gives one), or the vector, as the implementation answered when the entry was written,
with the recording it comes from (``answerSource``). A listed disagreement does not fail a run as long
as the implementation still gives that answer; one that answers anything else fails it
(:attr:`contract.conformance.runner.Run.changed`), as does an entry whose case now agrees (*stale*), so
the list cannot outlive the bug it excuses nor hide a new one on the same case. An entry may be limited
to ``live`` or ``recorded`` mode. A file that is not valid against
``schema/conformance-divergences.schema.json``, or that lists the same (implementation, case, mode)
twice, is refused with a message naming it.

The file is a user's argument (``--divergences``), so it is read like any other input: only a regular
file (a FIFO or a device is refused, never waited on), at most :data:`MAX_BYTES` bytes, through
:mod:`contract.core.strictjson` (nesting, duplicate keys and non-finite numbers refused, never a
``RecursionError``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from contract.conformance import jsoninput
from contract.conformance.corpusroot import golden as golden_dir
from contract.conformance.corpusroot import schemas as schema_dir
from contract.core import formatversion
from contract.core.errors import ContractError

DIVERGENCES_FILE: Final = "divergences.json"
SCHEMA_FILE: Final = "conformance-divergences.schema.json"
MAX_BYTES: Final = 8 * 1024 * 1024


class DivergenceFileError(ContractError, RuntimeError):
    """The divergences file cannot be used; the message names it."""


@dataclass(frozen=True)
class Divergence:
    implementation: str
    case: str
    reason: str
    mode: str | None = None  # None = both modes
    answer: dict[str, Any] = field(default_factory=dict, compare=False)  # the listed answer, without id/status
    source: str = ""  # the recording the answer comes from

    def applies(self, implementation: str, mode: str) -> bool:
        return self.implementation == implementation and self.mode in (None, mode)


def default_path() -> Path:
    return golden_dir() / DIVERGENCES_FILE


def load(path: Path | None = None) -> list[Divergence]:
    target = default_path() if path is None else path
    document = jsoninput.read(target, MAX_BYTES, DivergenceFileError, DivergenceFileError,
                              "known-divergences file is missing")
    why = formatversion.problem(document, "conformance-divergences")
    if why is not None:
        raise DivergenceFileError(f"{target}: {why}")
    problem = jsoninput.schema_problem(document, SCHEMA_FILE, schema_dir() / SCHEMA_FILE)
    if problem is not None:
        raise DivergenceFileError(f"{target}: does not match {SCHEMA_FILE} {problem}")
    entries = [Divergence(e["implementation"], e["case"], e["reason"], e.get("mode"), dict(e["answer"]),
                          e["answerSource"])
               for e in document["divergences"]]
    seen: set[tuple[str, str, str | None]] = set()
    for entry in entries:
        key = (entry.implementation, entry.case, entry.mode)
        if key in seen:
            raise DivergenceFileError(f"{target}: {entry.implementation} / {entry.case} is listed twice")
        seen.add(key)
    return entries
