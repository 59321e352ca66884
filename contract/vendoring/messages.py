"""The texts of ``vendor`` and ``vendor --check``: one table, ``schema/vendor-messages.json``.

Every value put into a text passes through :func:`contract.core.consoletext.console_text` first, so a
file name from a lock or a layout cannot drive the terminal. Another implementation of
``vendor --check`` should read the same table.

>>> say("line.fail", path="v/a\\x1b[2K", problem="missing")
'FAIL v/a\\\\x1b[2K: missing'
"""

from __future__ import annotations

import json
from functools import cache

from contract.core.checktable import render
from contract.core.consoletext import console_text
from contract.core.resources import schema_dir


@cache
def _messages() -> dict[str, str]:
    document = json.loads((schema_dir() / "vendor-messages.json").read_text(encoding="utf-8"))
    return dict(document["messages"])


def say(code: str, /, **fields: object) -> str:
    """The text of ``code`` with each field (made safe to print) in its placeholder."""
    return render(_messages()[code], {name: console_text(str(value)) for name, value in fields.items()})


__all__ = ["say"]
