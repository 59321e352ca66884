"""What ``dicechess-contract --version`` prints: the kit's version and the contract versions it reads."""

from __future__ import annotations

from contract import __version__
from contract.vendoring.files import contract_versions


def version_text() -> str:
    lines = [f"dicechess-contract {__version__}", "contract versions it reads and writes:"]
    for name, versions in contract_versions().items():
        lines.append(f"  {name} {', '.join(versions)}")
    return "\n".join(lines)
