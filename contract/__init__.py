"""dicechess-contract: the model-serving contract of dice-chess, as one kit.

A model is a package (``model.onnx`` + ``manifest.json``) that states its role, its feature schema,
its width, its tensor names and the engine versions that may serve it. This package reads that
description and refuses, with a message, whatever does not match.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("dicechess-contract")
except PackageNotFoundError:  # running from a checkout that was never installed
    __version__ = "0.0.0+checkout"

__all__ = ["__version__"]
