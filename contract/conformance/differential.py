"""The kit's feature extractors against the engine's, bit for bit, on the same positions.

``python -m contract.conformance differential`` asks a live engine adapter (``DICECHESS_CONFORMANCE_ENGINE``,
``--command``, or ``adapters/jvm`` built for ``--engine-version``) for the vector of every position and
schema, extracts the same vector with the kit, and compares them as float32 bit patterns. Positions: every
golden probe (twins included) and ``--positions N`` positions reached by random dice-chess play from the
initial position with ``--seed`` (:mod:`contract.features.play`); the perspective alternates between the
two colours and every third position carries a dice pool (a seven-field DFEN). A mismatch prints the
position, the schema, the column and both bit patterns. An ``error`` answer is a failure, never agreement;
``unsupported`` (an engine release without that extractor) is counted apart.

Without a live engine the kit is compared with the engine's **recorded** vectors
(``golden/recorded/engine-live/engine-vectors-default-seed20261130.jsonl.gz``: the golden probes and the
first 2,000 positions of the default seed, each schema's vector as float32 bit patterns), labelled
``recorded`` with the reason no engine runs. A position is matched by its label and must have the
recorded FEN and side, else it is a STALE recording (an error, never compared); a position or schema the
recording lacks is counted as not recorded (``unsupported``). ``--require-engine`` refuses the replay:
without a live engine it prints ``SKIPPED`` and exits 1.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shlex
import struct
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from contract.conformance import engine_build
from contract.conformance.protocol import PROTOCOL_VERSION, LiveAdapter
from contract.conformance.runner import DEFAULT_BUDGET, budget_text, env_variable, kept_text, seconds_problem
from contract.core import formatversion, registry
from contract.core.errors import ContractError
from contract.core.exitcodes import EXIT_OK, EXIT_REFUSED, EXIT_USAGE
from contract.core.resources import data_root, golden_dir

EXIT_FAILED = EXIT_REFUSED
DEFAULT_POSITIONS: Final = 2000
DEFAULT_SEED: Final = 20261130
GAME_TURNS: Final = 80
SHOWN: Final = 40
DEFAULT_TIMEOUT: Final = 120.0
START_FEN: Final = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


@dataclass(frozen=True)
class Probe:
    label: str
    fen: str
    side: str


@dataclass
class Tally:
    vectors: int = 0
    identical: int = 0
    unsupported: int = 0
    mismatches: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Nothing differed, nothing failed, and something was compared."""
        return not self.mismatches and not self.errors and self.identical > 0


def golden_probes() -> list[Probe]:
    path = golden_dir() / "probes.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    formatversion.check(str(path), document, "probes")
    return [Probe(f"probe {p['id']}", p["fen"], p["side"]) for p in document["probes"]]


def random_positions(count: int, seed: int) -> Iterator[Probe]:
    """``count`` positions of random games from the initial position (fixed ``seed``)."""
    from contract.features.dfen import parse_fen, to_fen
    from contract.features.play import random_game

    rng = random.Random(seed)
    produced = 0
    game = 0
    while produced < count:
        game += 1
        for turn, reached in enumerate(random_game(parse_fen(START_FEN), GAME_TURNS, rng), start=1):
            if produced >= count:
                break
            position = reached
            if produced % 3 == 0:
                pool = tuple(sorted(rng.randint(1, 6) for _ in range(3)))
                position = reached.with_turn(reached.turn, pool)
            side = "w" if produced % 2 == 0 else "b"
            yield Probe(f"random {produced} (seed {seed}, game {game}, turn {turn})", to_fen(position), side)
            produced += 1


def float32_bits(value: float) -> int:
    return int.from_bytes(struct.pack("<f", value), "little")


