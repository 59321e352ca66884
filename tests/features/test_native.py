"""The native accelerator (issue 26) against the Python reference and the engine's recordings.

The Python extractors (``contract.features.extractors.EXTRACTORS``) are the reference; the accelerator is
checked against them and against the engine's live recording (``golden/recorded/engine-live/``), never
the other way round. The tests that need the accelerator skip, saying why, where it is not importable
(the pure-Python suite); under ``DICECHESS_BACKEND=native`` (tox -e native) they fail instead.

``DICECHESS_NATIVE_POSITIONS`` sets the random differential's size (default 2,000; tox -e native runs
20,000; 100,000 on demand).
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from contract.conformance.differential import golden_probes, random_positions
from contract.core import registry
from contract.features import Position, backend, extract, extract_batch, extract_rows, parse_fen, twin_fen
from contract.features.dfen import FenError
from contract.features.extractors import EXTRACTORS
from contract.features.rows import CHUNK_ROWS, extract_matrix
from contract.recordings import enginelive

REPO = Path(__file__).resolve().parents[2]
SCHEMAS = tuple(registry.schema_ids())
POSITIONS = int(os.environ.get("DICECHESS_NATIVE_POSITIONS", "2000"))
SEED = 2612  # not the recorded differential's seed: these positions are new to both sides


def reference(schema_id: str, position: Position, white: bool) -> np.ndarray:
    """The Python reference's vector, whatever backend is active."""
    return np.asarray(EXTRACTORS[registry.get(schema_id).engine_extractor](position, white), dtype=np.float32)


