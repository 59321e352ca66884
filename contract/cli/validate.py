"""``python -m contract validate``: would the engine serve this package? Exit 0 yes, 1 no, 2 usage.

Either a package directory or ``--model`` and ``--manifest``. Loading runs the §4.1 checks (digest
included); then the graph is opened and the tensor contract checked, as a session opening would.
"""

from __future__ import annotations

import argparse
from typing import Any

from contract.cli.jsonoutput import print_document, refusal_fields
from contract.cli.parser import engine_version
from contract.core.consoletext import console_text
from contract.core.exitcodes import EXIT_OK, EXIT_REFUSED, EXIT_USAGE
from contract.core.refusal import Refusal
from contract.model.manifest_schema import known_roles
from contract.model.package import ModelPackage
from contract.model.service import service_refusal
from contract.model.tensors import check_graph

READERS = ("engine", "service")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "validate",
        help="check a model package against the contract",
        description="Check a package (directory, or --model and --manifest) as the engine would load it.",
    )
    parser.add_argument("package", nargs="?", metavar="PACKAGE_DIR", help="directory with model.onnx and manifest.json")
    parser.add_argument("--model", metavar="M", help="path of the ONNX graph (with --manifest)")
    parser.add_argument("--manifest", metavar="F", help="path of the manifest (with --model)")
    parser.add_argument("--engine-version", required=True, metavar="V", type=engine_version,
                        help="host engine version, MAJOR.MINOR.PATCH")
    parser.add_argument("--role", choices=known_roles(), help="the role the caller is wiring the model as")
    parser.add_argument("--as", dest="reader", choices=READERS, default="engine",
                        help="engine (default): would the engine serve it; service: would the evaluation "
                             "service mount it too (manifest 1.0.0, kcp-13, standard-kcp, position-value)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=run, parser=parser)


def _summary(package: ModelPackage) -> dict[str, Any]:
    m = package.manifest
    return {
        "modelId": m.model_id,
        "manifestVersion": m.manifest_version,
        "modelRole": m.model_role,
        "featureSchema": m.feature_schema.id,
        "featureCount": m.feature_count,
        "inputName": m.input_name,
        "outputName": m.output_name,
        "perspective": m.perspective,
        "modelSha256": m.model_sha256.lower(),
        "engineCompatibility": m.engine_compatibility,
    }


def run(args: argparse.Namespace) -> int:
    parser: argparse.ArgumentParser = args.parser
    by_files = args.model is not None or args.manifest is not None
    if by_files and args.package is not None:
        parser.error("give either PACKAGE_DIR or --model and --manifest, not both")
    if by_files and (args.model is None or args.manifest is None):
        parser.error("--model and --manifest go together")
    if not by_files and args.package is None:
        parser.error("give PACKAGE_DIR, or --model and --manifest")
    if by_files:
        loaded = ModelPackage.load_files(args.model, args.manifest, args.engine_version, args.role)
    else:
        loaded = ModelPackage.load(args.package, args.engine_version, args.role)
    if not isinstance(loaded, Refusal):
        graph_refusal = check_graph(loaded.model_bytes, loaded.manifest)
        if graph_refusal is not None:
            loaded = graph_refusal.prefixed(loaded.model_text)
        elif args.reader == "service" and (unmountable := service_refusal(loaded.manifest)) is not None:
            loaded = unmountable.prefixed(loaded.manifest_text)
    if isinstance(loaded, Refusal):
        if args.json:
            print_document(refusal_fields(loaded))
        else:
            print(console_text(f"refusing to serve: {loaded.message}"))
        return EXIT_REFUSED
    summary = _summary(loaded)
    if args.json:
        print_document({"ok": True, "message": None, **summary})
    else:
        print(console_text(
            f"serving {summary['modelId']}: {summary['modelRole']}, {summary['featureSchema']} "
            f"({summary['featureCount']} features), input '{summary['inputName']}' -> "
            f"output '{summary['outputName']}', engine {args.engine_version}"
            + (" (the evaluation service would mount it)" if args.reader == "service" else "")
        ))
    return EXIT_OK


__all__ = ["EXIT_USAGE", "register", "run"]
