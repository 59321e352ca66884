"""Generators of the committed language-neutral data (``golden/`` and the generated parts of ``schema/``).

Each module listed in ``GENERATORS`` defines ``generate() -> dict[str, bytes]``: a mapping from a
path relative to the repository root to the exact bytes that file must hold. ``python -m
contract.golden regenerate`` writes them (temporary sibling, then rename); ``check`` compares them
with what is committed. Generators are deterministic: same inputs, same bytes.
"""

GENERATORS: tuple[str, ...] = (
    "generators.manifest_schemas",
    "generators.corpus_schemas", "generators.probes", "generators.vectors", "generators.fixtures",
    "generators.conformance",
)
