"""Shared by every test directory: make ``generators`` (a checkout directory, not packaged) importable.

Appended, not prepended: when the kit is installed, the installed ``contract`` stays the one under test.
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.append(str(REPO))
