"""Every vector the engine recorded, reproduced bit for bit (float32 bit patterns, not strings)."""

from __future__ import annotations

import numpy as np
import pytest

from contract.core import registry
from contract.features import extract, extract_batch, extract_fen, parse_fen
from contract.features.dfen import side_from_text

from .conftest import GOLDEN_FILES, golden_vectors, load_json

GOLDENS = golden_vectors()


def test_corpus_is_complete() -> None:
    for name in GOLDEN_FILES:
        data = load_json(name)
        assert len(data["probes"]) >= 27, name  # the engine's 27 probes, at least
        assert list(registry.get(data["schema"]).columns) == data["columns"]


@pytest.mark.parametrize(("schema_id", "probe_id", "fen", "side", "expected"), GOLDENS,
                         ids=[f"{g[0]}:{g[1]}" for g in GOLDENS])
def test_golden_vector_bits(schema_id: str, probe_id: str, fen: str, side: str, expected: np.ndarray) -> None:
    got = extract_fen(schema_id, fen, side)
    assert got.dtype == np.float32
    assert got.shape == (registry.get(schema_id).width,)
    mismatches = [(registry.get(schema_id).columns[i], float(a), float(b))
                  for i, (a, b) in enumerate(zip(got, expected, strict=True))
                  if a.view(np.uint32) != b.view(np.uint32)]
    assert not mismatches
    assert got.view(np.uint32).tobytes() == expected.view(np.uint32).tobytes()


@pytest.mark.parametrize("name", GOLDEN_FILES)
def test_batch_equals_single(name: str) -> None:
    data = load_json(name)
    items = [(parse_fen(p["fen"]), side_from_text(p["side"])) for p in data["probes"]]
    batch = extract_batch(data["schema"], items)
    expected = np.array([p["features"] for p in data["probes"]], dtype=np.float64).astype(np.float32)
    assert batch.dtype == np.float32 and batch.shape == expected.shape
    assert batch.tobytes() == expected.tobytes()


def test_wider_schemas_copy_their_base_as_prefix() -> None:
    schemas = registry.feature_schemas()
    for probe in load_json(GOLDEN_FILES[0])["probes"]:
        position = parse_fen(probe["fen"])
        color = side_from_text(probe["side"])
        for entry in schemas.values():
            if entry.built_on is None:
                continue
            base = registry.get(entry.built_on)
            wide = extract(entry.id, parse_fen(probe["fen"]), color)
            narrow = extract(base.id, position, color)
            assert wide[: base.width].tobytes() == narrow.tobytes(), (entry.id, probe["id"])
            assert entry.columns[: base.width] == base.columns


def test_same_position_object_gives_same_bits_for_every_schema_order() -> None:
    """Blocks memoised on a Position are shared across schemas without changing any bit."""
    fen = "r1bk4/ppp3pp/8/1BP5/2P5/8/R2K2QP/4R3 b - -"
    fresh = {s: extract_fen(s, fen) for s in registry.schema_ids()}
    shared = parse_fen(fen)
    for s in reversed(registry.schema_ids()):
        assert extract(s, shared, shared.turn).tobytes() == fresh[s].tobytes()


def test_rich_pdi_11_engine_unit_example() -> None:
    fen = "4k3/pp6/8/8/3Q4/8/PP6/R3K3 b - - 0 1"
    white = extract_fen("rich-pdi-11-v1", fen, "w")
    assert white.tolist() == pytest.approx([0, 0, 0, 1, 1, 14, 18, 28, 0, 0.6, 0.2])
    assert white[9] == np.float32(3) / np.float32(5) and white[10] == np.float32(1) / np.float32(5)
    black = extract_fen("rich-pdi-11-v1", fen, "b")
    assert (float(black[9]), float(black[10])) == (float(np.float32(0.2)), float(np.float32(0.6)))


def test_raw_board_engine_unit_examples() -> None:
    def ones(fen: str, side: str) -> list[tuple[int, int]]:
        vec = extract_fen("raw-board-768-v1", fen, side)
        assert set(vec.tolist()) <= {0.0, 1.0}
        return [divmod(int(i), 64) for i in np.flatnonzero(vec)]

    assert ones("4k3/8/8/8/8/8/4r3/4K3 w - -", "w") == [(5, 4), (9, 12), (11, 60)]
    assert ones("4k3/8/8/8/8/8/4r3/4K3 w - -", "b") == [(3, 52), (5, 4), (11, 60)]
    assert (10, 56) in ones("4k3/8/8/8/8/8/8/Q3K3 w - -", "b")
    assert (3, 7) in ones("4k3/8/8/8/8/8/8/4K2R w - -", "w")
    assert (9, 63) in ones("4k3/8/8/8/8/8/8/4K2R w - -", "b")
    start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"
    assert extract_fen("raw-board-768-v1", start, "w").tobytes() == extract_fen(
        "raw-board-768-v1", start, "b").tobytes()


@pytest.mark.parametrize(("fen", "expected"), [
    # spec/features.md §1.3: en passant squares count for the colour whose rank they are on
    ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6", 7),
    ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq -", 6),
    ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR b KQkq f6", -7),
])
def test_en_passant_mobility_examples(fen: str, expected: int) -> None:
    assert extract_fen("rich-9-v1", fen)[7] == expected


def test_castling_in_king_count() -> None:
    with_rights = extract_fen("kcp-mobility-27-v1", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq -")
    without = extract_fen("kcp-mobility-27-v1", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w - -")
    assert (with_rights[18], without[18]) == (4, 2)
    pinned = extract_fen("kcp-mobility-27-v1", "k3r3/8/8/8/8/8/4N3/4K3 w - -")
    assert pinned[14] == 6


def test_king_safety_both_attacked_is_zero() -> None:
    assert extract_fen("rich-9-v1", "4k2R/8/8/8/8/8/8/4K2r w - -")[8] == 0
