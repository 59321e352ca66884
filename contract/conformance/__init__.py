"""Conformance: ask every implementation of the contract the same questions and show where they differ.

The engine (Scala), the training repository's Python contract, the evaluation service, this kit and
a Node implementation (``js/``) must agree on every string. Each implementation is reached through an
*adapter* speaking the JSON-lines protocol of ``schema/adapter-protocol.schema.json``, or replayed from
its recorded verdicts. ``python -m contract.conformance run --impl NAME[=COMMAND] ...`` prints the
matrix and fails on any disagreement not listed, with its reason, in ``golden/divergences.json``
(and on any listed one that no longer occurs). See docs/conformance.md.
"""
