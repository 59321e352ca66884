"""``python -m contract validate``: would the engine serve this package? Exit 0 yes, 1 no, 2 usage.

Either package directories or ``--model`` and ``--manifest``. Loading runs the §4.1 checks (digest
included); then the graph is opened and the tensor contract checked, as a session opening would.
A ``PACKAGE_DIR`` that does not exist is refused as such (``no such directory``) before the engine's
order starts. ``--discover`` (the pre-commit hook) validates every package below the current directory
(:mod:`contract.model.discovery`) and every one named, each of which must still exist: one line per
package, exit 1 when any is refused.

``--as service`` adds what the evaluation service refuses, ``--as training`` what the training
repository's package admission refuses (:mod:`contract.model.training`; a package directory only, since
the card is part of it). A graph whose metadata holds an absolute path is a ``WARNING:`` on stderr
naming the key (:mod:`contract.model.buildpaths`), never a refusal; ``--json`` lists it under ``warnings``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from contract.cli.jsonoutput import print_document, refusal_fields
from contract.cli.parser import engine_version
from contract.cli.signing import signature_key, signature_refusal
from contract.core.consoletext import console_text
from contract.core.exitcodes import EXIT_OK, EXIT_REFUSED, EXIT_USAGE
from contract.core.refusal import Refusal
from contract.model.buildpaths import build_path_warnings
from contract.model.discovery import directory_refusal, discover, named
from contract.model.manifest_schema import known_roles
from contract.model.package import ModelPackage
from contract.model.service import service_refusal
from contract.model.tensors import check_graph
from contract.model.training import training_refusal

READERS = ("engine", "service", "training")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "validate",
        help="check a model package against the contract",
        description="Check a package (directory, or --model and --manifest) as the engine would load it.",
    )
    parser.add_argument("package", nargs="*", metavar="PACKAGE_DIR",
                        help="directory with model.onnx and manifest.json (with --discover: also a glob)")
    parser.add_argument("--model", metavar="M", help="path of the ONNX graph (with --manifest)")
    parser.add_argument("--manifest", metavar="F", help="path of the manifest (with --model)")
    parser.add_argument("--engine-version", required=True, metavar="V", type=engine_version,
                        help="host engine version, MAJOR.MINOR.PATCH")
    parser.add_argument("--role", choices=known_roles(), help="the role the caller is wiring the model as")
    parser.add_argument("--as", dest="reader", choices=READERS, default="engine",
                        help="engine (default): would the engine serve it; service: would the evaluation "
                             "service mount it too (manifest 1.0.0, kcp-13, standard-kcp, position-value); "
                             "training: would the training repository's package admission admit it too "
                             "(model-card.md, a value-model featureSchema, the ONNX checker, opset <= 18; "
                             "PACKAGE_DIR only)")
    parser.add_argument("--discover", action="store_true",
                        help="also validate every package below the current directory (a directory holding "
                             "model.onnx, or a manifest.json naming a featureSchema; vendored copies of the "
                             "contract, dot-directories and node_modules are skipped); each PACKAGE_DIR named "
                             "must still exist")
    parser.add_argument("--exclude", action="append", default=[], metavar="GLOB",
                        help="with --discover: skip directories whose path matches GLOB (repeatable)")
    parser.add_argument("--public-key", type=Path, metavar="PUB.pem",
                        help="also verify DIR/model.sig (OMS v1.0, key method) after the package's checks, "
                             "fail-closed (needs the [signing] extra)")
    parser.add_argument("--json", action="store_true", help="print one JSON object (one package only)")
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


def _check(args: argparse.Namespace, package: str | None) -> ModelPackage | Refusal:
    """One package, by directory (``package``) or by ``--model``/``--manifest``: loaded, graph checked."""
    if package is not None and (missing := directory_refusal(Path(package))) is not None:
        return missing
    if package is None:
        loaded = ModelPackage.load_files(args.model, args.manifest, args.engine_version, args.role)
    else:
        loaded = ModelPackage.load(package, args.engine_version, args.role)
    if not isinstance(loaded, Refusal):
        graph_refusal = check_graph(loaded.model_bytes, loaded.manifest)
        if graph_refusal is not None:
            return graph_refusal.prefixed(loaded.model_text)
        for warning in build_path_warnings(loaded.model_bytes):  # on stderr whatever the verdict
            print(console_text(f"WARNING: {warning}"), file=sys.stderr)
        if args.reader == "service" and (unmountable := service_refusal(loaded.manifest)) is not None:
            return unmountable.prefixed(loaded.manifest_text)
        if args.reader == "training" and package is not None:
            refused = training_refusal(Path(package), loaded)
            if refused is not None:
                return refused
        if package is not None and args.signature_key is not None:
            unsigned = signature_refusal(package, args.signature_key)
            if unsigned is not None:
                return unsigned
    return loaded


def _report(args: argparse.Namespace, loaded: ModelPackage | Refusal, named_as: str | None = None) -> int:
    if isinstance(loaded, Refusal):
        if args.json:
            print_document(refusal_fields(loaded))
        else:
            print(console_text(f"refusing to serve: {loaded.message}"))
        return EXIT_REFUSED
    summary = _summary(loaded)
    if args.json:
        print_document({"ok": True, "message": None, **summary,
                        "warnings": build_path_warnings(loaded.model_bytes)})
    else:
        print(console_text(
            ("" if named_as is None else f"{named_as}: ")
            + f"serving {summary['modelId']}: {summary['modelRole']}, {summary['featureSchema']} "
            f"({summary['featureCount']} features), input '{summary['inputName']}' -> "
            f"output '{summary['outputName']}', engine {args.engine_version}"
            + (" (the evaluation service would mount it)" if args.reader == "service" else "")
            + (" (the training repository would admit it)" if args.reader == "training" else "")
        ))
    return EXIT_OK


def _targets(args: argparse.Namespace) -> list[str] | Refusal:
    """The package directories to check: those named, plus with ``--discover`` every one found."""
    if not args.discover:
        return list(args.package)
    listed = named(args.package)
    if listed.refusal is not None:
        return listed.refusal
    found = discover(Path("."), tuple(args.exclude))
    if found.refusal is not None:
        return found.refusal
    return [str(path) for path in dict.fromkeys((*listed.packages, *found.packages))]


def run(args: argparse.Namespace) -> int:
    parser: argparse.ArgumentParser = args.parser
    by_files = args.model is not None or args.manifest is not None
    if by_files and (args.package or args.discover):
        parser.error("give either PACKAGE_DIR (or --discover) or --model and --manifest, not both")
    if by_files and (args.model is None or args.manifest is None):
        parser.error("--model and --manifest go together")
    if by_files and args.reader == "training":
        parser.error("--as training checks a package directory (its model-card.md too): give PACKAGE_DIR")
    if not by_files and not args.package and not args.discover:
        parser.error("give PACKAGE_DIR, --discover, or --model and --manifest")
    if args.exclude and not args.discover:
        parser.error("--exclude goes with --discover")
    if by_files and args.public_key is not None:
        parser.error("--public-key goes with PACKAGE_DIR (the signature is DIR/model.sig)")
    args.signature_key = signature_key(args.public_key)
    if isinstance(args.signature_key, Refusal):  # a key that cannot be used: a usage error, as in the jar
        _report(args, args.signature_key)
        return EXIT_USAGE
    if by_files:
        return _report(args, _check(args, None))
    targets = _targets(args)
    if isinstance(targets, Refusal):
        return _report(args, targets)
    if args.json and (args.discover or len(targets) != 1):
        parser.error("--json takes exactly one PACKAGE_DIR (without --discover)")
    if not targets:
        print("validate --discover: no model package below the current directory")
        return EXIT_OK
    label = args.discover or len(targets) > 1
    return max([_report(args, _check(args, package), package if label else None) for package in targets])


__all__ = ["EXIT_USAGE", "register", "run"]
