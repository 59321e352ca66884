"""One chunk in, its output rows and its rejects out: the step every run shares, blind to the formats.

The input format decodes the chunk into a :class:`~contract.enrichment.format.Batch`, the whole batch is
extracted at once by the kit's row rules (:func:`contract.enrichment.rows.extract_batch`, built on
:func:`contract.features.rows.extract_rows`: a float32 matrix and one error or ``None`` per row), and the
output format encodes the batch and the matrix. So ``--fen``, stdin to stdout, file to file, ``--jobs N``,
a resumed run and ``enrich-shards`` apply the same row rules and write the same bytes for the same rows;
the Dask example applies the same rules through ``enrich_table``.
"""

from __future__ import annotations

from typing import Any

from contract.core import registry
from contract.enrichment.format import Batch, Encoded, Format
from contract.enrichment.formats import registry as formats
from contract.enrichment.rows import OptionError, extract_batch
from contract.features.extractors import ResolvedSchema, UnknownSchemaError, as_resolved, resolve
from contract.features.rules import RuleSet


def resolve_schema(schema_id: str, rules: RuleSet | None) -> ResolvedSchema:
    """The run's schema, resolved once (the one registry look-up of a run) with the asked release's rule set;
    an unknown id is a usage error."""
    try:
        return resolve(schema_id, rules)
    except UnknownSchemaError:
        known = ", ".join(registry.schema_ids())
        raise OptionError(f"unknown feature schema {schema_id!r}; known: {known}") from None


def enrich_batch(schema_id: str | ResolvedSchema, batch: Batch, sink: Format, target: Any,
                 rules: RuleSet | None = None) -> Encoded:
    """Extract ``batch`` (under ``rules``, the asked release's rule set; ``None``: the resolved schema's own, or
    the default release's) and encode it for the output format ``sink`` (its layout: ``target``). A run passes
    its resolved schema (no registry look-up here); an id is resolved once for the batch."""
    schema = as_resolved(schema_id, rules)
    return sink.encode(schema, batch, extract_batch(schema, batch.rows), target)


def encode(schema_id: str | ResolvedSchema, source: str, sink: str, payload: Any, *, first: int, target: Any,
           rules: RuleSet | None = None) -> Encoded:
    """Enrich one chunk (runs in a worker): ``payload`` as the format ``source`` cut it, whose first row is
    row (or line) ``first`` of its input, encoded for the format ``sink``."""
    return enrich_batch(schema_id, formats.get(source).decode(payload, first), formats.get(sink), target, rules)
