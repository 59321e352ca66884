"""What ``dicechess-contract --version`` prints: the kit's version and the contract versions it reads.

Both are constants (:mod:`contract._version`, :mod:`contract._contract_versions`): ``--version`` reads no
contract file and imports nothing of the kit's features; a test holds the recorded versions equal to the files.
"""

from __future__ import annotations

from contract import __version__
from contract._contract_versions import CONTRACT_VERSIONS


def version_text() -> str:
    lines = [f"dicechess-contract {__version__}", "contract versions it reads and writes:"]
    for name, versions in CONTRACT_VERSIONS.items():
        lines.append(f"  {name} {', '.join(versions)}")
    return "\n".join(lines)
