"""Ask every implementation every case and compare each answer with the canonical one.

An implementation is *live* (an adapter command speaking the protocol) or *recorded* (the engine,
training and service answers recorded in the verdicts file and the corpora, replayed). The built-in
names resolve as follows: ``kit`` runs this kit's adapter; ``js`` runs ``node js/src/adapter.js``;
``engine``, ``training`` and ``service`` run the command in ``DICECHESS_CONFORMANCE_<NAME>`` when that
variable is set, and are replayed from the recordings otherwise (``NAME=recorded`` forces the replay).
Any other name needs ``NAME=COMMAND``.

Comparison: ``outcome``/``verdict`` and ``message`` exactly (a message may be a prefix where the corpus
says so), vectors value by value as float32 bit patterns. A recorded answer that names no exact text
is compared on its verdict only. A disagreement on a case ``golden/divergences.json`` lists is listed
only when the answer is the very one the entry records (:func:`same_answer`); any other answer is a
*changed* listed answer and fails the run, naming the case and both answers.

An ``error`` answer (the adapter or the implementation failed on that case) is never an agreement and
never a listed divergence: it fails the run whatever ``golden/divergences.json`` says. An adapter that
dies (cannot start, exits, answers out of order, times out, stops reading, answers with an over-long
line, or outlives the run's overall ``budget``) stops the run at once with :class:`AdapterFailure`,
whose one message names the implementation, the case and the last lines of the adapter's stderr.
Adapters start in the caller's working directory.

``unsupported`` is not a failure case by case, but "unsupported for everything" is never agreement: a
live implementation that supports fewer cases of a kind than its :func:`support_floor` (the kit: every
case; js: every engine-compatibility and manifest case; the engine: every case its recording answers;
any other: at least one, except the kinds an adapter of this project does not answer by design) is a :class:`Shortfall`
and fails the run, with a message saying so (restrict the run with ``--kinds`` to the kinds it has).
"""

from __future__ import annotations

import os
import shlex
import shutil
import struct
import subprocess
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from contract.conformance.corpus import Case, Expected
from contract.conformance.corpusroot import CorpusChoice
from contract.conformance.divergences import Divergence
from contract.conformance.protocol import LiveAdapter
from contract.conformance.recording import StaleRecording, stale_recordings
from contract.core.errors import ContractError
from contract.core.resources import data_root

RECORDED: Final = "recorded"
LIVE: Final = "live"
RECORDED_IMPLEMENTATIONS: Final = ("engine", "training", "service")
ENV_PREFIX: Final = "DICECHESS_CONFORMANCE_"
DEFAULT_TIMEOUT: Final = 120.0
DEFAULT_BUDGET: Final = 3600.0  # seconds for all the live exchanges of one run


class UsageError(ContractError, ValueError):
    """An ``--impl`` that cannot be resolved."""


class AdapterFailure(ContractError, RuntimeError):
    """A live adapter died before answering every case; the message says which, where and why."""


@dataclass(frozen=True)
class Implementation:
    name: str
    mode: str  # live | recorded
    command: tuple[str, ...] = ()


def env_variable(name: str) -> str:
    return ENV_PREFIX + name.upper().replace("-", "_")


KIT_CODE: Final = Path(__file__).resolve().parent.parent.parent  # the directory holding this contract/ package


def builtin_command(name: str) -> tuple[str, ...] | None:
    if name == "kit":
        # -P and KIT_CODE first on its path (ask_all): the kit answering is the kit running, never another
        # checkout's contract/ found through the working directory
        return (sys.executable, "-P", "-m", "contract.conformance.adapter")
    if name == "js":
        return ("node", str(data_root() / "js" / "src" / "adapter.js"))
    return None


JS_REQUIRES: Final = "ajv/dist/2020"  # the Node adapter's one npm dependency (js/package.json)
JS_CHECK_TIMEOUT: Final = 30.0