def compare(probe: Probe, schema: registry.FeatureSchema, kit: Sequence[float], answer: dict[str, Any],
            tally: Tally) -> None:
    """Count one (position, schema) pair; describe a mismatch or an error in ``tally``."""
    where = f"{probe.label}: {probe.fen!r} side {probe.side} schema {schema.id}"
    status = answer.get("status")
    if status == "unsupported":
        tally.unsupported += 1
        return
    tally.vectors += 1
    if status != "ok":
        tally.errors.append(kept_text(f"ERROR {where}: {answer.get('message', answer)}"))
        return
    engine = answer["vector"]
    if len(engine) != len(kit):
        tally.mismatches.append(f"MISMATCH {where}: width kit {len(kit)}, engine {len(engine)}")
        return
    for index, (mine, theirs) in enumerate(zip(kit, engine, strict=True)):
        try:
            engine_bits = float32_bits(float(theirs))
        except (OverflowError, struct.error, TypeError, ValueError):
            tally.mismatches.append(f"MISMATCH {where} column {schema.columns[index]} (#{index}):"
                                    f" engine value {theirs!r} is not a float32")
            return
        if float32_bits(mine) != engine_bits:
            tally.mismatches.append(
                f"MISMATCH {where} column {schema.columns[index]} (#{index}):"
                f" kit 0x{float32_bits(mine):08x} ({mine!r}) engine 0x{engine_bits:08x} ({theirs!r})")
            return
    tally.identical += 1


@dataclass(frozen=True)
class Item:
    """One comparison: a position, a schema, and the kit's vector for it (``None``: the kit refused it)."""

    probe: Probe
    schema: registry.FeatureSchema
    kit: Sequence[float] | None
    kit_error: str = ""


def check(command: Sequence[str], items: Iterable[Item], timeout: float, budget: float = DEFAULT_BUDGET) -> Tally:
    """Ask the engine adapter ``command`` for every item's vector and compare it with the kit's."""
    tally = Tally()
    with LiveAdapter("engine", command, timeout, cwd=data_root(), deadline=time.monotonic() + budget,
                     budget_text=budget_text(budget)) as adapter:
        for number, item in enumerate(items):
            answer = adapter.ask({"formatVersion": PROTOCOL_VERSION,
                                  "id": f"differential/{number}/{item.schema.id}", "kind": "features",
                                  "schemaId": item.schema.id, "fen": item.probe.fen, "side": item.probe.side})
            if item.kit is None:  # the kit refuses a text the engine was asked about
                tally.vectors += 1
                tally.errors.append(f"ERROR {item.probe.label}: {item.probe.fen!r} schema {item.schema.id}:"
                                    f" kit: {item.kit_error}")
                continue
            compare(item.probe, item.schema, item.kit, answer, tally)
            if adapter.dead is not None:  # one error for a dead adapter, not one per remaining position
                break
    return tally


def recorded_answer(item: Item, positions: dict[str, Any]) -> dict[str, Any] | None:
    """The engine's recorded answer for ``item``: an ``ok`` vector, ``unsupported`` when not recorded, or
    ``None`` when the recording was made for another position under the same label (stale)."""
    recorded = positions.get(item.probe.label)
    if recorded is None or item.schema.id not in recorded.bits:
        return {"status": "unsupported", "message": "not recorded"}
    if (recorded.fen, recorded.side) != (item.probe.fen, item.probe.side):
        return None
    bits = recorded.bits[item.schema.id]
    return {"status": "ok", "vector": [struct.unpack("<f", b.to_bytes(4, "little"))[0] for b in bits]}


def replay(items: Iterable[Item], positions: dict[str, Any]) -> Tally:
    """Compare every item's kit vector with the engine's recorded one."""
    tally = Tally()
    for item in items:
        answer = recorded_answer(item, positions)
        if answer is None:
            recorded = positions[item.probe.label]
            tally.vectors += 1
            tally.errors.append(f"STALE recording {item.probe.label}: recorded for {recorded.fen!r} side"
                                f" {recorded.side}, the position is now {item.probe.fen!r} side {item.probe.side}"
                                " (re-record the engine's vectors)")
        elif item.kit is None:
            tally.vectors += 1
            tally.errors.append(f"ERROR {item.probe.label}: {item.probe.fen!r} schema {item.schema.id}:"
                                f" kit: {item.kit_error}")
        else:
            compare(item.probe, item.schema, item.kit, answer, tally)
    return tally


def recorded_positions() -> dict[str, Any]:
    from contract.recordings import enginelive

    return {p.label: p for p in enginelive.read(data_root() / enginelive.VECTORS_FILE)}


def kit_items(probes: Sequence[Probe], schemas: Sequence[registry.FeatureSchema]) -> Iterator[Item]:
    """The kit's own vector for every probe and schema, extracted as it goes."""
    from contract.features import extract_fen

    for probe in probes:
        for schema in schemas:
            try:
                vector = [float(v) for v in extract_fen(schema.id, probe.fen, probe.side).tolist()]
            except ValueError as exc:
                yield Item(probe, schema, None, str(exc))
                continue
            yield Item(probe, schema, vector)


