"""dicechess-contract: the model-serving contract of dice-chess, as one kit.

A model is a package (``model.onnx`` + ``manifest.json``) that states its role, its feature schema,
its width, its tensor names and the engine versions that may serve it. This package reads that
description and refuses, with a message, whatever does not match.
"""

from contract._version import __version__

__all__ = ["__version__"]