def js_problem(root: Path | None = None) -> str | None:
    """Why the built-in ``js`` adapter cannot run here (one line saying what to pass), or ``None``.

    ``js/`` ships in a checkout (and the sdist), not in the wheel, and needs ``npm ci --prefix js``."""
    script = (data_root() if root is None else root) / "js" / "src" / "adapter.js"
    other = '--impl js="node CHECKOUT/js/src/adapter.js"'
    if not script.is_file():
        return (f"the Node adapter is not installed with this kit ({script} does not exist: js/ ships in a"
                f" checkout of dicechess-contract, not in the wheel); pass {other} with a checkout's adapter"
                " after `npm ci --prefix CHECKOUT/js`")
    node = shutil.which("node")
    if node is None:
        return f"node is not on PATH (the Node adapter {script} needs Node.js >= 20)"
    probe = f"require.resolve({JS_REQUIRES!r}, {{paths: [{str(script.parent)!r}]}})"
    try:
        done = subprocess.run([node, "-e", probe], capture_output=True, timeout=JS_CHECK_TIMEOUT, check=False,
                              stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"cannot run {node}: {exc}"
    if done.returncode != 0:
        return (f"the Node adapter's dependencies are not installed (node cannot find {JS_REQUIRES} from"
                f" {script.parent}): run `npm ci --prefix {script.parent.parent}` first, or pass {other}")
    return None


def resolve(spec: str, environ: dict[str, str] | None = None) -> Implementation:
    """``NAME``, ``NAME=COMMAND`` or ``NAME=recorded`` -> an :class:`Implementation`."""
    env = os.environ if environ is None else environ
    name, sep, command = spec.partition("=")
    name = name.strip()
    if not name or not name.replace("-", "").isalnum() or name != name.lower():
        raise UsageError(f"--impl {spec!r}: the name must be lowercase letters, digits and '-'")
    if sep:
        if command.strip() == RECORDED:
            if name not in RECORDED_IMPLEMENTATIONS:
                raise UsageError(f"--impl {spec!r}: only {', '.join(RECORDED_IMPLEMENTATIONS)} have recordings")
            return Implementation(name, RECORDED)
        words = tuple(shlex.split(command))
        if not words:
            raise UsageError(f"--impl {spec!r}: empty command")
        return Implementation(name, LIVE, words)
    builtin = builtin_command(name)
    if builtin is not None:
        return Implementation(name, LIVE, builtin)
    if name in RECORDED_IMPLEMENTATIONS:
        configured = env.get(env_variable(name), "").strip()
        if configured:
            return Implementation(name, LIVE, tuple(shlex.split(configured)))
        return Implementation(name, RECORDED)
    raise UsageError(f"--impl {spec!r}: unknown implementation; give a command as {name}=COMMAND")


# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Result:
    implementation: str
    case: Case
    status: str  # agree | disagree | unsupported | error
    got: dict[str, Any]
    compared: tuple[str, ...]


def _float32_bits(value: Any) -> bytes | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        return struct.pack("<f", value)
    except (OverflowError, struct.error):
        return None


def _same_vector(expected: Sequence[float], got: Any) -> bool:
    if not isinstance(got, list) or len(got) != len(expected):
        return False
    return all(_float32_bits(e) == _float32_bits(g) and _float32_bits(g) is not None
               for e, g in zip(expected, got, strict=True))


def answer_fields(answer: dict[str, Any]) -> dict[str, Any]:
    """What an answer says: every field but ``id`` and ``status``."""
    return {k: v for k, v in answer.items() if k not in ("id", "status")}


def same_answer(listed: dict[str, Any], answer: dict[str, Any]) -> bool:
    """Whether ``answer`` says exactly what a divergence entry lists: the same fields, each equal (a
    vector as float32 bit patterns, so 0.1 and its float32 are one value)."""
    got = answer_fields(answer)
    if set(got) != set(listed):
        return False
    for key, want in listed.items():
        if key == "vector" and isinstance(want, list):
            if not _same_vector(want, got[key]):
                return False
        elif want != got[key] or type(want) is not type(got[key]):
            return False
    return True


def compare(expected: Expected, answer: dict[str, Any]) -> tuple[str, tuple[str, ...]]:
    """(status, compared keys) of ``answer`` against ``expected``; only keys the answer has count."""
    status = answer.get("status")
    if status == "unsupported":
        return "unsupported", ()
    if status == "error":
        return "error", ("status",)
    keys = tuple(k for k in expected.fields if k in answer)
    for key in keys:
        want, got = expected.fields[key], answer[key]
        if key == "vector":
            if not _same_vector(want, got):
                return "disagree", keys
        elif key == "message" and expected.prefix and isinstance(want, str):
            if not (isinstance(got, str) and got.startswith(want)):
                return "disagree", keys
        elif want != got:
            return "disagree", keys
    if not keys:
        return "disagree", keys
    return "agree", keys


def recorded_answer(implementation: str, case: Case) -> dict[str, Any]:
    stale = case.stale.get(implementation)
    if stale is not None:  # never compared: the run reports it (Run.stale_recordings) and fails
        return {"id": case.id, "status": "unsupported", "message": f"stale recording: {stale}"}
    recording = case.recorded.get(implementation)
    if recording is None:
        return {"id": case.id, "status": "unsupported", "message": "not recorded"}
    return {"id": case.id, "status": recording.status, **recording.fields}


def seconds_problem(option: str, value: float) -> str | None:
    """Why ``value`` is no limit for ``option`` (``--timeout``, ``--budget``), or ``None``."""
    if value > 0 and value != float("inf"):
        return None
    return f"{option} {value:g}: give a positive number of seconds"


def budget_text(budget: float) -> str:
    return f"the run's overall budget of {budget:g} s (--budget)"


TEXT_KEPT: Final = 4096  # characters of an answer's text kept for the report (expected texts are far shorter)


def kept_text(text: str) -> str:
    """``text`` as a run keeps it: at most :data:`TEXT_KEPT` characters, saying how many more there were."""
    if len(text) <= TEXT_KEPT:
        return text
    return f"{text[:TEXT_KEPT]}... [{len(text) - TEXT_KEPT} more characters not kept]"


def kept_answer(answer: dict[str, Any], case: Case) -> dict[str, Any]:
    """``answer`` as the run keeps it for its report: a text longer than :data:`TEXT_KEPT` characters cut
    (saying how much was dropped), a list longer than the expected vector (or than 16 items) cut to one
    item more. Neither changes what :func:`compare` says: an expected text is shorter than what is kept
    (an exact or a prefix comparison gives the same result), and a longer list stays longer. So the
    run's memory is bounded by the number of cases, whatever each answer line (up to 16 MiB) holds."""
    kept: dict[str, Any] = {}
    for key, value in answer.items():
        kept[key] = value
        if isinstance(value, str):
            kept[key] = kept_text(value)
        elif isinstance(value, list):
            want = case.expected.fields.get(key)
            kept[key] = value[:(len(want) if isinstance(want, list) else 15) + 1]
    return kept


def ask_all(implementation: Implementation, cases: Sequence[Case], timeout: float,
            deadline: float | None = None, budget: float = DEFAULT_BUDGET) -> list[dict[str, Any]]:
    if implementation.mode == RECORDED:
        return [recorded_answer(implementation.name, case) for case in cases]
    answers = []
    own = implementation.command == builtin_command("kit")  # the kit's adapter runs this very kit's code
    with LiveAdapter(implementation.name, implementation.command, timeout, deadline=deadline,
                     budget_text=budget_text(budget), path_first=KIT_CODE if own else None) as adapter:
        for case in cases:
            answers.append(kept_answer(adapter.ask(case.request_line()), case))
            if adapter.dead is not None:
                raise AdapterFailure(f"implementation {implementation.name!r} "
                                     f"({shlex.join(implementation.command)}) failed at case {case.id}: "
                                     f"{adapter.dead}")
    return answers


def evaluate(implementation: Implementation, cases: Sequence[Case], answers: Sequence[dict[str, Any]]
             ) -> list[Result]:
    results = []
    for case, answer in zip(cases, answers, strict=True):
        status, keys = compare(case.expected, answer)
        results.append(Result(implementation.name, case, status, answer, keys))
    return results


# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Shortfall:
    """A live implementation that supported fewer cases of ``kind`` than its floor."""

    implementation: str
    kind: str
    cases: int
    supported: int
    floor: int
    why: str  # what the floor is

    @property
    def message(self) -> str:
        return (f"implementation {self.implementation!r} supports {self.supported} of the {self.cases} {self.kind}"
                f" cases it was asked, fewer than {self.floor} ({self.why}): answering 'unsupported' is never"
                f" agreement; fix the adapter, or leave {self.kind} out with --kinds")


# Kinds an adapter of this project answers 'unsupported' by design (js/src/adapter.js has no ONNX and no
# extractors; contract/conformance/training_adapter.py no extractor), and the adapters that answer every
# case of every other kind.
NOT_ANSWERED: Final = {"js": ("tensor-contract", "features"), "training": ("features",)}
EVERY_CASE: Final = ("kit", "js")


def support_floor(implementation: str, kind: str, cases: Sequence[Case]) -> tuple[int, str]:
    """(the fewest ``kind`` cases a live ``implementation`` must support, what that floor is)."""
    mine = [case for case in cases if case.kind == kind]
    if kind in NOT_ANSWERED.get(implementation, ()):
        return 0, f"the {implementation} adapter does not answer {kind}"
    if implementation in EVERY_CASE:
        return len(mine), f"the {implementation} adapter answers every {kind} case"
    if implementation == "engine":
        recorded = sum(1 for case in mine if "engine" in case.recorded)
        if recorded:
            return recorded, "the engine's recorded answers cover that many"
    return 1, "an implementation must support at least one case of each kind it is asked"


def shortfalls(implementations: Sequence[Implementation], cases: Sequence[Case], results: Sequence[Result]
               ) -> list[Shortfall]:
    out = []
    for impl in implementations:
        if impl.mode != LIVE:
            continue
        for kind in dict.fromkeys(case.kind for case in cases):
            mine = [r for r in results if r.implementation == impl.name and r.case.kind == kind]
            supported = sum(1 for r in mine if r.status != "unsupported")
            floor, why = support_floor(impl.name, kind, cases)
            if mine and supported < min(floor, len(mine)):
                out.append(Shortfall(impl.name, kind, len(mine), supported, min(floor, len(mine)), why))
    return out


@dataclass
class Run:
    implementations: list[Implementation]
    kinds: list[str]
    results: list[Result]
    divergences: list[Divergence]
    listed: list[tuple[Result, Divergence]] = field(default_factory=list)
    changed: list[tuple[Result, Divergence]] = field(default_factory=list)  # listed case, another answer
    unlisted: list[Result] = field(default_factory=list)
    errors: list[Result] = field(default_factory=list)
    stale: list[Divergence] = field(default_factory=list)
    unchecked: list[Divergence] = field(default_factory=list)
    shortfalls: list[Shortfall] = field(default_factory=list)
    stale_recordings: list[StaleRecording] = field(default_factory=list)
    corpus: CorpusChoice | None = None  # which corpus was asked (None: not said, e.g. in a test)

    @property
    def ok(self) -> bool:
        return (not self.unlisted and not self.changed and not self.stale and not self.errors and not self.shortfalls
                and not self.stale_recordings and (self.corpus is None or self.corpus.problem is None))


def classify(run: Run) -> Run:
    """Split disagreements into listed, changed (a listed case answered otherwise than its entry lists)
    and unlisted, set errors apart (never listed), and find stale and unchecked entries."""
    modes = {impl.name: impl.mode for impl in run.implementations}
    by_key = {(r.implementation, r.case.id): r for r in run.results}
    entries: dict[tuple[str, str], Divergence] = {}
    for entry in run.divergences:
        mode = modes.get(entry.implementation)
        if mode is not None and entry.applies(entry.implementation, mode):
            entries[(entry.implementation, entry.case)] = entry
    for result in run.results:
        if result.status == "error":
            run.errors.append(result)
            continue
        if result.status != "disagree":
            continue
        listed = entries.get((result.implementation, result.case.id))
        if listed is None:
            run.unlisted.append(result)
        elif same_answer(listed.answer, result.got):
            run.listed.append((result, listed))
        else:
            run.changed.append((result, listed))
    for key, entry in entries.items():
        found = by_key.get(key)
        if found is None:
            if key[1].split("/", 1)[0] in run.kinds:  # it names no case of the corpus: stale too
                run.stale.append(entry)
        elif found.status == "unsupported":
            run.unchecked.append(entry)
        elif found.status == "agree":
            run.stale.append(entry)
    return run


def run(implementations: Iterable[Implementation], cases: Sequence[Case], kinds: Sequence[str],
        divergences: Sequence[Divergence], timeout: float = DEFAULT_TIMEOUT, *, budget: float = DEFAULT_BUDGET
        ) -> Run:
    """Ask every implementation every case; ``timeout`` bounds each exchange, ``budget`` all of them."""
    impls = list(implementations)
    deadline = time.monotonic() + budget
    results: list[Result] = []
    for impl in impls:
        results.extend(evaluate(impl, cases, ask_all(impl, cases, timeout, deadline, budget)))
    outcome = classify(Run(impls, list(kinds), results, list(divergences)))
    outcome.shortfalls = shortfalls(impls, cases, results)
    replayed = {impl.name for impl in impls if impl.mode == RECORDED}
    outcome.stale_recordings = [s for s in stale_recordings(cases, kinds) if s.implementation in replayed]
    return outcome
