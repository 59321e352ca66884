"""``python -m contract pairjudge verify BUNDLE_DIR``: is this a pairjudge.json v1 bundle the
reference loader would accept? Reads JSON, tokenizer files and safetensors headers only (no torch).

Exit 0 accepted, 1 refused, 2 usage (bad options, an unreadable ``--packer-config`` file, legacy
loading without its label order and packer config), 130 interrupted (Ctrl-C or SIGTERM: for
``declare-legacy`` nothing is published and no temporary copy is left). ``--packer-config`` is
opened without blocking (a FIFO is refused) and read as strict JSON with its size and depth caps. ``--json`` prints
``{"outputVersion": 1, "ok": bool, "message": str|null, "warnings": [...]}``
(``schema/output-pairjudge-verify-1.schema.json``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from contract.cli.jsonoutput import print_document
from contract.core import strictjson
from contract.core.checktable import first_failure
from contract.core.consoletext import console_text
from contract.core.exitcodes import EXIT_INTERRUPTED, EXIT_OK, EXIT_REFUSED, EXIT_USAGE, exit_code_help
from contract.core.interrupts import terminate_as_interrupt
from contract.core.oserrors import os_error_reason
from contract.core.regularfile import open_regular
from contract.pairjudge import LAYERS, Verdict, verify_bundle
from contract.pairjudge.bundle import ARGUMENT_CHECKS, Arguments
from contract.pairjudge.legacy import NOT_PROOF, declare_legacy
from contract.pairjudge.reference import ReferenceVerdict, ask_reference


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "pairjudge",
        help="verify pairjudge.json v1 model bundles (pairwise LLM judges)",
        description="pairjudge.json format version 1 bundles, checked without torch.",
    )
    actions = parser.add_subparsers(dest="pairjudge_command", metavar="ACTION", required=True)
    verify = actions.add_parser(
        "verify",
        help="verify a bundle directory",
        description="Verify a pairjudge bundle directory as the pairjudge 0.3.0 loader would.",
        epilog=exit_code_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    verify.add_argument("bundle", metavar="BUNDLE_DIR", type=Path, help="the bundle directory (never written)")
    verify.add_argument(
        "--layer",
        choices=LAYERS,
        default="full",
        help="manifest: pairjudge.json and file digests only; full (default): also the model files",
    )
    verify.add_argument(
        "--allow-legacy",
        action="store_true",
        help="accept a bundle without pairjudge.json (needs --label-order and --packer-config)",
    )
    verify.add_argument("--label-order", metavar="A,B,C", help="e.g. a_wins,b_wins,tie")
    verify.add_argument(
        "--packer-config",
        metavar="FILE.json",
        type=Path,
        help="a JSON object of PackerConfig fields (absent fields take the defaults)",
    )
    verify.add_argument("--json", action="store_true", help="print one JSON object")
    verify.add_argument(
        "--reference",
        nargs="?",
        const=sys.executable,
        metavar="PYTHON",
        help="also run the real pairjudge loader with PYTHON (default: this Python) in a subprocess and "
        "report both verdicts; the exit code stays the kit's",
    )
    verify.set_defaults(handler=run)
    declare = actions.add_parser(
        "declare-legacy",
        help="copy a legacy classifier to a new directory with a declared label order, then verify it",
        description="Copy SOURCE (a classifier without pairjudge.json) to the new TARGET, rewriting only "
        "config.json's id2label/label2id in the declared order, and verify the copy as "
        "'verify --allow-legacy' would. SOURCE is never edited. A declaration is not proof. "
        "Interrupted (Ctrl-C, SIGTERM), it publishes nothing and leaves no temporary copy.",
        epilog=exit_code_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    declare.add_argument("source", metavar="SOURCE", type=Path, help="the legacy classifier's directory (never edited)")
    declare.add_argument("target", metavar="TARGET", type=Path, help="the new directory (must not exist)")
    declare.add_argument("--label-order", metavar="A,B,C", required=True, help="the verified training order")
    declare.add_argument(
        "--packer-config", metavar="FILE.json", type=Path, required=True,
        help="the complete original PackerConfig as a JSON object",
    )
    declare.add_argument("--json", action="store_true", help="print one JSON object")
    declare.set_defaults(handler=run_declare)


def _usage(args: argparse.Namespace, message: str) -> int:
    if args.json:
        print_document(Verdict(False, message).to_json())
    print(console_text(f"usage error: {message}"), file=sys.stderr)
    return EXIT_USAGE


def _packer_config(path: Path) -> tuple[dict[str, Any] | None, str | None]:
    try:
        with open_regular(path) as handle:
            data = handle.read(strictjson.MAX_BYTES + 1)
        value = strictjson.parse(data)
    except OSError as exc:
        return None, f"cannot read --packer-config {path}: {os_error_reason(exc)}"
    except strictjson.StrictJsonError as exc:
        return None, f"--packer-config {path} is {exc}"
    if not isinstance(value, dict):
        return None, f"--packer-config {path} must hold a JSON object of PackerConfig fields"
    return value, None


def _interrupted(what: str) -> int:
    print(console_text(f"pairjudge: interrupted; {what}"), file=sys.stderr)
    return EXIT_INTERRUPTED


def run(args: argparse.Namespace) -> int:
    try:
        with terminate_as_interrupt():
            return _run(args)
    except KeyboardInterrupt:
        return _interrupted("nothing was verified")


def _run(args: argparse.Namespace) -> int:
    order = None if args.label_order is None else args.label_order.split(",")
    packer = None
    if args.packer_config is not None:
        packer, problem = _packer_config(args.packer_config)
        if problem is not None:
            return _usage(args, problem)
    verdict = verify_bundle(
        args.bundle,
        layer=args.layer,
        allow_legacy=args.allow_legacy,
        label_order=order,
        packer_config=packer,
    )
    if verdict.stage == "arguments":
        return _usage(args, verdict.message or "invalid arguments")
    reference = None
    if args.reference is not None:
        reference = ask_reference(
            args.reference, args.bundle, args.layer, allow_legacy=args.allow_legacy, label_order=order,
            packer_config=packer,
        )
    if args.json:
        document = verdict.to_json()
        if reference is not None:
            document["reference"] = reference.to_json()
        print_document(document)
    else:
        # Every line names the bundle: a loop over several bundles must tell its lines apart.
        for warning in verdict.warnings:
            print(console_text(f"warning: pairjudge bundle {args.bundle}: {warning}"))
        if verdict.ok:
            print(console_text(f"pairjudge bundle {args.bundle} verified ({args.layer} layer)"))
        else:
            print(console_text(f"pairjudge bundle {args.bundle} refused: {verdict.message}"))
        if reference is not None:
            print(console_text(_reference_line(args.bundle, verdict, reference)))
    return EXIT_OK if verdict.ok else EXIT_REFUSED


def _reference_line(bundle: Path, verdict: Verdict, reference: ReferenceVerdict) -> str:
    if not reference.available:
        return f"reference: not asked for {bundle}: {reference.message}"
    said = "accepted" if reference.ok else f"refused: {reference.message}"
    agreement = "agrees with the kit" if reference.ok == verdict.ok else "DISAGREES with the kit"
    return f"reference (pairjudge {reference.version}) for {bundle}: {said} ({agreement})"


def run_declare(args: argparse.Namespace) -> int:
    packer, problem = _packer_config(args.packer_config)
    if problem is not None:
        return _usage(args, problem)
    assert packer is not None
    order = args.label_order.split(",")
    failure = first_failure(ARGUMENT_CHECKS, Arguments(True, order, packer))
    if failure is not None:
        return _usage(args, failure.message)
    try:
        with terminate_as_interrupt():
            outcome = declare_legacy(args.source, args.target, order, packer)
    except KeyboardInterrupt:
        return _interrupted(f"nothing was published to {args.target} and the temporary copy is removed")
    warnings = [*outcome.warnings, *([] if outcome.verdict is None else outcome.verdict.warnings)]
    if args.json:
        print_document({"ok": outcome.ok, "message": outcome.message, "warnings": warnings, "note": NOT_PROOF})
    else:
        for warning in warnings:
            print(console_text(f"warning: {warning}"))
        if outcome.ok:
            print(console_text(f"declared {args.target} with label order {','.join(order)} and verified it "
                               "(legacy, full layer)"))
        else:
            print(console_text(f"refused: {outcome.message}"))
        print(f"note: {NOT_PROOF}")
    return EXIT_OK if outcome.ok else EXIT_REFUSED
