"""The corpora themselves: up to date, faithful to the recorded verdicts, covering every message the spec
lists, and the recorded rows of the matrix reproducing the divergences of spec/contract.md §9."""

from __future__ import annotations

import json
import re

import pytest

from contract.cli import conformance as cli
from contract.conformance.corpus import load_cases
from contract.conformance.protocol import request_problem
from contract.core.resources import golden_dir
from generators import conformance as generator

ROOT = golden_dir().parent


def test_the_committed_corpora_are_what_the_generator_writes() -> None:
    for relative, data in generator.generate().items():
        assert (ROOT / relative).read_bytes() == data, f"{relative} is stale: python -m contract.golden regenerate"


def test_the_recorded_cases_keep_the_engine_outcome() -> None:
    verdicts = json.loads((golden_dir() / "recorded/engine-compatibility-verdicts.json").read_text())
    recorded = [c for c in load_cases(["engine-compatibility"]) if c.id.startswith("engine-compatibility/recorded-")]
    assert len(verdicts["cases"]) == len(recorded) > 0
    for case, row in zip(recorded, verdicts["cases"], strict=True):
        assert case.request == {"constraint": row["constraint"], "engineVersion": row["engineVersion"]}
        assert case.expected.fields["outcome"] == row["engine"]


# §3.3, the engine's texts
COMPATIBILITY_TEXTS = [
    r"invalid engine version: invalid semantic version '.*'; expected MAJOR\.MINOR\.PATCH",
    r"invalid engine version: invalid semantic version '.*'; a component does not fit in an Int",
    r"engineCompatibility must not be blank",
    r"invalid engineCompatibility '.*'; expected space-separated comparators such as '>=0\.12\.0 <1\.0\.0'",
    r"engineCompatibility '.*' does not include engine version '.*'",
]

# §4.1 steps 3, 4 and 6 (no path prefix), one pattern per message
MANIFEST_TEXTS = [
    r"not valid JSON: .*", r"manifest must be a JSON object", r"missing required field '\w+'",
    r"field '\w+' must be a string", r"field 'featureCount' must be a whole number",
    r"unsupported manifestVersion '.*'; expected one of 1\.0\.0, 1\.1\.0",
    r"manifestVersion 1\.0\.0 does not define field '\w+'", r"manifestVersion 1\.1\.0 requires field '\w+'",
    r"field 'calibration' must be an object", r"field '(temperature|brierScore|logLoss)' must be a number",
    r"field 'calibratedOn' must be a string", r"field 'provenance' must be an object",
    r"field 'provenance\.\w+' must be a string, number or boolean",
    r"modelId must not be blank", r"modelSha256 must be exactly 64 hexadecimal characters",
    r"unknown modelRole '.*'; known roles: chance-collapse, move-prerank, position-value",
    r"unknown featureSchema '.*'; known schemas: kcp-13, kcp-mobility-27-v1, kcp-mobility-pawns-31-v1,"
    r" material-7-v1, raw-board-768-v1, rich-9-v1, rich-pdi-11-v1",
    r"featureCount \d+ does not match featureSchema '.*' \(\d+ columns\)",
    r"inputName must not be blank", r"outputName must not be blank",
    r"unsupported perspective '.*'; supported: side-to-move",
    *COMPATIBILITY_TEXTS,
    r"modelRole '.*' cannot serve as '.*'",
]

# §5.1
TENSOR_TEXTS = [
    r"ONNX model must expose exactly one input named '.*'; found \[.*\]",
    r"ONNX model must expose exactly one output named '.*'; found \[.*\]",
    r"input '.*' must have FLOAT dtype",
    r"input '.*' must have shape \[batch,\d+\] with a dynamic batch dimension; got \[[0-9a-z,]*\]",
    r"output '.*' must have FLOAT dtype",
    r"output '.*' must have shape \[batch,1\] with a dynamic batch dimension; got \[[0-9a-z,]*\]",
]


@pytest.mark.parametrize(("kinds", "texts"), [
    (["engine-compatibility"], COMPATIBILITY_TEXTS),
    (["manifest"], MANIFEST_TEXTS),
    (["tensor-contract"], TENSOR_TEXTS),
])
def test_every_spec_message_is_asked_and_every_message_is_a_spec_message(kinds: list[str],
                                                                         texts: list[str]) -> None:
    messages = [c.expected.fields["message"] for c in load_cases(kinds) if c.expected.fields["message"]]
    patterns = [re.compile(t, re.DOTALL) for t in texts]
    for message in messages:
        assert any(p.fullmatch(message) for p in patterns), f"not a spec text: {message!r}"
    for pattern in patterns:
        assert any(pattern.fullmatch(m) for m in messages), f"no case asks for {pattern.pattern!r}"


def test_recorded_training_reproduces_the_section_9_divergences(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["run", "--impl", "training=recorded"]) == 0
    out = capsys.readouterr().out
    assert "training        recorded  engine-compatibility" in out
    for case, words in [
        ("engine-compatibility/recorded-15", "Unicode digits"),
        ("engine-compatibility/recorded-55", "Unicode digits"),
        ("engine-compatibility/recorded-49", "Unicode whitespace"),
        ("engine-compatibility/recorded-53", "above 2147483647"),
        ("engine-compatibility/recorded-54", "above 2147483647"),
        ("engine-compatibility/recorded-50", "Trailing newline on the host version"),
        ("engine-compatibility/recorded-57", "Lazy token checks"),
        ("manifest/model-id-number", "str()"),
        ("manifest/order-legacy-input-name-before-width", "inputName/outputName under 1.0.0"),
        ("manifest/input-name-number", "inputName/outputName"),
        ("manifest/current-without-profile", "evaluationProfile"),
        ("tensor-contract/order-input-shape-before-output-dtype", "both dtypes before both shapes"),
    ]:
        block = out.split(f"  training  {case}\n", 1)
        assert len(block) == 2, f"{case} is not listed"
        assert words in block[1].split("\n  training  ", 1)[0], f"{case}: reason does not mention {words!r}"
    assert "UNLISTED disagreements" not in out and "STALE" not in out


def test_recorded_engine_and_service_rows_pass_with_their_divergences(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["run", "--impl", "engine=recorded", "--impl", "service=recorded"]) == 0
    out = capsys.readouterr().out
    assert "engine  manifest/legacy-defines-no-input-name" in out  # §9.1: the engine honours it at 1.0.0
    assert "service  manifest/accepted-current" in out  # §9.3: the service reads 1.0.0 only


def test_every_request_the_runner_sends_follows_the_protocol() -> None:
    for case in load_cases():
        assert request_problem(case.request_line()) is None, case.id
    assert request_problem({"id": "x", "kind": "manifest", "manifest": "{}"}) is not None