def bits(matrix: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(matrix, dtype=np.float32).view(np.uint32)


def use(monkeypatch: pytest.MonkeyPatch, name: str | None) -> backend.Backend:
    if name is None:
        monkeypatch.delenv(backend.ENV, raising=False)
    else:
        monkeypatch.setenv(backend.ENV, name)
    backend.reset()
    return backend.active()


@pytest.fixture
def accelerator() -> Iterator[backend.Backend]:
    backend.reset()
    active = backend.active()  # DICECHESS_BACKEND=native and no accelerator: BackendError, a failure
    if active.name != "native":
        pytest.skip(f"the native accelerator is not in use: {active.note}")
    yield active
    backend.reset()


@pytest.fixture
def restore_backend() -> Iterator[None]:
    yield
    backend.reset()


def native_fens(active: backend.Backend, schema_id: str, fens: list[str], sides: str) -> np.ndarray:
    code = active.code(schema_id)
    assert code is not None
    matrix, status = backend.fens(active, code, fens, sides.encode())
    assert not status.any(), [fens[i] for i in np.flatnonzero(status)[:3]]
    return matrix


def test_native_equals_the_engine_recording_and_the_reference_on_every_recorded_position(
        accelerator: backend.Backend) -> None:
    recorded = enginelive.read(REPO / enginelive.VECTORS_FILE)
    assert len(recorded) == 2114
    fens = [p.fen for p in recorded]
    sides = "".join(p.side for p in recorded)
    positions = [parse_fen(fen) for fen in fens]
    for schema_id in SCHEMAS:
        engine = np.array([p.bits[schema_id] for p in recorded], dtype=np.uint32)
        native = bits(native_fens(accelerator, schema_id, fens, sides))
        python = bits(np.stack([reference(schema_id, pos, p.side == "w") for pos, p in zip(positions, recorded,
                                                                                           strict=True)]))
        assert np.array_equal(python, engine), schema_id
        wrong = np.flatnonzero((native != engine).any(axis=1))
        assert not wrong.size, (schema_id, [recorded[i].label for i in wrong[:5]])


def test_native_equals_the_reference_on_random_positions_and_their_twins(accelerator: backend.Backend) -> None:
    probes = list(random_positions(POSITIONS, SEED))
    fens = [p.fen for p in probes]
    sides = "".join(p.side for p in probes)
    # the colour-flipped twins of the golden probes and of the first 1,000 random positions, other side
    twins = [(twin_fen(p.fen), "b" if p.side == "w" else "w") for p in [*golden_probes(), *probes[:1000]]]
    positions = [parse_fen(fen) for fen in fens]
    twin_positions = [parse_fen(fen) for fen, _side in twins]
    for schema_id in SCHEMAS:
        python = bits(np.stack([reference(schema_id, pos, p.side == "w")
                                for pos, p in zip(positions, probes, strict=True)]))
        from_text = bits(native_fens(accelerator, schema_id, fens, sides))
        from_positions = bits(extract_batch(schema_id, [(pos, p.side) for pos, p in zip(positions, probes,
                                                                                          strict=True)]))
        for native in (from_text, from_positions):
            wrong = np.flatnonzero((native != python).any(axis=1))
            assert not wrong.size, (schema_id, [(probes[i].fen, probes[i].side) for i in wrong[:3]])
        twin_python = bits(np.stack([reference(schema_id, pos, side == "w")
                                     for pos, (_fen, side) in zip(twin_positions, twins, strict=True)]))
        twin_native = bits(native_fens(accelerator, schema_id, [f for f, _s in twins], "".join(s for _f, s in twins)))
        assert np.array_equal(twin_native, twin_python), schema_id


def test_parsed_batch_extract_equals_the_reference_into_any_output(accelerator: backend.Backend) -> None:
    """``ParsedBatch.extract`` (what ``bench --throughput`` times): every schema, with a fresh output and
    into reused outputs that hold other values, at each of the 16 float offsets from a 64-byte boundary
    (raw-board-768-v1 streams whole 64-byte lines and re-aligns them: every offset is its own code path)."""
    module: Any = accelerator.module
    probes = [*golden_probes(), *random_positions(300, SEED + 2)]
    fens = [p.fen for p in probes]
    sides = "".join(p.side for p in probes[:-1]) + "-"  # the last row: the FEN's own side to move
    colours = [p.side == "w" for p in probes[:-1]] + [parse_fen(fens[-1]).turn]
    parsed = module.parse_fens(fens)
    for schema_id in SCHEMAS:
        code = accelerator.code(schema_id)
        width = registry.get(schema_id).width
        python = bits(np.stack([reference(schema_id, parse_fen(fen), white) for fen, white in zip(fens, colours,
                                                                                                  strict=True)]))
        assert np.array_equal(bits(parsed.extract(code, sides.encode())), python), schema_id
        flat = np.full(len(fens) * width + 64, np.float32(-7.5))
        first = (-(flat.ctypes.data // 4)) % 16  # the first float on a 64-byte boundary
        for offset in range(16):
            start = first + offset
            out = flat[start:start + len(fens) * width].reshape(len(fens), width)
            assert parsed.extract(code, sides.encode(), out) is out
            assert np.array_equal(bits(out), python), (schema_id, offset)
            untouched = np.concatenate([flat[:start], flat[start + out.size:]])
            assert (untouched == np.float32(-7.5)).all(), (schema_id, offset)
            flat[:] = np.float32(-7.5)


def _mutations(rng: random.Random, count: int) -> list[str]:
    """Valid DFEN texts with one to three random edits (insert, delete, replace), and random texts."""
    seeds = [p.fen for p in golden_probes()] + ["8/8/8/8/8/8/8/8 w - - 0 1 PNB", "4k3/8/8/8/8/8/8/4K3 b Qk e3e6 127 9"]
    alphabet = "pnbrqkPNBRQKx0123456789/ -wbKQkqabcdefgh\t"
    out = []
    for i in range(count):
        if i % 10 == 0:
            out.append("".join(rng.choice(alphabet) for _ in range(rng.randint(0, 60))))
            continue
        text = list(rng.choice(seeds))
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(text) + 1)
            kind = rng.randrange(3)
            if kind == 0:
                text.insert(at, rng.choice(alphabet))
            elif text and at < len(text):
                if kind == 1:
                    del text[at]
                else:
                    text[at] = rng.choice(alphabet)
        out.append("".join(text))
    return out


def _python_accepts(fen: str) -> bool:
    try:
        parse_fen(fen)
    except FenError:
        return False
    return True


def test_the_native_parser_accepts_exactly_what_the_reference_accepts(accelerator: backend.Backend) -> None:
    module: Any = accelerator.module
    texts = _mutations(random.Random(SEED), 20_000)
    texts += ["8/8/8/8/8/8/8/8/ w - -", "8/8/8/8/8/8/8/8 w - - 000000000000127 0002147483647 -",
              "8/8/8/8/8/8/8/8 w - - 128", "8/8/8/8/8/8/8/8 w - - 0 2147483648", "8/8/8/8/8/8/8/8 w - - 0 0",
              "8/8/8/8/8/8/8/8 w KQkqK -", "8/8/8/8/8/8/8/8 w - a3a3", "8/8/8/8/8/8/8/8 w - - 0 1 pnbr",
              "9/8/8/8/8/8/8/8 w - -", "08/8/8/8/8/8/8/44p w - -", "8/8/8/8/8/8/8/8 w - -  ", " 8/8/8/8/8/8/8/8 w - -"]
    accepted = sum(map(_python_accepts, texts))
    assert 500 < accepted < len(texts) - 500  # both kinds are well represented
    disagree = [t for t in texts if bool(module.accepts(t)) != _python_accepts(t)]
    assert not disagree, disagree[:5]


ROWS_KINGS = "4k3/8/8/8/8/8/8/4K3 w - -"


def _rows() -> list[object]:
    rng = random.Random(SEED + 1)
    texts = _mutations(rng, 1_500)
    rows: list[object] = [{"id": i, "fen": t, **({"side": "wb"[i % 2]} if i % 3 else {})} for i, t in enumerate(texts)]
    rows += [{"id": f"probe {p.label}", "fen": p.fen, "side": p.side} for p in golden_probes()]
    rows += [
        {"id": "kelvin", "fen": "4\u212a3/8/8/8/8/8/8/4K3 w - -"},  # KELVIN SIGN: Python lowers it to 'k'
        {"id": "surrogate", "fen": "4k3/8/8/8/8/8/8/4K3 w - - \ud800"},
        {"id": "e-acute", "fen": "4k3/8/8/8/8/8/8/4K3 w - - 0 1 \u00e9"},
        {"id": "no-fen"}, {"fen": ROWS_KINGS}, {"id": 1.5, "fen": ROWS_KINGS}, {"id": "x", "fen": 7},
        {"id": "side", "fen": ROWS_KINGS, "side": "white"}, "not an object", {"id": "ok", "fen": ROWS_KINGS},
    ]
    return rows


def _results(schema_id: str, rows: list[object]) -> list[tuple[Any, ...]]:
    return [(r.index, r.id, r.error, None if r.features is None else bits(r.features).tobytes())
            for r in extract_rows(schema_id, rows)]


@pytest.mark.parametrize("schema_id", ["kcp-mobility-pawns-31-v1", "raw-board-768-v1"])
def test_extract_rows_gives_the_same_results_and_messages_on_both_backends(
        schema_id: str, accelerator: backend.Backend, monkeypatch: pytest.MonkeyPatch) -> None:
    rows = _rows()
    assert len(rows) > CHUNK_ROWS  # crosses a chunk boundary
    native = _results(schema_id, rows)
    assert use(monkeypatch, "python").name == "python"
    python = _results(schema_id, rows)
    assert native == python
    assert sum(error is None for _i, _id, error, _f in native) > 100
    assert next(r for r in native if r[1] == "kelvin")[2] is None  # accepted, through the reference
    backend.reset()


@pytest.mark.usefixtures("restore_backend")
@pytest.mark.parametrize("schema_id", ["kcp-13", "raw-board-768-v1"])
@pytest.mark.parametrize("name", ["native", "python", "faulty native"])
def test_extract_matrix_is_extract_rows_as_one_matrix(schema_id: str, name: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The bulk paths' form (one matrix, errors, ids) against the per-row results, on hostile rows across
    chunk boundaries; "faulty native": every native call raises, as a Rust panic would, and the reference
    takes the rows."""
    valid = iter([{"id": f"valid {i}", "fen": p.fen, "side": p.side} for i, p in enumerate(random_positions(300, 7))])
    rows: list[object] = []
    for row in _rows():  # a valid row at every eighth place, so first in each chunk of CHUNK_ROWS
        if len(rows) % 8 == 0:
            rows.append(next(valid))
        rows.append(row)
    assert CHUNK_ROWS % 8 == 0 and len(rows) > CHUNK_ROWS
    chosen = use(monkeypatch, None if name != "python" else "python")
    if name != "python" and chosen.name != "native":
        pytest.skip(f"the native accelerator is not in use: {chosen.note}")
    if name == "faulty native":
        def panic(*_args: object) -> Any:
            raise BaseException("a Rust panic")

        monkeypatch.setattr(backend, "fens", panic)
    results = list(extract_rows(schema_id, rows))
    vectors, errors, ids = extract_matrix(schema_id, rows)
    assert errors == [r.error for r in results]
    assert ids == [r.id for r in results]
    width = registry.get(schema_id).width
    expected = np.stack([np.zeros(width, np.float32) if r.features is None else r.features for r in results])
    assert vectors.dtype == np.float32 and np.array_equal(bits(vectors), bits(expected))
    assert sum(error is None for error in errors) > 250


def test_extract_batch_and_extract_take_hand_made_positions_through_the_reference(
        accelerator: backend.Backend, monkeypatch: pytest.MonkeyPatch) -> None:
    good = parse_fen("r3k2r/pppq1ppp/8/3Pp3/8/8/PPPQ1PPP/R3K2R w KQkq e6")
    overlapping = Position((good.boards[0], (good.boards[1][0] | 1 << 60, *good.boards[1][1:6],
                                             good.boards[1][6] | 1 << 60)), castling=15, ep=1 << 44)
    negative_castling = Position(good.boards, castling=-1, ep=good.ep)
    items = [(good, "w"), (overlapping, True), (negative_castling, False), (good, 0)]
    native = {s: extract_batch(s, items) for s in SCHEMAS}
    singles = {s: [extract(s, p, c) for p, c in items] for s in SCHEMAS}
    use(monkeypatch, "python")
    for schema_id in SCHEMAS:
        python = extract_batch(schema_id, items)
        assert np.array_equal(bits(native[schema_id]), bits(python)), schema_id
        assert np.array_equal(bits(np.stack(singles[schema_id])), bits(python)), schema_id
    backend.reset()


@pytest.mark.usefixtures("restore_backend")
def test_dicechess_backend_chooses_and_a_forced_native_without_the_accelerator_is_one_clear_line(
        monkeypatch: pytest.MonkeyPatch) -> None:
    chosen = use(monkeypatch, "python")
    assert (chosen.name, chosen.code("kcp-13")) == ("python", None)
    assert chosen.describe() == "python (DICECHESS_BACKEND=python)"
    monkeypatch.setenv(backend.ENV, "rust")
    backend.reset()
    with pytest.raises(backend.BackendError, match=r"^DICECHESS_BACKEND must be 'native' or 'python' \(or unset\), "
                                                   r"not 'rust'$"):
        backend.active()
    monkeypatch.setitem(sys.modules, backend.MODULE, None)  # hides an installed accelerator
    monkeypatch.setenv(backend.ENV, "native")
    backend.reset()
    with pytest.raises(backend.BackendError) as refused:
        backend.active()
    assert str(refused.value).startswith("DICECHESS_BACKEND=native, but the native accelerator cannot be used: "
                                         "accelerator not importable: ")
    assert "\n" not in str(refused.value)
    hidden = use(monkeypatch, None)
    assert hidden.name == "python" and hidden.note.startswith("accelerator not importable")
    results = list(extract_rows("kcp-13", [{"id": 1, "fen": ROWS_KINGS}, {"id": 2, "fen": "8/8 w - -"}]))
    assert results[0].ok and results[1].error is not None and results[1].error.startswith("bad FEN placement")


@pytest.mark.usefixtures("restore_backend")
def test_an_accelerator_that_disagrees_with_the_registry_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    class Stale:
        __version__ = backend._kit_version()  # the kit's own version: only the registry check refuses it
        EXTRACTORS = ("OnnxFeatures",)
        WIDTHS = (7,)

    monkeypatch.setitem(sys.modules, backend.MODULE, Stale)
    chosen = use(monkeypatch, None)
    assert chosen.name == "python" and "has no extractor 'RichFeatures'" in chosen.note
    Stale.EXTRACTORS = tuple(EXTRACTORS)
    Stale.WIDTHS = (7, 9, 11, 13, 27, 31, 767)
    chosen = use(monkeypatch, None)
    assert chosen.name == "python" and "width of 'raw-board-768-v1'" in chosen.note



# -- review 2026-12-04: C4 (allocation), C5 (Fortran out), L1 (version), L2 (numpy boards) ----------------
_TOO_LARGE = r"""
import json, resource, sys
from contract.features import backend, extract_batch, parse_fen
limit = int(sys.argv[1])
active = backend.active()
pos = parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -")
fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"
items, fens = [(pos, True)] * 1_000_000, [fen] * 1_000_000   # raw-board-768-v1: 3 GB of float32
calls = {"extract_batch": lambda: extract_batch("raw-board-768-v1", items)}
if active.name == "native":
    module, code = active.module, active.code("raw-board-768-v1")
    calls["extract_fens"] = lambda: module.extract_fens(code, fens, b"w" * len(fens))
    positions = [pos] * len(items)
    calls["extract_positions"] = lambda: module.extract_positions(code, positions, b"\x01" * len(positions))
    calls["ParsedBatch.extract"] = lambda: module.parse_fens(fens).extract(code, b"w" * len(fens))
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
answers = {}
for name, call in calls.items():
    try:
        call()
        answers[name] = "returned"
    except MemoryError as exc:
        answers[name] = "MemoryError: " + str(exc)
print(json.dumps({"backend": active.name, "answers": answers}))
"""


@pytest.mark.slow
@pytest.mark.parametrize("name", ["python", "native"])
def test_a_batch_larger_than_memory_raises_memory_error_on_both_backends_never_aborts(
        name: str, tmp_path: Path) -> None:
    """Review C4: under an address-space limit (``ulimit -v``), ``extract_batch`` of 3 GB of raw-board rows
    raises the same catchable ``MemoryError`` (numpy's, for the same output) on both backends, and the
    accelerator's own entry points raise ``MemoryError`` too: the child exits 0, never 134 (Rust's abort)."""
    if name == "native":
        backend.reset()
        if backend.active().name != "native":
            pytest.skip(f"the native accelerator is not in use: {backend.active().note}")
        backend.reset()
    script = tmp_path / "too_large.py"
    script.write_text(_TOO_LARGE, encoding="utf-8")
    env = {**os.environ, backend.ENV: name, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    done = subprocess.run([sys.executable, str(script), str(2_500_000 * 1024)], capture_output=True, text=True,
                          env=env, timeout=300, check=False)
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    answer = json.loads(done.stdout)
    assert answer["backend"] == name
    expected = ["extract_batch"] + (["extract_fens", "extract_positions", "ParsedBatch.extract"]
                                    if name == "native" else [])
    assert list(answer["answers"]) == expected
    assert all(a.startswith("MemoryError: ") for a in answer["answers"].values()), answer
    assert answer["answers"]["extract_batch"] == ("MemoryError: Unable to allocate 2.86 GiB for an array with "
                                                  "shape (1000000, 768) and data type float32")


@pytest.mark.parametrize("schema_id", SCHEMAS)
def test_batches_longer_than_one_accelerator_call_are_gathered_in_order(
        accelerator: backend.Backend, monkeypatch: pytest.MonkeyPatch, schema_id: str) -> None:
    """Review C4: ``backend.fens``/``positions`` hand the accelerator CHUNK rows at a time into one array
    numpy allocates; a batch of several chunks (and a last partial one) gives the reference's rows in order,
    rows left to Python included."""
    monkeypatch.setattr(backend, "CHUNK", 7)
    probes = list(random_positions(40, SEED + 5))
    good = parse_fen(probes[0].fen)
    overlapping = Position((good.boards[0], (good.boards[1][0] | 1 << 60, *good.boards[1][1:])), castling=15)
    items: list[tuple[Position, object]] = [(parse_fen(p.fen), p.side) for p in probes]
    items[9] = (overlapping, True)  # left to the reference by the accelerator
    native = extract_batch(schema_id, items)
    code = accelerator.code(schema_id)
    assert code is not None
    matrix, status = backend.fens(accelerator, code, [p.fen for p in probes] + ["8/8 w - -"],
                                  "".join(p.side for p in probes).encode() + b"w")
    assert status.tolist() == [0] * len(probes) + [1]
    python = np.stack([reference(schema_id, position, c in ("w", True)) for position, c in items])
    assert np.array_equal(bits(native), bits(python)), schema_id
    fresh = np.stack([reference(schema_id, parse_fen(p.fen), p.side == "w") for p in probes])
    assert np.array_equal(bits(matrix[:-1]), bits(fresh)) and not matrix[-1].any()


def test_parsed_batch_extract_refuses_an_out_that_is_not_c_contiguous(accelerator: backend.Backend) -> None:
    """Review C5: a Fortran-ordered ``out`` of the right shape (and a transposed or strided one) is refused
    with the message the other refusals give, and nothing is written into it."""
    module: Any = accelerator.module
    fens = ["rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3", "4k3/8/8/8/8/8/8/4K2R w K -",
            "r3k2r/pppq1ppp/8/3Pp3/8/8/PPPQ1PPP/R3K2R w KQkq e6"]
    parsed = module.parse_fens(fens)
    for schema_id in SCHEMAS:
        code = accelerator.code(schema_id)
        width = registry.get(schema_id).width
        fortran = np.full((width, 3), np.float32(-7.5)).T
        assert fortran.shape == (3, width) and fortran.flags.f_contiguous and not fortran.flags.c_contiguous
        strided = np.full((3, 2 * width), np.float32(-7.5))[:, ::2]
        for out in (fortran, strided, np.asfortranarray(np.full((3, width), np.float32(-7.5)))):
            with pytest.raises(ValueError, match=r"^out must be C-contiguous and aligned$"):
                parsed.extract(code, b"wbw", out)
            assert (out == np.float32(-7.5)).all(), schema_id


def _stand_in(version: object) -> type:
    class StandIn:  # an accelerator that agrees with the registry, of another version
        __version__ = version
        EXTRACTORS = tuple(registry.get(s).engine_extractor for s in SCHEMAS)
        WIDTHS = tuple(registry.get(s).width for s in SCHEMAS)

    return StandIn


@pytest.mark.usefixtures("restore_backend")
def test_an_accelerator_of_another_version_is_not_used_and_says_so_once(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Review L1: an accelerator whose ``__version__`` is not the kit's is never used: unset, Python computes
    and ONE line on stderr names both versions (once per process); ``DICECHESS_BACKEND=native`` refuses."""
    kit = backend._kit_version()
    monkeypatch.delenv(backend.SAID_ENV, raising=False)
    monkeypatch.setitem(sys.modules, backend.MODULE, _stand_in("0.0.1"))
    chosen = use(monkeypatch, None)
    expected = (f"dicechess_native 0.0.1 is not the kit's version {kit} (rebuild native/ or reinstall "
                f"dicechess-contract-native {kit})")
    assert (chosen.name, chosen.note) == ("python", expected)
    assert capsys.readouterr().err == (f"dicechess-contract: warning: the native accelerator is not used: "
                                       f"{expected}; computing in Python\n")
    assert use(monkeypatch, None).name == "python" and capsys.readouterr().err == ""  # once per run
    assert os.environ[backend.SAID_ENV] == expected  # what the workers of a run inherit
    assert extract("kcp-13", parse_fen(ROWS_KINGS), True).tolist() == reference(
        "kcp-13", parse_fen(ROWS_KINGS), True).tolist()
    monkeypatch.setenv(backend.ENV, "native")
    backend.reset()
    with pytest.raises(backend.BackendError, match="^DICECHESS_BACKEND=native, but the native accelerator cannot "
                                                   r"be used: dicechess_native 0\.0\.1 is not the kit's version "):
        backend.active()
    monkeypatch.setitem(sys.modules, backend.MODULE, _stand_in(None))  # no version at all
    assert use(monkeypatch, None).note.startswith("dicechess_native None is not the kit's version")
    assert "dicechess_native None" in capsys.readouterr().err
    monkeypatch.setitem(sys.modules, backend.MODULE, _stand_in(kit))
    assert use(monkeypatch, None).name == "native" and capsys.readouterr().err == ""


@pytest.mark.source  # reads native/'s manifests, which a mutation run's scratch copy does not hold
def test_the_accelerator_is_versioned_as_the_kit() -> None:
    """Review L1: native/ is released with the kit, so its version is the kit's (a bump of one without the
    other would make every build of native/ refused)."""
    kit = re.search(r'(?m)^__version__ = "([^"]+)"$', (REPO / "contract" / "_version.py").read_text(encoding="utf-8"))
    for crate_file in ("native/Cargo.toml", "native/pyproject.toml"):
        crate = re.search(r'(?m)^version = "([^"]+)"$', (REPO / crate_file).read_text(encoding="utf-8"))
        assert kit is not None and crate is not None and crate.group(1) == kit.group(1), crate_file


def _answer(schema_id: str, position: Position) -> tuple[str, str]:
    try:
        return "value", " ".join(map(str, bits(extract(schema_id, position, True)[None, :])[0].tolist()))
    except Exception as exc:  # the answer compared is the exception itself
        return type(exc).__name__, str(exc)


def test_numpy_integer_boards_get_the_same_answer_from_both_backends(
        accelerator: backend.Backend, monkeypatch: pytest.MonkeyPatch) -> None:
    """Review L2: a hand-made Position whose boards (or castling, or en passant) are numpy integers, not
    ``int``, is left by the accelerator to the Python reference: both backends give the same answer."""
    good = parse_fen("r3k2r/pppq1ppp/8/3Pp3/8/8/PPPQ1PPP/R3K2R w KQkq e6")
    numpy_boards = tuple(tuple(np.uint64(b) for b in side) for side in good.boards)
    hands = [Position(numpy_boards, True, 15, good.ep),  # type: ignore[arg-type]
             Position(good.boards, True, np.int64(15), good.ep),  # type: ignore[arg-type]
             Position(good.boards, True, 15, np.uint64(good.ep)),  # type: ignore[arg-type]
             Position(good.boards, True, True, good.ep)]  # bool is an int: the same on both
    native = {(s, i): _answer(s, p) for s in SCHEMAS for i, p in enumerate(hands)}
    use(monkeypatch, "python")
    python = {(s, i): _answer(s, p) for s in SCHEMAS for i, p in enumerate(hands)}
    assert native == python
    backend.reset()


_STALE_MODULE = """
__version__ = "0.0.1"
EXTRACTORS = ["OnnxFeatures", "RichFeatures", "RichPdiFeatures", "KcpFeatures", "KcpMobilityFeatures",
              "KcpMobilityPawnsFeatures", "RawBoardFeatures"]
WIDTHS = [7, 9, 11, 13, 27, 31, 768]
def extract_fens(code, fens, sides):
    raise AssertionError("a refused accelerator was called")
extract_positions = extract_fens
"""


@pytest.mark.slow
def test_extract_with_a_stale_accelerator_warns_once_and_gives_the_reference(tmp_path: Path) -> None:
    """Review L1, as reproducer 12 runs it: ``extract --jobs 2`` (two worker processes) with an accelerator
    of version 0.0.1 on the path writes the reference's vectors, and stderr holds exactly one warning."""
    (tmp_path / "stand_in").mkdir()
    (tmp_path / "stand_in" / "dicechess_native.py").write_text(_STALE_MODULE, encoding="utf-8")
    rows = [{"id": i, "fen": fen} for i, fen in enumerate([ROWS_KINGS, "r3k2r/pppq1ppp/8/3Pp3/8/8/PPPQ1PPP/R3K2R "
                                                                        "w KQkq e6"] * 300)]
    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in (backend.ENV, backend.SAID_ENV)}
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path / "stand_in"), str(REPO)])
    done = subprocess.run([sys.executable, "-m", "contract", "extract", "--schema", "material-7-v1", "--input",
                           str(source), "--output", str(tmp_path / "out.jsonl"), "--jobs", "2", "--chunk-size", "50"],
                          capture_output=True, text=True, env=env, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    kit = backend._kit_version()
    assert [line for line in lines if "warning" in line] == [
        f"dicechess-contract: warning: the native accelerator is not used: dicechess_native 0.0.1 is not the kit's "
        f"version {kit} (rebuild native/ or reinstall dicechess-contract-native {kit}); computing in Python"], lines
    written = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(written) == len(rows)
    for row, line in zip(rows, written, strict=True):
        expected = reference("material-7-v1", parse_fen(row["fen"]), parse_fen(row["fen"]).turn)
        assert line["features"] == [float(v) for v in expected], row
