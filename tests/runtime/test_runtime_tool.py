"""The kit as a tool: one console script, one exit-code table, ``--version``, ``vendor``, and every ``--json``
document validated against its schema under ``schema/`` (real outputs of the commands, accepted and refused)."""

from __future__ import annotations

import argparse
import hashlib
import json
import os
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from contract import __version__
from contract.cli import build_parser, main
from contract.core.exitcodes import MEANINGS, ExitCode
from contract.core.resources import data_root, golden_dir, schema_dir
from contract.vendoring.files import contract_digests
from contract.vendoring.vendored import LOCK_NAME

EXAMPLE = golden_dir() / "example-package"
BUNDLE = golden_dir() / "recorded" / "pairjudge" / "bundles" / "lora-run" / "adapter"


def _schema(name: str) -> Draft202012Validator:
    return Draft202012Validator(json.loads((schema_dir() / f"{name}.schema.json").read_text(encoding="utf-8")))


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


def _json(capsys: pytest.CaptureFixture[str], schema: str, *argv: str) -> tuple[int, dict[str, object]]:
    code, out = _run(capsys, *argv)
    document = json.loads(out)
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in _schema(schema).iter_errors(document)]
    assert errors == [], (argv, errors, document)
    return code, document


def _all_parsers(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    found = [parser]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                found += _all_parsers(child)
    return found


def test_version_names_the_kit_and_the_manifest_versions(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"dicechess-contract {__version__}\n")
    assert "  manifest 1.0.0, 1.1.0\n" in out


def test_help_lists_every_exit_code_and_points_at_nothing_the_wheel_lacks() -> None:
    parsers = _all_parsers(build_parser())
    commands = {p.prog.split()[-1] for p in parsers}
    assert {"validate", "compat", "extract", "bench", "build", "verify", "golden", "check", "report", "conformance",
            "run", "vendor"} <= commands
    for parser in parsers:
        text = parser.format_help()
        assert "docs/" not in text and "python -m contract" not in text, parser.prog
    top = build_parser().format_help()
    for code in ExitCode:
        assert f"  {code.value:<4d}{MEANINGS[code]}" in top


def test_validate_json_accepted_and_refused_follow_their_schema(capsys: pytest.CaptureFixture[str]) -> None:
    code, document = _json(capsys, "output-validate-1", "validate", str(EXAMPLE), "--engine-version", "0.12.0",
                           "--json")
    assert code == 0 and document["ok"] is True and document["featureCount"] == 13
    code, document = _json(capsys, "output-validate-1", "validate", str(EXAMPLE), "--engine-version", "2.0.0",
                           "--json")
    assert code == 1 and document["ok"] is False
    assert "does not include engine version '2.0.0'" in str(document["message"])


@pytest.mark.parametrize(("constraint", "version", "code"), [(">=0.12.0 <1.0.0", "0.12.0", 0),
                                                           (">=0.12.0 <1.0.0", "1.0.0", 1), ("~1", "0.12.0", 1)])
def test_compat_json_follows_its_schema(capsys: pytest.CaptureFixture[str], constraint: str, version: str,
                                        code: int) -> None:
    got, document = _json(capsys, "output-compat-1", "compat", constraint, "--engine-version", version, "--json")
    assert got == code and document["ok"] is (code == 0)


def test_bench_json_is_camel_case_and_follows_its_schema(capsys: pytest.CaptureFixture[str]) -> None:
    code, document = _json(capsys, "output-bench-1", "bench", "--repeat", "1", "--json")
    assert code == 0 and document["goldenMismatches"] == []
    assert document["probes"]


def test_package_build_json_and_missing_parents(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                graphs: dict[str, Path]) -> None:
    out = tmp_path / "a" / "b" / "c"
    args = ["package", "build", "--schema", "kcp-13", "--role", "position-value", "--engine-compatibility",
            ">=0.12.0 <1.0.0", "--model-id", "m", "--json"]
    code, document = _json(capsys, "output-package-build-1", *args, "--model", str(graphs["value"]), "--out", str(out))
    assert code == 0 and document["package"] == str(out) and (out / "manifest.json").is_file()
    refused_out = tmp_path / "x" / "y"
    code, document = _json(capsys, "output-package-build-1", *args, "--model", str(graphs["static"]),
                           "--out", str(refused_out))
    assert code == 1 and not refused_out.exists()
    message = str(document["message"])
    assert f": {graphs['static']}: input 'input' must have shape [batch,13]" in message  # the user's own --model
    assert "None" not in message


def test_package_build_refuses_a_parent_that_is_a_file(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                       graphs: dict[str, Path]) -> None:
    (tmp_path / "file").write_text("mine")
    code, out = _run(capsys, "package", "build", "--schema", "kcp-13", "--role", "position-value",
                     "--engine-compatibility", ">=0.12.0", "--model-id", "m", "--model", str(graphs["value"]),
                     "--out", str(tmp_path / "file" / "pkg"))
    assert code == 1 and out == f"refusing to publish {tmp_path / 'file' / 'pkg'}: {tmp_path / 'file'} is not a directory\n"
    assert (tmp_path / "file").read_text() == "mine"


def test_pairjudge_verify_json_follows_its_schema(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, document = _json(capsys, "output-pairjudge-verify-1", "pairjudge", "verify", str(BUNDLE), "--json")
    assert code == 0 and document["ok"] is True
    code, document = _json(capsys, "output-pairjudge-verify-1", "pairjudge", "verify", str(tmp_path), "--json")
    assert code == 1 and document["ok"] is False


def test_vendor_then_check_then_an_edit_is_named(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "third_party" / "contract"
    code, out = _run(capsys, "vendor", str(target))
    assert code == 0, out
    lock = json.loads((target / LOCK_NAME).read_text(encoding="utf-8"))
    assert list(_schema("vendor-lock-1").iter_errors(lock)) == []
    assert lock["kitVersion"] == __version__ and lock["contractVersions"]["manifest"] == ["1.0.0", "1.1.0"]
    assert (target / "schema" / "manifest-1.1.0.schema.json").read_bytes() == (
        schema_dir() / "manifest-1.1.0.schema.json").read_bytes()
    assert (target / "grammar" / "engine_compatibility.lark").is_file()
    assert not [p for p in tmp_path.rglob(".*")]  # no temporary sibling left behind
    assert _run(capsys, "vendor", "--check", str(target)) == (0, f"vendor --check: {target} matches the installed kit\n")

    edited = target / "schema" / "feature-schemas.json"
    edited.write_bytes(edited.read_bytes() + b" ")
    (target / "grammar" / "engine_compatibility.lark").unlink()
    code, out = _run(capsys, "vendor", "--check", str(target))
    assert code == 1
    assert f"FAIL {edited}: edited (its SHA-256 is not the one in {LOCK_NAME})\n" in out
    assert f"FAIL {target / 'grammar' / 'engine_compatibility.lark'}: missing\n" in out
    assert out.count("FAIL ") == 2

    assert _run(capsys, "vendor", str(target))[0] == 0  # an earlier vendored copy is updated in place
    assert _run(capsys, "vendor", "--check", str(target))[0] == 0


def test_vendor_check_names_a_file_that_differs_from_the_installed_kit(capsys: pytest.CaptureFixture[str],
                                                                       tmp_path: Path) -> None:
    target = tmp_path / "v"
    assert _run(capsys, "vendor", str(target))[0] == 0
    lock_path = target / LOCK_NAME
    lock = json.loads(lock_path.read_text(encoding="utf-8"))
    # As if another kit had vendored these: each file matches the lock, but not the installed kit.
    changed, gone = "schema/manifest-1.0.0.schema.json", "schema/manifest-0.9.0.schema.json"
    for name in (changed, gone):
        (target / name).write_bytes(b"{}\n")
        lock["files"][name] = hashlib.sha256(b"{}\n").hexdigest()
    lock_path.write_text(json.dumps(lock), encoding="utf-8")
    code, out = _run(capsys, "vendor", "--check", str(target))
    assert code == 1
    assert out.splitlines()[:2] == [
        f"FAIL {target / gone}: not in the installed kit {__version__} any more (run vendor again)",
        f"FAIL {target / changed}: differs from the installed kit {__version__}'s (run vendor again)"]
    assert _run(capsys, "vendor", str(target))[0] == 0
    assert not (target / gone).exists()
    assert _run(capsys, "vendor", "--check", str(target))[0] == 0


@pytest.mark.parametrize("kind", ["file", "foreign directory"])
def test_vendor_refuses_what_is_not_a_vendored_copy(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                    kind: str) -> None:
    target = tmp_path / "target"
    if kind == "file":
        target.write_text("mine")
    else:
        target.mkdir()
        (target / "notes.txt").write_text("mine")
    code, out = _run(capsys, "vendor", str(target))
    assert code == 1 and out.startswith(f"vendor: refusing to vendor into {target}: ")
    assert (target.read_text() if kind == "file" else (target / "notes.txt").read_text()) == "mine"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["target"]
    code, out = _run(capsys, "vendor", "--check", str(target))
    assert code == 1 and out.startswith("vendor --check: ")


def test_vendored_files_are_the_language_neutral_ones() -> None:
    lock_files = set(contract_digests())
    assert "schema/feature-schemas.json" in lock_files and "grammar/engine_compatibility.lark" in lock_files
    assert "golden/probes.json" in lock_files and "golden/conformance/manifests.json" in lock_files
    assert not [name for name in lock_files if name.startswith(("golden/recorded/", "golden/example-package/"))]
    assert all((data_root() / name).is_file() for name in lock_files)


def test_a_directory_that_cannot_be_opened_for_sync_is_tolerated(monkeypatch: pytest.MonkeyPatch,
                                                                 tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Windows cannot open a directory (EACCES): a directory sync there is skipped, the files still land;
    # nor has it dir_fd, so vendor walks by checked paths there (contract/vendoring/walk.py)
    from contract.vendoring import walk

    monkeypatch.setattr(walk, "supported", lambda: False)
    real_open = os.open

    def no_directories(path: object, flags: int, *args: object) -> int:
        if Path(os.fsdecode(path)).is_dir():  # type: ignore[arg-type]
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, flags, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", no_directories)
    assert _run(capsys, "vendor", str(tmp_path / "v"))[0] == 0
    monkeypatch.undo()
    assert _run(capsys, "vendor", "--check", str(tmp_path / "v"))[0] == 0


@pytest.mark.slow
def test_the_golden_command_runs_outside_a_checkout_on_the_kits_corpus(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    code, out = _run(capsys, "golden", "report", "--quiet", "--output", str(tmp_path / "page"))
    assert code == 0 and (tmp_path / "page" / "index.html").is_file(), out
