"""Stable import path ``contract.builder`` (shown in the README); the module lives in ``contract.model.builder``."""

from contract.model.builder import PackageSpec, build_package

__all__ = ["PackageSpec", "build_package"]
