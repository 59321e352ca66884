"""Training data against the package that eats it (``dicechess-contract check-data``, issue 34 part 1).

* :func:`check_data` — the check as a function: a :class:`DataVerdict` (``ok``, each file's findings);
* :class:`UsageProblem` — the arguments cannot be checked (a missing path, not a package, an unknown release).

Modules: :mod:`~contract.datacheck.run` (the checks, in order), :mod:`~contract.datacheck.layout` (what a
file states, its rows read back in bounded chunks), :mod:`~contract.datacheck.findings` (the verdict; every
message from the ``data`` family of ``schema/check-table.json``). See docs/check-data.md.
"""

from contract.datacheck.findings import DataVerdict, FileVerdict, Finding, UsageProblem
from contract.datacheck.run import DEFAULT_RECOMPUTE, check_data

__all__ = ["DEFAULT_RECOMPUTE", "DataVerdict", "FileVerdict", "Finding", "UsageProblem", "check_data"]
