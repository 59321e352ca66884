"""Property-based: twin invariance and no-crash over positions from random legal dice-chess play
(from the start and from every golden probe), and over arbitrary boards the parser accepts."""

from __future__ import annotations

import random

import chess
import numpy as np
from budget import share
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from contract.core import registry
from contract.features import extract, extract_fen, parse_fen, to_fen, twin_fen
from contract.features.play import random_game

from .conftest import golden_probes
from .strategies import dfen_strings

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"
STARTS = [START] + [p["fen"] for p in golden_probes()]
SCHEMAS = registry.schema_ids()
FAST = settings(share(0.6), suppress_health_check=[HealthCheck.too_slow])


def _played(seed: int, start: str, plies: int) -> list:
    game = random_game(parse_fen(start), plies, random.Random(seed))
    return [parse_fen(start), *game[-2:]]


@FAST
@given(seed=st.integers(0, 2**32 - 1), start=st.sampled_from(STARTS), plies=st.integers(0, 30))
def test_twin_invariance_after_random_play(seed: int, start: str, plies: int) -> None:
    for position in _played(seed, start, plies):
        twin = position.color_flip()
        assert twin.color_flip() == position
        for color in (chess.WHITE, chess.BLACK):
            for schema_id in SCHEMAS:
                a = extract(schema_id, position, color)
                b = extract(schema_id, twin, not color)
                assert a.tobytes() == b.tobytes(), (schema_id, to_fen(position), color)


@FAST
@given(seed=st.integers(0, 2**32 - 1), start=st.sampled_from(STARTS), plies=st.integers(0, 30))
def test_twin_fen_matches_position_flip(seed: int, start: str, plies: int) -> None:
    position = _played(seed, start, plies)[-1]
    for fields in (4, 6):
        fen = to_fen(position, fields)
        twin = twin_fen(fen)
        assert len(twin.split(" ")) == fields
        assert twin_fen(twin) == fen
        assert parse_fen(twin).boards == position.color_flip().boards
        side = "w" if position.turn else "b"
        for schema_id in ("kcp-13", "kcp-mobility-pawns-31-v1"):
            assert extract_fen(schema_id, fen, side).tobytes() == extract_fen(
                schema_id, twin, "b" if side == "w" else "w").tobytes()


@FAST
@given(seed=st.integers(0, 2**32 - 1), start=st.sampled_from(STARTS), plies=st.integers(0, 40))
def test_pipeline_runs_on_played_positions(seed: int, start: str, plies: int) -> None:
    for position in _played(seed, start, plies):
        fen = to_fen(position)
        assert parse_fen(fen) == position  # DFEN round trip, dice and clocks included
        for schema_id in SCHEMAS:
            vec = extract_fen(schema_id, fen)
            assert vec.dtype == np.float32
            assert vec.shape == (registry.get(schema_id).width,)
            assert np.all(np.isfinite(vec))


@settings(share(1.5), suppress_health_check=[HealthCheck.too_slow])
@given(fen=dfen_strings())
def test_any_accepted_fen_yields_finite_vectors_and_twins(fen: str) -> None:
    position = parse_fen(fen)
    for schema_id in SCHEMAS:
        vec = extract(schema_id, position, position.turn)
        assert vec.shape == (registry.get(schema_id).width,)
        assert np.all(np.isfinite(vec))
        assert vec.tobytes() == extract(schema_id, position.color_flip(), not position.turn).tobytes()


def test_golden_twins_are_twin_fen_of_their_probes() -> None:
    by_id = {p["id"]: p for p in golden_probes()}
    for probe_id, probe in by_id.items():
        if probe_id.endswith("-twin"):
            assert twin_fen(by_id[probe_id[: -len("-twin")]]["fen"]) == probe["fen"]
