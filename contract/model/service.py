"""What the evaluation service would do with a package the engine serves (``validate --as service``).

The service is private; what it reads is known from the contract (spec/contract.md §4.5 and §9): it
pins manifest 1.0.0 (so its tensors are ``input``/``output``), extracts only ``kcp-13``, requires the
``standard-kcp`` evaluation profile and serves the position evaluator. It refuses at startup, so a
package it cannot read means a service without a model. The checks, their order and their words are
the ``service`` family of ``schema/check-table.json``; the values they accept are here, the one place
the kit states them (the builder's service profile reads them too).
"""

from __future__ import annotations

from typing import Final

from contract.core.checktable import CONTRACT_TABLE, PASS, Fields, first_failure
from contract.core.refusal import Refusal
from contract.model.manifest import Manifest

SERVICE_VERSIONS: Final = ("1.0.0",)
SERVICE_ROLES: Final = ("position-value",)
SERVICE_SCHEMAS: Final = ("kcp-13",)
SERVICE_PROFILE: Final = {"kcp-13": "standard-kcp"}  # the evaluation profile the service requires per schema


def _listed(values: tuple[str, ...]) -> str:
    return ", ".join(f"'{value}'" for value in values)


def _version(m: Manifest) -> Fields | None:
    ok = m.manifest_version in SERVICE_VERSIONS
    return PASS if ok else {"accepted": ", ".join(SERVICE_VERSIONS), "value": m.manifest_version}


def _role(m: Manifest) -> Fields | None:
    return PASS if m.model_role in SERVICE_ROLES else {"accepted": _listed(SERVICE_ROLES), "value": m.model_role}


def _schema(m: Manifest) -> Fields | None:
    schema = m.feature_schema.id
    return PASS if schema in SERVICE_SCHEMAS else {"accepted": _listed(SERVICE_SCHEMAS), "value": schema}


def _profile(m: Manifest) -> Fields | None:
    wanted = SERVICE_PROFILE.get(m.feature_schema.id)
    if wanted is None or m.evaluation_profile == wanted:
        return PASS
    got = "none" if m.evaluation_profile is None else f"'{m.evaluation_profile}'"
    return {"accepted": f"'{wanted}'", "schema": m.feature_schema.id, "value": got}


CHECKS: Final = CONTRACT_TABLE.checks("service", {
    "service.manifestVersion": _version,
    "service.modelRole": _role,
    "service.featureSchema": _schema,
    "service.evaluationProfile": _profile,
}, {})


def service_refusal(manifest: Manifest) -> Refusal | None:
    """Why the evaluation service would not mount a package with this (engine-valid) manifest, or None."""
    failure = first_failure(CHECKS, manifest)
    return None if failure is None else Refusal(failure.message, failure.code, failure.field)


__all__ = ["SERVICE_PROFILE", "SERVICE_ROLES", "SERVICE_SCHEMAS", "SERVICE_VERSIONS", "service_refusal"]
