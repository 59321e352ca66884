"""What ``check-data`` found: one :class:`Finding` per refusal or differing value, one :class:`FileVerdict` per
data file, one :class:`DataVerdict` for the run (what :func:`contract.datacheck.check_data` returns).

Every message comes from the ``data`` family of ``schema/check-table.json`` (:func:`finding`), so the text,
the code and the JSON pointer of a refusal are stated once. A differing value carries both float32 bit
patterns in the kit's wording (:func:`contract.core.floattext.float32_bits`, ``0x41500000``) and their
shortest float32 texts. Refuses nothing itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from contract.core.errors import ContractError
from contract.core.refusal import Refusal, refusal

DIFFERENCES_SHOWN = 20  # per file and per run: the first ones are listed, the others counted


class UsageProblem(ContractError, ValueError):
    """The arguments cannot be checked at all (exit 2): a missing path, not a package, an unknown release."""

    def __init__(self, refused: Refusal) -> None:
        super().__init__(refused.message)
        self.refusal = refused


@dataclass(frozen=True)
class Finding:
    """One refusal of a file, or one row's value that differs: the table's code and message, and where."""

    code: str
    message: str
    field: str | None = None
    row: int | None = None  # 1-based row (JSONL: the row's number among the non-blank lines)
    row_id: str | None = None  # the row's identity: id, or game and ply
    column: str | None = None
    stored: str | None = None  # float32 bit pattern, 0x and eight hex digits
    recomputed: str | None = None

    def as_json(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "field": self.field, "row": self.row,
                "rowId": self.row_id, "column": self.column, "stored": self.stored, "recomputed": self.recomputed}


def finding(code: str, /, **fields: object) -> Finding:
    """The finding of the table's check ``code`` (message and pointer filled in from ``fields``)."""
    found = refusal(code, **fields)
    return Finding(found.code or code, found.message, found.field)


@dataclass
class FileVerdict:
    """One data file: what it states, how many rows were recomputed, and the first findings (capped)."""

    path: str
    kind: str | None = None  # "training", "parquet", "jsonl"
    feature_schema: str | None = None
    engine_version: str | None = None
    engine_stated: bool = False  # False: the file names no release; the serving (or default) one was assumed
    rows: int | None = None
    recomputed: int = 0
    findings: list[Finding] = field(default_factory=list)
    count: int = 0  # every finding, also those not kept

    @property
    def ok(self) -> bool:
        return self.count == 0

    def add(self, found: Finding) -> None:
        self.count += 1
        if len(self.findings) < DIFFERENCES_SHOWN:
            self.findings.append(found)

    def as_json(self) -> dict[str, Any]:
        return {"path": self.path, "kind": self.kind, "featureSchema": self.feature_schema,
                "engineVersion": self.engine_version, "engineStated": self.engine_stated, "rows": self.rows,
                "recomputed": self.recomputed, "ok": self.ok, "findingCount": self.count,
                "findings": [item.as_json() for item in self.findings]}


@dataclass
class DataVerdict:
    """The run: the package's contract, the files in order, and whether everything held."""

    package: str
    feature_schema: str
    feature_count: int
    engine_compatibility: str
    serving: str | None
    recompute: int | None  # None: every row
    files: list[FileVerdict] = field(default_factory=list)
    problem: Finding | None = None  # a refusal of the run as a whole (the serving release not admitted)

    @property
    def ok(self) -> bool:
        return self.problem is None and all(item.ok for item in self.files)

    def first(self, limit: int = DIFFERENCES_SHOWN) -> list[tuple[FileVerdict, Finding]]:
        """The first ``limit`` findings over the files, in file order."""
        shown: list[tuple[FileVerdict, Finding]] = []
        for item in self.files:
            for found in item.findings:
                if len(shown) < limit:
                    shown.append((item, found))
        return shown

    @property
    def count(self) -> int:
        return sum(item.count for item in self.files) + (self.problem is not None)

    def as_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "message": None if self.problem is None else self.problem.message,
                "code": None if self.problem is None else self.problem.code,
                "package": self.package, "featureSchema": self.feature_schema, "featureCount": self.feature_count,
                "engineCompatibility": self.engine_compatibility, "engineVersion": self.serving,
                "recompute": "all" if self.recompute is None else self.recompute,
                "findingCount": self.count, "files": [item.as_json() for item in self.files]}
