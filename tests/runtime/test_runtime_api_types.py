"""The README's "bad input never raises", argument by argument: every public function it names, given a
value of the wrong type in each argument in turn.

- The functions that answer with a value or a refusal (``ModelPackage.load``/``load_files``,
  ``read_manifest``, ``check_document``, ``evaluate``, ``Scorer.from_package``, ``build_package``) return
  the table's refusal naming the argument; they never raise.
- The feature functions refuse by raising: the kit's own ``ContractError`` (``FenError``,
  ``UnknownSchemaError``) for a FEN or schema id of any type, ``TypeError`` for a position, colour or
  batch that is none (as the README says), never anything else.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

import pytest

from contract.core.errors import ContractError
from contract.core.refusal import Refusal
from contract.core.resources import golden_dir
from contract.features import extract, extract_batch, extract_fen, extract_rows, parse_fen, twin_fen
from contract.model.builder import PackageSpec, build_package
from contract.model.compatibility import Compatibility, evaluate
from contract.model.manifest import ManifestResult, check_document, read_manifest
from contract.model.package import ModelPackage
from contract.model.scoring import Scorer

EXAMPLE = golden_dir() / "example-package"
MANIFEST = (EXAMPLE / "manifest.json").read_bytes()
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"


class Unpathlike:
    """An ``os.PathLike`` whose ``__fspath__`` fails, as a caller's own object may."""

    def __fspath__(self) -> str:
        raise RuntimeError("no path")


WRONG: dict[str, object] = {"None": None, "int": 12, "float": 1.5, "bool": True, "bytes": b"golden/example-package",
                            "bytearray": bytearray(b"x"), "list": ["x"], "dict": {"x": 1}, "object": object(),
                            "unpathlike": Unpathlike()}


def _refused(result: object) -> Refusal | None:
    """The refusal a result carries, whatever the function's result type; None when it accepted."""
    if isinstance(result, Refusal):
        return result
    if isinstance(result, ManifestResult):
        return result.refusal
    if isinstance(result, Compatibility):
        return None if result.ok else result.refusal
    return None


def _spec(**changes: object) -> PackageSpec:
    fields: dict[str, Any] = {"model": EXAMPLE / "model.onnx", "schema_id": "kcp-13", "role": "position-value",
                              "engine_compatibility": ">=0.12.0 <1.0.0", "model_id": "m", **changes}
    return PackageSpec(**fields)


# (name, argument, accepted kinds of WRONG (legitimate for the argument), call with the value)
Case = tuple[str, str, frozenset[str], Callable[[object], object]]
REFUSING: list[Case] = [
    ("ModelPackage.load", "directory", frozenset(), lambda v: ModelPackage.load(v, "0.12.0")),  # type: ignore[arg-type]
    ("ModelPackage.load", "engine_version", frozenset(), lambda v: ModelPackage.load(EXAMPLE, v)),  # type: ignore[arg-type]
    ("ModelPackage.load", "expected_role", frozenset({"None"}),
     lambda v: ModelPackage.load(EXAMPLE, "0.12.0", v)),  # type: ignore[arg-type]
    ("ModelPackage.load_files", "model", frozenset(),
     lambda v: ModelPackage.load_files(v, EXAMPLE / "manifest.json", "0.12.0")),  # type: ignore[arg-type]
    ("ModelPackage.load_files", "manifest", frozenset(),
     lambda v: ModelPackage.load_files(EXAMPLE / "model.onnx", v, "0.12.0")),  # type: ignore[arg-type]
    ("read_manifest", "data", frozenset({"bytes", "bytearray"}), lambda v: read_manifest(v, "0.12.0")),  # type: ignore[arg-type]
    ("read_manifest", "engine_version", frozenset(), lambda v: read_manifest(MANIFEST, v)),  # type: ignore[arg-type]
    ("read_manifest", "expected_role", frozenset({"None"}),
     lambda v: read_manifest(MANIFEST, "0.12.0", v)),  # type: ignore[arg-type]
    ("check_document", "raw", frozenset(), lambda v: check_document(v, "0.12.0")),
    ("check_document", "expected_role", frozenset({"None"}),
     lambda v: check_document({}, "0.12.0", v)),  # type: ignore[arg-type]
    ("evaluate", "constraint", frozenset(), lambda v: evaluate(v, "0.12.0")),  # type: ignore[arg-type]
    ("evaluate", "engine_version", frozenset(), lambda v: evaluate(">=0.12.0", v)),  # type: ignore[arg-type]
    ("Scorer.from_package", "package", frozenset(), Scorer.from_package),
    ("build_package", "spec", frozenset(), lambda v: build_package(v, Path("/nonexistent/out"))),  # type: ignore[arg-type]
    ("build_package", "out", frozenset(), lambda v: build_package(_spec(), v)),  # type: ignore[arg-type]
    ("build_package", "engine_version", frozenset({"None"}),
     lambda v: build_package(_spec(), Path("/nonexistent/out"), v)),  # type: ignore[arg-type]
    *[("build_package", f"spec.{name}", accepted, lambda v, name=name: build_package(_spec(**{name: v}),
                                                                                     Path("/nonexistent/out")))
      for name, accepted in [("model", frozenset()), ("schema_id", frozenset()), ("role", frozenset()),
                             ("engine_compatibility", frozenset()), ("model_id", frozenset()),
                             ("evaluation_profile", frozenset({"None"})), ("provenance", frozenset({"None"})),
                             ("calibration_temperature", frozenset({"None", "int", "float"})),
                             ("allow_service_unmountable", frozenset({"bool"})),
                             ("model_card", frozenset({"None"}))]],
]

