"""The ``check-jsonschema`` command a vendoring repository would run, found beside this interpreter."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path


def check_jsonschema() -> str:
    """Path of the ``check-jsonschema`` executable (a test dependency); fail loudly if it is missing."""
    beside = Path(sys.executable).parent / "check-jsonschema"
    found = str(beside) if beside.exists() else shutil.which("check-jsonschema")
    if found is None:
        raise AssertionError("check-jsonschema is a test dependency (pyproject [test]): pip install check-jsonschema")
    return found
