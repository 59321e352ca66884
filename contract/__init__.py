"""dicechess-contract: the model-serving contract of dice-chess, as one kit.

A model is a package (``model.onnx`` + ``manifest.json``) that states its role, its feature schema,
its width, its tensor names and the engine versions that may serve it. This package reads that
description and refuses, with a message, whatever does not match.
"""

from typing import Any

__all__ = ["__version__"]


def __getattr__(name: str) -> Any:
    """``__version__``, read from the installed distribution on first use: importing ``importlib.metadata``
    costs ~45 ms of CPU, which every ``extract --jobs`` worker would pay without ever reading it."""
    if name != "__version__":
        raise AttributeError(f"module 'contract' has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        found = version("dicechess-contract")
    except PackageNotFoundError:  # running from a checkout that was never installed
        found = "0.0.0+checkout"
    globals()["__version__"] = found
    return found
