"""The seven feature schemas, bound to the registry in ``schema/feature-schemas.json``.

Widths and column names come only from :mod:`contract.core.registry`; this module maps each schema's
``engineExtractor`` to the function that fills its vector, and checks at first use that the function
fills exactly the registered width. A wider schema calls the narrower one it is built on and appends,
so prefixes are shared by construction (and blocks are memoised on the position).

Float32 conventions (spec/features.md §1.4): counts and differences are exact integers; capture
probabilities are ``count / 216.0`` in double rounded to float32; PDI columns are a float32 division
by 5; raw-board cells are 0.0 or 1.0.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from contract.core import registry
from contract.core.errors import ContractError
from contract.core.refusal import refusal
from contract.features import backend, blocks
from contract.features.dfen import parse_fen, side_from_text
from contract.features.position import PIECE_TYPES, Position
from contract.features.rules import RuleSet, for_engine

Color = bool
Extractor = Callable[[Position, Color, RuleSet | None], Sequence[float] | np.ndarray]
_F32 = np.float32
_FIVE = np.float32(5.0)


# float32 values of the probability and PDI columns, by integer count (spec/features.md §1.4):
# count / 216.0 in double rounded to float32; count / 5 as a float32 division.
_PROBABILITY = [float(np.float32(count / 216.0)) for count in range(217)]
_PDI = [float(np.float32(count) / _FIVE) for count in range(6)]


def _pdi(count: int) -> float:
    return _PDI[count]


def _probability(count: int) -> float:
    return _PROBABILITY[count]


def material_7(position: Position, color: Color, rules: RuleSet | None = None) -> list[float]:
    return [float(v) for v in blocks.material(position, color)]


def rich_9(position: Position, color: Color, rules: RuleSet | None = None) -> list[float]:
    out = material_7(position, color, rules)
    out.append(float(blocks.mobility(position, color, rules) - blocks.mobility(position, not color, rules)))
    out.append(float(blocks.king_safety(position, color) - blocks.king_safety(position, not color)))
    return out


def rich_pdi_11(position: Position, color: Color, rules: RuleSet | None = None) -> list[float]:
    out = rich_9(position, color, rules)
    out += [_pdi(blocks.piece_diversity(position, color)), _pdi(blocks.piece_diversity(position, not color))]
    return out


def kcp_13(position: Position, color: Color, rules: RuleSet | None = None) -> list[float]:
    out = rich_9(position, color, rules)
    out += [_probability(count) for count in blocks.capture_block(position, color)]
    return out


def kcp_mobility_27(position: Position, color: Color, rules: RuleSet | None = None) -> list[float]:
    out = kcp_13(position, color, rules)
    own = blocks.moves_per_type(position, color, rules)
    opp = blocks.moves_per_type(position, not color, rules)
    out += [float(own[t]) for t in PIECE_TYPES] + [float(opp[t]) for t in PIECE_TYPES]
    out += [_pdi(blocks.piece_diversity(position, color)), _pdi(blocks.piece_diversity(position, not color))]
    return out


def kcp_mobility_pawns_31(position: Position, color: Color, rules: RuleSet | None = None) -> list[float]:
    out = kcp_mobility_27(position, color, rules)
    own_count, own_best = blocks.passed_pawns(position, color)
    opp_count, opp_best = blocks.passed_pawns(position, not color)
    out += [float(own_count), float(opp_count), float(own_best), float(opp_best)]
    return out


def raw_board_768(position: Position, color: Color, rules: RuleSet | None = None) -> np.ndarray:
    vec = np.zeros(_width("raw-board-768-v1"), dtype=_F32)
    vec[blocks.raw_board_indices(position, color)] = 1.0
    return vec


# engineExtractor name (as in the registry) -> function filling the vector.
EXTRACTORS: dict[str, Extractor] = {
    "OnnxFeatures": material_7,
    "RichFeatures": rich_9,
    "RichPdiFeatures": rich_pdi_11,
    "KcpFeatures": kcp_13,
    "KcpMobilityFeatures": kcp_mobility_27,
    "KcpMobilityPawnsFeatures": kcp_mobility_pawns_31,
    "RawBoardFeatures": raw_board_768,
}


class UnknownSchemaError(ContractError, KeyError):
    """A feature-schema id the registry does not list."""

    def __init__(self, schema_id: object) -> None:
        self.schema_id = schema_id
        known = ", ".join(registry.schema_ids())
        self.message = refusal("manifest.featureSchema.unknown", value=schema_id, known=known).message
        super().__init__(self.message)

    def __str__(self) -> str:
        return self.message


def schema(schema_id: str) -> registry.FeatureSchema:
    """The registry entry for ``schema_id``; :class:`UnknownSchemaError` if there is none."""
    schemas = registry.feature_schemas()
    if not isinstance(schema_id, str) or schema_id not in schemas:
        raise UnknownSchemaError(schema_id)
    return schemas[schema_id]


_BOUND: dict[str, tuple[int, Extractor]] = {}


@dataclass(frozen=True)
class ResolvedSchema:
    """A feature schema resolved once for a run, to travel with its rows: the id, its width and columns (the
    registry's), the Python extractor that fills its vector and the rule set of the asked engine release
    (``None``: the kit's default release). Made by :func:`resolve`; the row paths
    (:func:`contract.features.rows.extract_matrix`, :func:`~contract.features.rows.extract_rows`) take it in place
    of the id, so a run looks the schema up in the registry once, not once per chunk."""

    id: str
    width: int
    columns: tuple[str, ...]
    engine_extractor: str
    extractor: Extractor
    rules: RuleSet | None = None


def resolve(schema_id: str, rules: RuleSet | None = None) -> ResolvedSchema:
    """``schema_id`` resolved once (one registry look-up): :class:`UnknownSchemaError` if the registry does not
    list it, ``RuntimeError`` if the kit has no Python extractor for it."""
    entry = schema(schema_id)
    function = EXTRACTORS.get(entry.engine_extractor)
    if function is None:
        raise RuntimeError(f"featureSchema '{schema_id}': no Python extractor for engine extractor "
                           f"'{entry.engine_extractor}'")
    _BOUND.setdefault(entry.id, (entry.width, function))
    return ResolvedSchema(entry.id, entry.width, entry.columns, entry.engine_extractor, function, rules)


def as_resolved(schema: str | ResolvedSchema, rules: RuleSet | None = None) -> ResolvedSchema:
    """The run's resolved schema: ``schema`` itself when it is one (``rules``, when given, replace its rule
    set), else :func:`resolve` of the id (one registry look-up). A public entry that takes an id or a
    resolved schema calls this once, at its start."""
    if isinstance(schema, ResolvedSchema):
        return schema if rules is None or rules is schema.rules else replace(schema, rules=rules)
    return resolve(schema, rules)


def _width(schema_id: str) -> int:
    """The registered width of ``schema_id``, looked up once per process (for an extractor's own vector)."""
    bound = _BOUND.get(schema_id)
    return bound[0] if bound is not None else resolve(schema_id).width


def _extractor(schema_id: str | ResolvedSchema) -> tuple[int, Extractor]:
    if isinstance(schema_id, ResolvedSchema):  # resolved already: no look-up, in any process
        return schema_id.width, schema_id.extractor
    bound = _BOUND.get(schema_id) if isinstance(schema_id, str) else None
    if bound is not None:
        return bound
    resolved = resolve(schema_id)
    return resolved.width, resolved.extractor


def _color(color: object) -> bool:
    if isinstance(color, (bool, np.bool_)):
        return bool(color)
    if isinstance(color, (int, np.integer)) and int(color) in (0, 1):
        return bool(color)
    if isinstance(color, str):
        return side_from_text(color)
    raise TypeError(f"color must be chess.WHITE / chess.BLACK (bool) or 'w' / 'b', not {color!r}")


def _fill(out: np.ndarray, width: int, values: Sequence[float] | np.ndarray, schema_id: str) -> None:
    if len(values) != width:
        raise RuntimeError(f"extractor for '{schema_id}' produced {len(values)} values, registry says {width}")
    out[:] = values


def _require_position(position: object) -> None:
    if not isinstance(position, Position):
        hint = " (use extract_fen for a FEN string)" if isinstance(position, str) else ""
        raise TypeError(f"expected a Position from parse_fen, not {type(position).__name__}{hint}")


def _rules(engine_version: str | None) -> RuleSet | None:
    """The rule set of ``engine_version``; ``None`` for the default release (the generator's default)."""
    return None if engine_version is None else for_engine(engine_version)


def _code(schema_id: str) -> tuple[backend.Backend, int | None]:
    accelerator = backend.active()
    return accelerator, accelerator.code(schema_id)


def _rules_matter(position: Position, rules: RuleSet | None) -> bool:
    """Whether ``rules`` change ``position``'s vectors: the accelerator implements one rule set (the
    default release's, ``native`` in schema/engine-rules.json), and the rules differ only in pseudo-legal
    move counts, so a position whose counts agree under both is extracted by the accelerator, any other by
    the Python reference under ``rules``."""
    if rules is None or rules.native:
        return False
    return any(blocks.moves_per_type(position, colour, rules) != blocks.moves_per_type(position, colour)
               for colour in (True, False))


def extract(schema_id: str, position: Position, color: object, *, engine_version: str | None = None) -> np.ndarray:
    """The ``schema_id`` vector of ``position`` from ``color``'s perspective: float32 ``[width]``, as
    engine ``engine_version`` computes it (``None``: the kit's default release; :mod:`.rules`)."""
    return extract_under(schema_id, position, color, _rules(engine_version))


def extract_under(schema: str | ResolvedSchema, position: Position, color: object,
                  rules: RuleSet | None) -> np.ndarray:
    """:func:`extract` under a rule set already resolved (``None``: the default release's), so a run that
    extracts many rows resolves its engine version once; ``schema`` may be the run's :class:`ResolvedSchema`
    (then no registry look-up)."""
    width, function = _extractor(schema)
    schema_id = schema.id if isinstance(schema, ResolvedSchema) else schema
    _require_position(position)
    colour = color if color is True or color is False else _color(color)
    accelerator, code = _code(schema_id)
    if code is not None and not _rules_matter(position, rules):
        matrix, status = backend.positions(accelerator, code, [position], b"\x01" if colour else b"\x00")
        if not status[0]:
            row: np.ndarray = matrix[0]
            return row
    values = function(position, colour, rules)
    if isinstance(values, np.ndarray):
        if values.shape != (width,):
            raise RuntimeError(f"extractor for '{schema_id}' produced {values.shape}, registry says {width}")
        return values
    if len(values) != width:
        raise RuntimeError(f"extractor for '{schema_id}' produced {len(values)} values, registry says {width}")
    return np.array(values, dtype=_F32)


def extract_batch(schema_id: str, items: Iterable[tuple[Position, object]], *,
                  engine_version: str | None = None) -> np.ndarray:
    """Vectors for ``[(position, color), ...]`` as float32 ``[n, width]``, as engine ``engine_version``
    computes them (``None``: the kit's default release).

    With the native accelerator (:mod:`contract.features.backend`) the whole batch is one call that
    releases the GIL; a position it does not take (boards that are not a consistent 64-bit placement)
    is extracted here, by the Python reference."""
    width, function = _extractor(schema_id)
    pairs = list(items)
    positions: list[Position] = []
    colours = bytearray()
    for i, item in enumerate(pairs):
        if not (isinstance(item, tuple) and len(item) == 2):
            raise TypeError(f"extract_batch: item {i} must be a (position, color) pair, not {type(item).__name__}")
        position, color = item
        _require_position(position)
        positions.append(position)
        colours.append(_color(color))
    rules = _rules(engine_version)
    accelerator, code = _code(schema_id)
    if code is None:
        out = np.empty((len(pairs), width), dtype=_F32)
        pending: Iterable[int] = range(len(pairs))
    else:  # one native call for the batch; what it leaves (status 1) is filled below, in Python
        out, status = backend.positions(accelerator, code, positions, bytes(colours))
        pending = [i for i in range(len(pairs)) if status[i] or _rules_matter(positions[i], rules)]
    for i in pending:
        _fill(out[i], width, function(positions[i], bool(colours[i]), rules), schema_id)
    return out


def extract_fen(schema_id: str, fen: str, side: str | bool | None = None, *,
                engine_version: str | None = None) -> np.ndarray:
    """Parse ``fen`` and extract for ``side`` (``'w'``/``'b'`` or a chess colour; ``None`` = the FEN's side to move),
    as engine ``engine_version`` computes it (``None``: the kit's default release)."""
    _width, _function = _extractor(schema_id)  # unknown schema before a bad FEN, like the engine
    position = parse_fen(fen)
    color = position.turn if side is None else side_from_text(side)
    return extract(schema_id, position, color, engine_version=engine_version)
