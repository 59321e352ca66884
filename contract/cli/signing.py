"""``package sign DIR --key KEY.pem`` and the signature step of ``validate --public-key`` (docs/signing.md).

``package sign`` writes ``DIR/model.sig`` (:mod:`contract.model.signature`) over every regular file of DIR but
the signature: exit 0 signed, 1 refused (a link or a special file in DIR, nothing to sign, a key that cannot be
used), 2 usage. An encrypted key takes its password from the environment variable ``--key-password-env``
names; neither the key nor the password is ever printed. Nothing is written unless the whole bundle is.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from contract.cli.jsonoutput import print_document, refusal_fields
from contract.core.consoletext import console_text
from contract.core.exitcodes import EXIT_OK, EXIT_REFUSED
from contract.core.refusal import Refusal


def register_sign(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``sign`` to the ``package`` subcommand's actions."""
    sign = actions.add_parser(
        "sign",
        help="sign a package: write DIR/model.sig (OpenSSF model signing, OMS v1.0, key method)",
        description="Write DIR/model.sig, an OMS v1.0 bundle signed with an ECDSA P-256 or P-384 private key, "
                    "covering every regular file of DIR but the signature. Needs the [signing] extra.",
    )
    sign.add_argument("directory", type=Path, metavar="DIR", help="the package directory; DIR/model.sig is written")
    sign.add_argument("--key", required=True, type=Path, metavar="KEY.pem", help="PEM private key (EC P-256/P-384)")
    sign.add_argument("--key-password-env", metavar="NAME",
                      help="the environment variable holding the password of an encrypted key")
    sign.add_argument("--json", action="store_true", help="print one JSON object")
    sign.set_defaults(handler=run_sign, parser=sign)


def print_refusal(refusal: Refusal, as_json: bool, prefix: str | None = None) -> int:
    """Print a signing refusal (JSON or one line); exit 1."""
    shown = refusal if prefix is None else refusal.prefixed(prefix)
    if as_json:
        print_document(refusal_fields(shown))
    else:
        print(console_text(f"refusing to sign: {shown.message}"))
    return EXIT_REFUSED


def build_sign_key(args: argparse.Namespace) -> Any | Refusal | None:
    """``package build --sign-key``: the private key, its refusal, or None without the option."""
    if args.sign_key is None:
        if args.key_password_env is not None:
            args.parser.error("--key-password-env goes with --sign-key")
        return None
    from contract.model.signature import load_private_key

    return load_private_key(args.sign_key, args.key_password_env)


def run_sign(args: argparse.Namespace) -> int:
    from contract.model.signature import SIGNATURE, load_private_key, sign

    key = load_private_key(args.key, args.key_password_env)
    if isinstance(key, Refusal):
        return print_refusal(key, args.json)
    signed = sign(args.directory, key)
    if isinstance(signed, Refusal):
        return print_refusal(signed, args.json, str(args.directory))
    target = args.directory / SIGNATURE
    if args.json:
        print_document({"ok": True, "message": None, "signature": str(target), "files": signed,
                        "curve": key.curve.name})
    else:
        print(console_text(f"signed {args.directory}: {target}, {len(signed)} file(s) ({key.curve.name})"))
    return EXIT_OK


def signature_key(path: Path | None) -> Any | Refusal | None:
    """The public key of ``validate --public-key`` (None without the option)."""
    if path is None:
        return None
    from contract.model.signature import load_public_key

    return load_public_key(path)


def signature_refusal(directory: str, key: Any) -> Refusal | None:
    """The package's signature checked against ``key``: its refusal prefixed with the directory, or None."""
    from contract.model.signature import verify

    verdict = verify(Path(directory), key)
    return verdict.prefixed(directory) if isinstance(verdict, Refusal) else None


__all__ = ["build_sign_key", "print_refusal", "register_sign", "run_sign", "signature_key", "signature_refusal"]
