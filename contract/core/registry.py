"""The feature-schema registry, read from ``schema/feature-schemas.json``.

That file is the one place a schema's width and ordered column names are defined; nothing in Python
repeats them. ``FEATURE_SCHEMAS`` maps each id to a :class:`FeatureSchema`.
"""

from __future__ import annotations

import json
from functools import cache

from contract.core import formatversion
from contract.core.record import Record
from contract.core.resources import schema_dir

REGISTRY_FILE = "feature-schemas.json"


class FeatureSchema(Record):
    id: str
    width: int
    columns: tuple[str, ...]
    engine_extractor: str
    built_on: str | None
    description: str


@cache
def feature_schemas() -> dict[str, FeatureSchema]:
    raw = json.loads((schema_dir() / REGISTRY_FILE).read_text(encoding="utf-8"))
    formatversion.check(f"schema/{REGISTRY_FILE}", raw, "feature-schemas")
    schemas: dict[str, FeatureSchema] = {}
    for entry in raw["schemas"]:
        columns = tuple(entry["columns"])
        if len(columns) != entry["width"]:
            raise RuntimeError(f"{REGISTRY_FILE}: {entry['id']} declares width {entry['width']}"
                               f" but lists {len(columns)} columns")
        schemas[entry["id"]] = FeatureSchema(
            id=entry["id"],
            width=entry["width"],
            columns=columns,
            engine_extractor=entry["engineExtractor"],
            built_on=entry.get("builtOn"),
            description=entry["description"],
        )
    for schema in schemas.values():
        base = schemas.get(schema.built_on) if schema.built_on is not None else None
        if schema.built_on is not None and (base is None or schema.columns[: base.width] != base.columns):
            raise RuntimeError(f"{REGISTRY_FILE}: {schema.id} is not built on {schema.built_on}'s columns")
    return schemas


def schema_ids() -> list[str]:
    """Registered ids in the engine's listing order (sorted, as its messages print them)."""
    return sorted(feature_schemas())


def get(schema_id: str) -> FeatureSchema:
    return feature_schemas()[schema_id]
