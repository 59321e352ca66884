"""The version each contract file carries (``formatVersion``), and the check every reader makes of it.

Every contract file the kit writes or reads says which version of itself it is, in a top-level
``formatVersion`` field: a semantic version ``MAJOR.MINOR.PATCH`` (docs/versioning.md). A reader knows
one major version of each file: it reads any minor or patch of that major (a minor adds only what an
old reader can ignore) and refuses any other major, or a file without the field, with a
:class:`FormatVersionError` that names the file, the version found and the version it reads.

:data:`VERSIONS` is the kit's one table: for each file (named by its JSON Schema,
``schema/<name>.schema.json``, or by its own name where files share a schema, as the two check tables
do) the version the kit writes and reads. The generators write it, the
JSON Schemas are generated or checked against it, and the readers check what they read against it.
The adapter protocol (``schema/adapter-protocol.schema.json``) is versioned the same way: every
request carries ``formatVersion`` and an adapter refuses a major it does not speak.

>>> check("golden/probes.json", {"formatVersion": "1.4.0", "probes": []}, "probes")
'1.4.0'
>>> try:
...     check("golden/probes.json", {"formatVersion": "2.0.0", "probes": []}, "probes")
... except FormatVersionError as exc:
...     print(exc)
golden/probes.json: formatVersion 2.0.0 is not one this kit reads: it reads probes format 1.x (docs/versioning.md)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from contract.core.errors import ContractError

FIELD: Final = "formatVersion"
_SEMVER: Final = re.compile(r"^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$")

# schema name -> the version of that file the kit writes (and the major it reads). Bump it here when
# the file changes (docs/versioning.md says how), regenerate, and list the change in CHANGELOG.md.
VERSIONS: Final[Mapping[str, str]] = MappingProxyType({
    "feature-schemas": "1.0.0",
    "engine-rules": "1.0.0",
    "check-table": "1.4.0",
    "pairjudge-check-table": "1.0.0",
    "manifest-fields": "1.0.0",
    "probes": "1.0.0",
    "golden-vectors": "1.2.0",
    "drift-log": "1.0.0",
    "conformance-engine-compatibility": "1.0.0",
    "conformance-manifests": "1.0.0",
    "conformance-tensor-contract": "1.0.0",
    "conformance-divergences": "2.0.0",
    "adapter-protocol": "1.0.0",
    "parity": "1.1.0",
})

# schema name -> the version a file of that name WITHOUT ``formatVersion`` is read as. The parity file's format
# is the engine's (its generator writes no version, its reader reads fields by name): a file without the field is
# that format, 1.0.0; 1.1.0 added ``formatVersion`` and the declared ``tolerance`` (docs/golden.md).
UNVERSIONED: Final[Mapping[str, str]] = MappingProxyType({
    "parity": "1.0.0",
})


class FormatVersionError(ContractError, ValueError):
    """A contract file (or a protocol request) without a version this reader knows; the message says which."""


def major(version: str) -> int:
    """The major part of a ``MAJOR.MINOR.PATCH`` version (``ValueError`` for anything else)."""
    match = _SEMVER.match(version)
    if match is None:
        raise ValueError(f"{version!r} is not a MAJOR.MINOR.PATCH version")
    return int(match.group(1))


def current(name: str) -> str:
    """The version of file ``name`` the kit writes (``KeyError`` for a name without one)."""
    return VERSIONS[name]


def pattern(name: str) -> str:
    """A JSON Schema ``pattern`` accepting every version of ``name`` with the kit's major."""
    return rf"^{major(VERSIONS[name])}\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$"


def problem(document: object, name: str) -> str | None:
    """Why ``document`` does not carry a version of ``name`` the kit reads, or ``None``."""
    known = major(VERSIONS[name])
    found = document.get(FIELD) if isinstance(document, dict) else None
    if found is None and name in UNVERSIONED:
        return None  # the format before the field (read as UNVERSIONED[name]); a non-object is its schema's to say
    if not isinstance(found, str):
        return (f"no {FIELD} (this kit reads {name} format {known}.x)" if found is None
                else f"{FIELD} {found!r} is not a string")
    if _SEMVER.match(found) is None:
        return f"{FIELD} {found!r} is not a MAJOR.MINOR.PATCH version"
    if major(found) != known:
        return f"{FIELD} {found} is not one this kit reads: it reads {name} format {known}.x (docs/versioning.md)"
    return None


def check(where: str, document: object, name: str) -> str:
    """The version ``document`` (read from ``where``) carries, or :class:`FormatVersionError` naming ``where``."""
    why = problem(document, name)
    if why is not None:
        raise FormatVersionError(f"{where}: {why}")
    if not isinstance(document, dict):  # an unversioned format's file that is not even an object
        raise FormatVersionError(f"{where}: not a JSON object")
    version = document.get(FIELD, UNVERSIONED.get(name))
    assert isinstance(version, str)
    return version
