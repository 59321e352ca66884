"""One hierarchy: every public exception class of the kit derives from ``ContractError``."""

from __future__ import annotations

import importlib
import inspect
from pathlib import Path

from contract.core.errors import ContractError, CorpusError

PACKAGE = Path(__file__).resolve().parents[2] / "contract"


def _public_exceptions() -> list[type[BaseException]]:
    """Every public Exception class the kit defines (a signal such as KeyboardInterrupt is not one)."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__main__":
            continue
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        module = importlib.import_module(name)
        for attribute, value in vars(module).items():
            if (inspect.isclass(value) and issubclass(value, Exception) and not attribute.startswith("_")
                    and value.__module__ == module.__name__):
                found.append(value)
    return found


def test_every_public_exception_is_a_contract_error() -> None:
    classes = _public_exceptions()
    assert len(classes) >= 10  # the walk found the kit's exceptions
    assert [c.__qualname__ for c in classes if not issubclass(c, ContractError)] == []


def test_the_two_corpus_loaders_raise_one_corpus_error() -> None:
    from contract.conformance import corpus as conformance_corpus
    from contract.golden import corpus as golden_corpus

    assert golden_corpus.CorpusError is conformance_corpus.CorpusError is CorpusError
