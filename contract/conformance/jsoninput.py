"""A JSON file a conformance command is given (the known-divergences file, a run's ``--json`` output).

Read like any other input: only a regular file (a FIFO or a device is refused, never waited on), at most
``max_bytes`` bytes, through :mod:`contract.core.strictjson` (nesting, duplicate keys and non-finite numbers
refused), then checked against its JSON Schema. Every refusal is the caller's error class with one message
naming the file; a missing file is ``missing`` (the caller's subclass, so a usage error can be told apart).
"""

from __future__ import annotations

import json
from typing import Any

from jsonschema import Draft202012Validator

from contract.core import strictjson
from contract.core.errors import ContractError
from contract.core.oserrors import os_error_reason
from contract.core.resources import schema_dir


def read(target: Any, max_bytes: int, error: type[ContractError], missing: type[ContractError],
         missing_text: str) -> Any:
    """The document in ``target`` (a path), or ``error``/``missing`` naming it."""
    from contract.core.regularfile import open_regular

    try:
        with open_regular(target) as handle:
            data = handle.read(max_bytes + 1)
    except FileNotFoundError:
        raise missing(f"{target}: {missing_text}") from None
    except OSError as exc:
        raise error(f"{target}: cannot read: {os_error_reason(exc)}") from None
    if len(data) > max_bytes:  # only max_bytes + 1 were read: the size itself is not known
        raise error(f"{target}: larger than {max_bytes} bytes")
    try:
        return strictjson.parse(data, max_bytes=max_bytes)
    except strictjson.StrictJsonError as exc:
        raise error(f"{target}: {exc}") from None


def schema_problem(document: Any, schema_file: str, schema_path: Any = None) -> str | None:
    """Where and why ``document`` breaks ``schema/<schema_file>`` (``at WHERE: MESSAGE``), or ``None``."""
    path = schema_dir() / schema_file if schema_path is None else schema_path
    schema = json.loads(path.read_text(encoding="utf-8"))
    found = next(iter(Draft202012Validator(schema).iter_errors(document)), None)
    if found is None:
        return None
    where = "/".join(str(p) for p in found.absolute_path) or "(top)"
    return f"at {where}: {found.message}"