RAISING: list[tuple[str, Callable[[object], object]]] = [
    ("parse_fen(fen)", parse_fen),
    ("twin_fen(fen)", twin_fen),
    ("extract_fen(schema_id)", lambda v: extract_fen(v, START)),  # type: ignore[arg-type]
    ("extract_fen(fen)", lambda v: extract_fen("kcp-13", v)),  # type: ignore[arg-type]
    ("extract_fen(side)", lambda v: extract_fen("kcp-13", START, v)),  # type: ignore[arg-type]
    ("extract(schema_id)", lambda v: extract(v, parse_fen(START), "w")),  # type: ignore[arg-type]
    ("extract(position)", lambda v: extract("kcp-13", v, "w")),  # type: ignore[arg-type]
    ("extract(color)", lambda v: extract("kcp-13", parse_fen(START), v)),
    ("extract_batch(schema_id)", lambda v: extract_batch(v, [])),  # type: ignore[arg-type]
    ("extract_batch(items)", lambda v: extract_batch("kcp-13", v)),  # type: ignore[arg-type]
    ("extract_rows(schema_id)", lambda v: list(extract_rows(v, []))),  # type: ignore[arg-type]
]


@pytest.mark.parametrize("kind", sorted(WRONG))
@pytest.mark.parametrize(("name", "argument", "accepted", "call"), REFUSING,
                         ids=[f"{name}({argument})" for name, argument, _, _ in REFUSING])
def test_a_wrong_type_is_refused_as_a_value_naming_the_argument(name: str, argument: str, accepted: frozenset[str],
                                                                call: Callable[[object], object], kind: str) -> None:
    if kind in accepted:
        pytest.skip(f"{kind} is a legitimate {argument}")
    result = call(WRONG[kind])  # raising here is the failure
    refused = _refused(result)
    assert refused is not None, (name, argument, kind, result)
    assert refused.code is not None and refused.message
    if refused.code == "api.argument.type":
        assert refused.message.startswith(f"{argument.rsplit('.', maxsplit=1)[-1] if '.' not in argument else argument} must be ")
        assert refused.message.endswith(f", not {type(WRONG[kind]).__name__}")
    else:  # a type the contract itself states a check for (the manifest's engine version, its document)
        assert refused.code.startswith(("manifest.", "package.")), refused


def test_the_reviewed_calls_are_refusals() -> None:
    """Reproducer 21 of the review of 7f9a987, the kit's half, with its exact messages."""
    assert ModelPackage.load(None, "0.12.0") == Refusal(  # type: ignore[arg-type]
        "directory must be a path (str or os.PathLike), not NoneType", "api.argument.type")
    assert ModelPackage.load(b"golden/example-package", "0.12.0") == Refusal(  # type: ignore[arg-type]
        "directory must be a path (str or os.PathLike), not bytes", "api.argument.type")
    none_constraint = evaluate(None, "0.12.0")  # type: ignore[arg-type]
    assert (none_constraint.outcome, none_constraint.message) == ("invalid-constraint",
                                                                  "constraint must be a string, not NoneType")
    none_version = evaluate(">=1.0.0", None)  # type: ignore[arg-type]
    assert (none_version.outcome, none_version.message) == ("invalid-engine-version",
                                                            "engine_version must be a string, not NoneType")
    assert read_manifest(bytearray(MANIFEST), "0.12.0") == read_manifest(MANIFEST, "0.12.0")  # bytes-like is bytes
    assert read_manifest(None, "0.12.0").refusal == Refusal(  # type: ignore[arg-type]
        "data must be str or bytes, not NoneType", "api.argument.type")


