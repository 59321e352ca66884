"""Where the language-neutral sources live: ``schema/``, ``grammar/`` and ``golden/``.

In a checkout (or an editable install) they are the top-level directories beside ``contract/``; in an
installed wheel they are packaged under ``contract/_data/``. Every reader finds them through here, so
the kit reads the same files other repositories vendor.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent.parent  # contract/


@cache
def data_root() -> Path:
    """The directory holding ``schema/``, ``grammar/`` and ``golden/``."""
    checkout = _PACKAGE_DIR.parent
    if (checkout / "schema" / "feature-schemas.json").is_file():
        return checkout
    return _PACKAGE_DIR / "_data"


def schema_dir() -> Path:
    return data_root() / "schema"


def grammar_dir() -> Path:
    return data_root() / "grammar"


def golden_dir() -> Path:
    return data_root() / "golden"


def is_checkout() -> bool:
    """True when running from a source tree (the corpus can be regenerated in place)."""
    return data_root() != _PACKAGE_DIR / "_data"


def is_installed_data(path: Path) -> bool:
    """True when ``path`` is the data an installed wheel ships (read-only: it belongs to the install)."""
    return path.resolve() == (_PACKAGE_DIR / "_data").resolve()
