"""The lock file of a vendored copy: what it records, writing its bytes, and reading one back.

A lock (:data:`LOCK_NAME`) records the kit's version, the contract versions, the layout (any but the
kit's own, ``lockVersion`` 2; the kit's own is ``lockVersion`` 1 without a ``layout``) and each written
file's SHA-256. :func:`read_lock` refuses, with one message of ``schema/vendor-messages.json``, a lock
that is a link or not a regular file, larger than :data:`MAX_LOCK_BYTES`, not strict JSON, not the kit's,
of another ``lockVersion`` (the integer 1 or 2 exactly), without a ``files`` object of lowercase hex
SHA-256 digests, naming a file :func:`~contract.vendoring.layout.name_problem` refuses, or recording a
layout that is not one.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import re
import stat
from pathlib import Path
from typing import Any, Final

from contract import __version__
from contract.core.cappedread import read_capped
from contract.core.oserrors import os_error_reason
from contract.core.record import Record
from contract.core.refusal import Refusal
from contract.core.strictjson import StrictJsonError
from contract.core.strictjson import parse as parse_json
from contract.vendoring.files import contract_versions
from contract.vendoring.layout import (
    KIT_LAYOUT,
    LOCK_NAME,
    Layout,
    Planned,
    name_problem,
    plan,
    planned_bytes,
    recorded_layout,
)
from contract.vendoring.messages import say

LOCK_VERSION: Final = 1  # the kit's own layout (no "layout" field)
LAYOUT_LOCK_VERSION: Final = 2  # any other layout, recorded in "layout"
LOCK_VERSIONS: Final = (LOCK_VERSION, LAYOUT_LOCK_VERSION)
MAX_LOCK_BYTES: Final = 4 * 1024 * 1024
_DIGEST: Final = re.compile(r"[0-9a-f]{64}")


def lock_document(layout: Layout | None = None, files: dict[str, str] | None = None) -> dict[str, Any]:
    """The lock of ``files`` (default: the installed kit's files of its own layout)."""
    chosen = Layout(KIT_LAYOUT) if layout is None else layout
    if files is None:
        files = digests_of(_plan_or_empty(chosen))
    document: dict[str, Any] = {
        "lockVersion": LOCK_VERSION if chosen.document is None else LAYOUT_LOCK_VERSION,
        "kit": "dicechess-contract",
        "kitVersion": __version__,
        "contractVersions": contract_versions(),
    }
    if chosen.document is not None:
        document["layout"] = chosen.document
    document["files"] = dict(sorted(files.items()))
    return document


def lock_bytes(document: dict[str, Any]) -> bytes:
    return (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _plan_or_empty(layout: Layout) -> list[Planned]:
    planned = plan(layout)
    return [] if isinstance(planned, Refusal) else planned


def digests_of(planned: list[Planned]) -> dict[str, str]:
    return {item.name: hashlib.sha256(planned_bytes(item)).hexdigest() for item in planned}


class Lock(Record):
    """A lock file read and checked: its document, the layout it records and its files' digests."""

    document: dict[str, Any]
    layout: Layout
    files: dict[str, str]


def read_lock(directory: Path) -> Lock | Refusal:
    """The lock of ``directory``, or why it is not one this kit reads (never raises on its content)."""
    lock = directory / LOCK_NAME
    try:
        if not os.path.lexists(lock):
            return Refusal(say("lock.missing", directory=directory, lock=LOCK_NAME))
        if stat.S_ISLNK(os.lstat(lock).st_mode):
            return Refusal(say("lock.notRegular", lock=lock))
        data = read_capped(lock, MAX_LOCK_BYTES)
    except OSError as exc:
        if exc.errno == errno.EINVAL:
            return Refusal(say("lock.notRegular", lock=lock))
        return Refusal(say("lock.unreadable", lock=lock, reason=os_error_reason(exc)))
    if data is None:
        return Refusal(say("lock.tooLarge", lock=lock, limit=MAX_LOCK_BYTES))
    try:
        document = parse_json(data, max_bytes=MAX_LOCK_BYTES)
    except StrictJsonError as exc:
        return Refusal(say("lock.notJson", lock=lock, reason=exc.refusal.message))
    if not isinstance(document, dict):
        return Refusal(say("lock.notObject", lock=lock))
    if document.get("kit") != "dicechess-contract":
        return Refusal(say("lock.kit", lock=lock, kit=json.dumps(document.get("kit"), ensure_ascii=False)[:200]))
    version = document.get("lockVersion")
    if type(version) is not int or version not in LOCK_VERSIONS:  # 1 or 2 as JSON text reads: 1.0 is no integer
        return Refusal(say("lock.version", lock=lock, version=json.dumps(version, ensure_ascii=False)[:200],
                           known=", ".join(map(str, LOCK_VERSIONS))))
    files = document.get("files")
    if not isinstance(files, dict):
        return Refusal(say("lock.noFiles", lock=lock))
    for name, digest in files.items():
        problem = name_problem(name)
        if problem is not None:
            return Refusal(say("lock.name", lock=lock, name=json.dumps(name, ensure_ascii=False)[:300],
                               reason=problem))
        if not isinstance(digest, str) or not _DIGEST.fullmatch(digest):
            return Refusal(say("lock.digest", lock=lock, name=name))
    if version == LOCK_VERSION:
        layout: Layout | Refusal = Layout(KIT_LAYOUT)
    else:
        layout = recorded_layout(document.get("layout"), lock)
    if isinstance(layout, Refusal):
        return layout
    return Lock(dict(document), layout, dict(files))


__all__ = ["LAYOUT_LOCK_VERSION", "LOCK_NAME", "LOCK_VERSION", "LOCK_VERSIONS", "MAX_LOCK_BYTES", "Lock",
           "digests_of", "lock_bytes", "lock_document", "read_lock"]