# What each argument must be, in the words of the README's "bad input never raises" (reproducer 21's
# texts, the check table's "{argument} must be {expected}, not {got}"): the whole message, argument by
# argument (the cases above check its two ends only; load_files' expected_role was in none of them).
OUT = Path("/nonexistent/out")
MUST_BE: Final[list[tuple[str, object, Callable[[object], object]]]] = [
    ("directory must be a path (str or os.PathLike)", None,
     lambda v: ModelPackage.load(v, "0.12.0")),  # type: ignore[arg-type]
    ("expected_role must be a string or None", 12, lambda v: ModelPackage.load(EXAMPLE, "0.12.0", v)),  # type: ignore[arg-type]
    ("model must be a path (str or os.PathLike)", None,
     lambda v: ModelPackage.load_files(v, EXAMPLE / "manifest.json", "0.12.0")),  # type: ignore[arg-type]
    ("manifest must be a path (str or os.PathLike)", None,
     lambda v: ModelPackage.load_files(EXAMPLE / "model.onnx", v, "0.12.0")),  # type: ignore[arg-type]
    ("expected_role must be a string or None", 12,
     lambda v: ModelPackage.load_files(EXAMPLE / "model.onnx", EXAMPLE / "manifest.json", "0.12.0", v)),  # type: ignore[arg-type]
    ("expected_role must be a string or None", 12,
     lambda v: check_document(json.loads(MANIFEST), "0.12.0", v).refusal),  # type: ignore[arg-type]
    ("package must be a ModelPackage (from ModelPackage.load)", None, Scorer.from_package),
    ("spec must be a PackageSpec", None, lambda v: build_package(v, OUT)),  # type: ignore[arg-type]
    ("spec.provenance must be a mapping of strings to strings or None", {"a": 1},
     lambda v: build_package(_spec(provenance=v), OUT)),
    ("spec.calibration_temperature must be a number or None", "1.5",
     lambda v: build_package(_spec(calibration_temperature=v), OUT)),
    ("spec.allow_service_unmountable must be a bool", None,
     lambda v: build_package(_spec(allow_service_unmountable=v), OUT)),
    ("spec.model_card must be a path (str or os.PathLike) or None", 12,
     lambda v: build_package(_spec(model_card=v), OUT)),
]


@pytest.mark.parametrize(("message", "wrong", "call"), MUST_BE, ids=[m.split(" must")[0] + f"-{i}"
                                                                      for i, (m, _, _) in enumerate(MUST_BE)])
def test_each_wrong_type_message_says_what_the_argument_must_be(message: str, wrong: object,
                                                                call: Callable[[object], object]) -> None:
    assert call(wrong) == Refusal(f"{message}, not {type(wrong).__name__}", "api.argument.type")


def test_a_valid_document_with_a_legitimate_role_argument_is_read() -> None:
    """The other side of the expected_role cases above: None (no role expected) and a string are accepted."""
    assert isinstance(ModelPackage.load_files(EXAMPLE / "model.onnx", EXAMPLE / "manifest.json", "0.12.0", None),
                      ModelPackage)
    assert check_document(json.loads(MANIFEST), "0.12.0", None).refusal is None


@pytest.mark.parametrize("kind", sorted(WRONG))
@pytest.mark.parametrize(("name", "call"), RAISING, ids=[name for name, _ in RAISING])
def test_a_feature_function_refuses_a_wrong_type_with_the_kits_error_or_a_type_error(
        name: str, call: Callable[[object], object], kind: str) -> None:
    """A value of the wrong kind for a FEN or a schema id is the kit's error; a non-Position, a colour that
    is none, a batch that is no iterable of pairs are TypeError (README) — never AttributeError & co."""
    value = WRONG[kind]
    try:
        call(value)
    except ContractError as refused:
        assert str(refused)
    except TypeError as misuse:
        assert name.startswith(("extract(", "extract_batch(")) and str(misuse), (name, kind, misuse)
    else:  # accepted: only where the value is a legitimate one (True is chess.WHITE, None the side to move)
        assert (name, kind) in {("extract_fen(side)", "bool"), ("extract_fen(side)", "None"),
                                ("extract(color)", "bool"), ("extract_batch(items)", "dict"),
                                ("extract_batch(items)", "list")}, (name, kind)


def _other_public_functions() -> list[tuple[str, Callable[[object], object]]]:
    from contract.pairjudge import verify_bundle
    from contract.pairjudge.legacy import declare_legacy
    from contract.vendoring import vendored as vendoring

    return [("vendoring.vendor(directory)", vendoring.vendor), ("vendoring.check(directory)", vendoring.check),
            ("verify_bundle(bundle)", verify_bundle),
            ("declare_legacy(source)", lambda v: declare_legacy(v, Path("/nonexistent/x"),  # type: ignore[arg-type]
                                                                ["a_wins", "b_wins", "tie"], {}))]



