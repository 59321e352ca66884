"""Stable import path ``contract.package`` (shown in the README); the module lives in ``contract.model.package``."""

from contract.core.regularfile import sha256_file
from contract.model.package import MANIFEST_FILE_NAME, MODEL_FILE_NAME, ModelPackage

__all__ = ["MANIFEST_FILE_NAME", "MODEL_FILE_NAME", "ModelPackage", "sha256_file"]