def report(tally: Tally, other: str = "engine") -> None:
    for line in (tally.errors + tally.mismatches)[:SHOWN]:
        print(line)
    hidden = len(tally.errors) + len(tally.mismatches) - SHOWN
    if hidden > 0:
        print(f"... and {hidden} more")
    lacking = "unsupported by the engine" if other == "engine" else "not recorded"
    print(f"{tally.vectors} vectors compared: {tally.identical} bit-identical, {len(tally.mismatches)} mismatched,"
          f" {len(tally.errors)} error(s); {tally.unsupported} {lacking}")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--positions", type=int, default=DEFAULT_POSITIONS, metavar="N",
                        help=f"random-play positions besides the golden probes (default {DEFAULT_POSITIONS})")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"random-play seed (default {DEFAULT_SEED})")
    parser.add_argument("--schemas", metavar="ID[,ID]", default=None, help="restrict to these feature schemas")
    parser.add_argument("--no-probes", action="store_true", help="random positions only")
    parser.add_argument("--command", metavar="COMMAND", default=None,
                        help=f"engine adapter command (default ${env_variable('engine')}, else adapters/jvm built"
                             " for --engine-version)")
    parser.add_argument("--engine-version", metavar="VERSION", default=engine_build.DEFAULT_ENGINE_VERSION,
                        help=f"engine release to build adapters/jvm against (default"
                             f" {engine_build.DEFAULT_ENGINE_VERSION})")
    parser.add_argument("--require-engine", action="store_true",
                        help="fail (exit 1) instead of skipping when no live engine can be had")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, metavar="SECONDS", help="per-answer timeout")
    parser.add_argument("--budget", type=float, default=DEFAULT_BUDGET, metavar="SECONDS",
                        help=f"overall time for all the engine's answers (default {DEFAULT_BUDGET:g})")


def _schemas(text: str | None) -> list[registry.FeatureSchema]:
    known = registry.feature_schemas()
    if text is None:
        return list(known.values())
    chosen = [s.strip() for s in text.split(",") if s.strip()]
    unknown = [s for s in chosen if s not in known]
    if unknown or not chosen:
        raise ValueError(f"--schemas: unknown feature schema(s) {', '.join(unknown) or '(none given)'};"
                         f" known: {', '.join(known)}")
    return [known[s] for s in chosen]


def engine_command(command: str | None, version: str) -> tuple[tuple[str, ...] | None, str]:
    """(adapter command, what it is) from ``command``, ``$DICECHESS_CONFORMANCE_ENGINE`` or a build of
    ``adapters/jvm`` for ``version``; (None, the reason) when there is no live engine."""
    given = command if command is not None else os.environ.get(env_variable("engine"), "")
    if given.strip():
        return tuple(shlex.split(given)), f"adapter command {given.strip()!r}"
    built = engine_build.build(version)
    if built.command is None:
        return None, built.reason or "no reason given"
    return built.command, f"{engine_build.ENGINE_ARTIFACT}:{version} through adapters/jvm"


def main(args: argparse.Namespace) -> int:
    try:
        schemas = _schemas(args.schemas)
        if args.positions < 0:
            raise ValueError("--positions must not be negative")
        for option, value in (("--timeout", args.timeout), ("--budget", args.budget)):
            if (problem := seconds_problem(option, value)) is not None:
                raise ValueError(problem)
        engine_build.check_version(args.engine_version)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    command, source = engine_command(args.command, args.engine_version)
    if command is None and args.require_engine:
        print(f"SKIPPED: no live engine ({source})")
        return EXIT_FAILED
    try:
        probes = ([] if args.no_probes else golden_probes()) + list(random_positions(args.positions, args.seed))
        positions = recorded_positions() if command is None else {}
    except (formatversion.FormatVersionError, ContractError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_FAILED
    against = (f"{source}" if command is not None else
               f"the engine's recorded vectors (recorded: no live engine: {source})")
    print(f"differential: the kit against {against}: {len(probes)} positions"
          f" ({len(probes) - args.positions} probes, {args.positions} random, seed {args.seed})"
          f" x {len(schemas)} schemas", flush=True)
    items = kit_items(probes, schemas)
    tally = check(command, items, args.timeout, args.budget) if command is not None else replay(items, positions)
    report(tally, "engine" if command is not None else "recording")
    print("PASS" if tally.ok else "FAIL")
    return EXIT_OK if tally.ok else EXIT_FAILED