@pytest.mark.parametrize("kind", sorted(WRONG))
@pytest.mark.parametrize("index", range(4), ids=["vendor", "check", "verify_bundle", "declare_legacy"])
def test_the_vendoring_and_pairjudge_functions_refuse_a_wrong_path_type(index: int, kind: str) -> None:
    name, call = _other_public_functions()[index]
    result = call(WRONG[kind])  # raising here is the failure (a PathLike whose own __fspath__ raises included)
    assert isinstance(result, Refusal) or getattr(result, "ok", True) is False, (name, kind, result)


UNUSABLE_PATHS: Final = {"nul": "/tmp/a\0b", "lone-surrogate": "/tmp/a\ud800b", "too-long": "/tmp/" + "a" * 5000,
                         "long-component": "/tmp/" + "a" * 300 + "/x"}


def test_build_package_names_the_unusable_path_and_why(tmp_path: Path) -> None:
    """The whole refusal: publication refused at OUT, the path no file can have, and the reason."""
    nul, surrogate = "/tmp/a\0b", "/tmp/m\ud800"
    assert build_package(_spec(), Path(nul)) == Refusal(
        f"refusing to publish {nul}: {nul}: it holds a NUL character", "builder.os.fileError")
    out = tmp_path / "out"
    assert build_package(_spec(model=Path(surrogate)), out) == Refusal(
        f"refusing to publish {out}: {surrogate}: it holds a character the file system's encoding cannot hold"
        " (a lone surrogate)", "builder.os.fileError")
    assert not out.exists()


@pytest.mark.parametrize("kind", sorted(UNUSABLE_PATHS))
def test_a_path_no_file_can_have_is_refused_not_raised(kind: str, tmp_path: Path) -> None:
    """Issue 22 audit: a str of the right type that no OS call takes (a NUL byte, a lone surrogate, a name
    too long) made ``vendoring.vendor``/``check`` and ``build_package`` raise ValueError, UnicodeEncodeError
    or OSError."""
    from contract.vendoring import vendored as vendoring

    text = UNUSABLE_PATHS[kind]
    calls: dict[str, Callable[[], object]] = {
        "vendor": lambda: vendoring.vendor(text),
        "check": lambda: vendoring.check(text),
        "build_package(out)": lambda: build_package(_spec(), Path(text)),
        "build_package(model)": lambda: build_package(_spec(model=Path(text)), tmp_path / "out"),
        "ModelPackage.load": lambda: ModelPackage.load(text, "0.12.0"),
        "ModelPackage.load_files": lambda: ModelPackage.load_files(text, text, "0.12.0"),
    }
    for name, call in calls.items():
        result = call()  # raising here is the failure
        assert isinstance(result, Refusal), (name, kind, result)
        assert result.message, (name, kind)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("kind", sorted(UNUSABLE_PATHS))
def test_a_path_no_file_can_have_is_refused_by_the_pairjudge_calls(kind: str, tmp_path: Path) -> None:
    """The same paths given to ``verify_bundle`` (the bundle) and ``declare_legacy`` (SOURCE, TARGET): a lone
    surrogate raised UnicodeEncodeError and a name too long OSError; each is now a refusal naming the argument,
    and nothing is written."""
    from contract.pairjudge import verify_bundle
    from contract.pairjudge.legacy import declare_legacy

    text = UNUSABLE_PATHS[kind]
    source = tmp_path / "legacy"
    source.mkdir()
    (source / "config.json").write_text("{}")
    order = ["a_wins", "b_wins", "tie"]
    calls: dict[str, Callable[[], object]] = {
        "verify_bundle": lambda: verify_bundle(text),
        "declare_legacy(source)": lambda: declare_legacy(text, tmp_path / "out", order, {}),
        "declare_legacy(target)": lambda: declare_legacy(source, text, order, {}),
    }
    for name, call in calls.items():
        result = call()  # raising here is the failure
        assert getattr(result, "ok", True) is False, (name, kind, result)
        assert result.message, (name, kind)  # type: ignore[attr-defined]
    if kind in {"nul", "lone-surrogate"}:  # refused as arguments, before any look at the file system
        assert "cannot name a file" in verify_bundle(text).message  # type: ignore[operator]
        declared = declare_legacy(source, text, order, {})
        assert declared.message is not None and declared.message.startswith("the TARGET ")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["legacy"]
