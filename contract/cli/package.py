"""``python -m contract package build``: write a package that a reader will serve, or nothing.

The package is ``model.onnx``, ``manifest.json`` and ``model-card.md`` (``--model-card FILE``, or generated
from the manifest). A graph whose metadata holds an absolute path is published with a ``WARNING:`` on
stderr naming the key (:mod:`contract.model.buildpaths`); ``--json`` lists the warnings.

See :mod:`contract.model.builder` for the staging protocol. Exit 0 published, 1 refused, 2 usage.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from contract.cli.jsonoutput import print_document, refusal_fields
from contract.cli.parser import engine_version
from contract.cli.signing import build_sign_key, print_refusal, register_sign
from contract.core.consoletext import console_text
from contract.core.exitcodes import EXIT_OK, EXIT_REFUSED
from contract.core.refusal import Refusal
from contract.core.registry import schema_ids
from contract.model.builder import REFUSAL_FILE, PackageSpec, build_package, failed_copies, service_cost
from contract.model.buildpaths import build_path_warnings
from contract.model.manifest_schema import known_roles


def _key_value(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    return key, value


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("package", help="write model packages",
                                   description="Write model packages (model.onnx + manifest.json + model-card.md).")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    build = actions.add_parser(
        "build",
        help="stage, validate and publish a package",
        description="Write a package into a temporary sibling, validate it fully (load checks and tensor "
                    "contract), then rename it to --out. Nothing is ever published at --out unless it passes.",
    )
    build.add_argument("--model", required=True, type=Path, metavar="M.onnx",
                       help="the ONNX graph to publish as model.onnx (its sha256 goes into the manifest)")
    build.add_argument("--schema", required=True, choices=schema_ids(), metavar="ID",
                       help=f"feature schema id ({', '.join(schema_ids())})")
    build.add_argument("--role", required=True, choices=known_roles(),
                       help="the manifest's modelRole: what the engine asks the model")
    build.add_argument("--engine-compatibility", required=True, metavar="C", help="e.g. '>=0.12.0 <1.0.0'")
    build.add_argument("--model-id", required=True, metavar="ID",
                       help="the manifest's modelId: the name the model is known by")
    build.add_argument("--out", required=True, type=Path, metavar="DIR",
                       help="the package directory to publish; it must not exist yet (a refused build is kept "
                            "beside it as DIR.failed-HEX, with REFUSED.txt saying why)")
    build.add_argument("--calibration-temperature", type=float, metavar="T",
                       help="write calibration.temperature T (finite, above 0; logits are divided by it; not for "
                            "move-prerank, a ranking score)")
    build.add_argument("--provenance", type=_key_value, action="append", default=[], metavar="KEY=VALUE",
                       help="a string entry of the manifest's provenance object (repeatable, each KEY once)")
    build.add_argument("--evaluation-profile", metavar="P",
                       help="the manifest's evaluationProfile (default: the one the evaluation service requires "
                            "for the schema, standard-kcp for kcp-13; none for other schemas)")
    build.add_argument("--model-card", type=Path, metavar="FILE",
                       help="model-card.md to publish, copied byte for byte (default: one generated from the "
                            "manifest: id, role, schema and width, tensors, engine range, calibration, provenance)")
    build.add_argument("--allow-service-unmountable", action="store_true",
                       help="write a position-value package whose tensors are not input/output anyway (as "
                            "manifest 1.1.0, which only the engine reads; the evaluation service cannot "
                            "mount it)")
    build.add_argument("--engine-version", metavar="V", type=engine_version,
                       help="validate as this host version (default: a version the constraint admits)")
    build.add_argument("--sign-key", type=Path, metavar="KEY.pem",
                       help="sign what is published (DIR/model.sig) before the rename")
    build.add_argument("--key-password-env", metavar="NAME",
                       help="with --sign-key: the environment variable holding the key's password")
    build.add_argument("--json", action="store_true", help="print one JSON object")
    build.set_defaults(handler=run_build, parser=build)
    register_sign(actions)


def run_build(args: argparse.Namespace) -> int:
    keys = [key for key, _ in args.provenance]
    repeated = sorted({key for key in keys if keys.count(key) > 1})
    if repeated:  # the last would silently win: say so instead
        args.parser.error(f"--provenance {', '.join(repeated)} given more than once")
    spec = PackageSpec(
        model=args.model,
        schema_id=args.schema,
        role=args.role,
        engine_compatibility=args.engine_compatibility,
        model_id=args.model_id,
        calibration_temperature=args.calibration_temperature,
        provenance=dict(args.provenance),
        evaluation_profile=args.evaluation_profile,
        allow_service_unmountable=args.allow_service_unmountable,
        model_card=args.model_card,
        sign_key=build_sign_key(args),
    )
    if isinstance(spec.sign_key, Refusal):
        return print_refusal(spec.sign_key, args.json)
    before = failed_copies(args.out)
    result = build_package(spec, args.out, args.engine_version)
    if isinstance(result, Refusal):
        for kept in sorted(failed_copies(args.out) - before):  # the refused build, kept for inspection
            print(console_text(f"the refused build is kept as {kept} ({REFUSAL_FILE} says why); remove it when "
                               "done"), file=sys.stderr)
        if args.json:
            print_document(refusal_fields(result))
        else:
            print(console_text(result.message))
        return EXIT_REFUSED
    m = result.manifest
    cost = service_cost(result)
    if cost is not None:  # only reachable with --allow-service-unmountable: say what it costs, loudly
        print(console_text(f"WARNING: {cost}"), file=sys.stderr)
    warnings = build_path_warnings(result.model_bytes)
    for warning in warnings:
        print(console_text(f"WARNING: {warning}"), file=sys.stderr)
    if args.json:
        print_document({"ok": True, "message": None, "package": str(args.out),
                        "manifestVersion": m.manifest_version, "modelSha256": m.model_sha256.lower(),
                        "modelCard": "given" if args.model_card is not None else "generated",
                        "warnings": warnings})
    else:
        print(console_text(f"published {args.out}: manifest {m.manifest_version}, {m.model_role},"
                           f" {m.feature_schema.id}"))
    return EXIT_OK
