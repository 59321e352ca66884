"""What an enriched file says about itself: schema id, column names, kit version.

The same JSON object is stored in two places depending on the format:

* Parquet: in the Arrow schema metadata under the key ``dicechess.enrichment`` (so
  ``pyarrow.parquet.read_schema(path).metadata`` shows it);
* JSONL: in a sidecar ``<output>.meta.json`` (a first line would break readers that expect every
  line to be a row).

It holds nothing that changes between two runs on the same input (no time, no host, no path), so an
interrupted-and-resumed run, a single-process run and a Dask run write the same bytes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import contract
from contract.core import strictjson
from contract.enrichment.rows import ERROR_FIELD, FEATURES_FIELD
from contract.features.extractors import ResolvedSchema

METADATA_KEY = "dicechess.enrichment"
METADATA_FORMAT = "dicechess-enrichment/1"
SIDECAR_SUFFIX = ".meta.json"


def enrichment_metadata(schema: ResolvedSchema) -> dict[str, Any]:
    return {
        "format": METADATA_FORMAT,
        "schema": schema.id,
        "width": schema.width,
        "columns": list(schema.columns),
        "featuresField": FEATURES_FIELD,
        "dtype": "float32",
        "rejectsFields": ["id", "line", ERROR_FIELD],
        "kitVersion": contract.__version__,
    }


def metadata_text(schema: ResolvedSchema) -> str:
    return strictjson.dumps(enrichment_metadata(schema))


def sidecar_path(output: Path) -> Path:
    return output.with_name(output.name + SIDECAR_SUFFIX)
