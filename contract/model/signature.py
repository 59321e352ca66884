"""A package's signature: ``DIR/model.sig``, an OpenSSF model-signing (OMS v1.0) bundle by the key method.

The bundle is a Sigstore bundle (``application/vnd.dev.sigstore.bundle.v0.3+json``) holding a DSSE envelope
whose payload is an in-toto Statement v1 of predicate type ``https://model_signing/signature/v1.0``: one
subject (the package's name and the SHA-256 over its resources' digests in order) and ``predicate.resources``
(name, ``sha256``, digest of each file, sorted by path) with ``predicate.serialization``. It is signed with
ECDSA over DSSE's pre-authentication encoding: SHA-256 on P-256, SHA-384 on P-384, as the reference signs.

:func:`sign` covers every regular file of the package but ``model.sig`` and writes the bundle atomically;
:func:`verify` holds when the envelope verifies under the public key, the bundle's key hint (when present) is
that key's, the subject digest matches, every signed name is a plain relative path inside the package, listed
once, whose file has that digest, and every regular file but ``model.sig`` is signed. Refused, each with a
code of the check table's ``signature`` family: a key of another curve or kind, a link or a special file in
the package, a bundle over 16 MiB, nested too deeply or not JSON, an empty file set. Nothing is written by
:func:`verify`; a private key's bytes or password never reach a message. ``cryptography`` (the ``[signing]``
extra) is imported only here, only when a key is read.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from contract.core.checktable import render, table_entry, table_family
from contract.core.errors import ContractError
from contract.core.oserrors import os_error_reason
from contract.core.refusal import Refusal, refusal
from contract.core.stagedfile import write_atomic
from contract.core.strictjson import StrictJsonError, parse

SIGNATURE: Final = "model.sig"
BUNDLE_TYPE: Final = "application/vnd.dev.sigstore.bundle.v0.3+json"
PAYLOAD_TYPE: Final = "application/vnd.in-toto+json"
STATEMENT_TYPE: Final = "https://in-toto.io/Statement/v1"
PREDICATE_TYPE: Final = "https://model_signing/signature/v1.0"
MAX_BUNDLE: Final = 16 * 1024 * 1024
MAX_KEY: Final = 64 * 1024
MAX_FILES: Final = 100_000
MAX_DEPTH: Final = 64
CURVES: Final = {"secp256r1": "sha256", "secp384r1": "sha384"}
_HEX64: Final = re.compile(r"[0-9a-f]{64}")
_CHUNK: Final = 1024 * 1024

# Every code of the family this module raises; a table lacking one is refused at import (fail closed).
IMPLEMENTED: Final = frozenset({
    "signature.extra.missing", "signature.key.unreadable", "signature.key.tooLarge", "signature.key.notPem",
    "signature.key.notPrivate", "signature.key.encrypted", "signature.key.passwordUnset",
    "signature.key.wrongPassword", "signature.key.unsupported", "signature.package.notDirectory",
    "signature.package.link", "signature.package.special", "signature.package.tooMany",
    "signature.package.unlistable", "signature.package.empty", "signature.missing", "signature.notFile",
    "signature.unreadable", "signature.tooLarge", "signature.notJson", "signature.notBundle",
    "signature.otherKey", "signature.noEnvelope", "signature.notBase64", "signature.notVerified",
    "signature.statementNotJson", "signature.notStatement", "signature.noResources", "signature.emptySet",
    "signature.badResource", "signature.pathOutside", "signature.duplicate", "signature.subjectDigest",
    "signature.coveredMissing", "signature.fileUnreadable", "signature.fileChanged", "signature.notCovered",
    "signature.pathProblem.absolute", "signature.pathProblem.character", "signature.pathProblem.part",
    "signature.verified", "signature.writeError",
})
_missing = IMPLEMENTED - {entry.code for entry in table_family("signature")}
if _missing:  # pragma: no cover - a damaged table
    raise ImportError(f"schema/check-table.json lacks the signature checks {sorted(_missing)}")


class SignatureRefused(ContractError):
    """Internal: carries the refusal out of a nested step."""

    def __init__(self, refused: Refusal) -> None:
        super().__init__(refused.message)
        self.refusal = refused


def _refuse(code: str, /, **fields: object) -> SignatureRefused:
    return SignatureRefused(refusal(code, **fields))


@dataclass(frozen=True)
class Verified:
    """A signature that holds: the signed names and the key's curve."""

    files: tuple[str, ...]
    curve: str

    @property
    def ok(self) -> bool:
        return True

    @property
    def message(self) -> str:
        return render(table_entry("signature.verified").message, {"count": len(self.files), "curve": self.curve})


def _crypto() -> Any:
    try:
        from cryptography.hazmat.primitives import serialization
    except ImportError:
        raise _refuse("signature.extra.missing") from None
    return serialization


def _read_key_bytes(path: Path) -> bytes:
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_KEY + 1)
    except OSError as exc:
        raise _refuse("signature.key.unreadable", path=path, reason=os_error_reason(exc)) from None
    if len(data) > MAX_KEY:
        raise _refuse("signature.key.tooLarge", path=path, limit=MAX_KEY)
    return data


def _curve(key: Any, path: Path) -> str:
    from cryptography.hazmat.primitives.asymmetric import ec

    if not isinstance(key, (ec.EllipticCurvePublicKey, ec.EllipticCurvePrivateKey)) or key.curve.name not in CURVES:
        raise _refuse("signature.key.unsupported", path=path)
    return str(key.curve.name)


def public_key(path: Path) -> Any:
    """The P-256 or P-384 public key of a PEM file (SubjectPublicKeyInfo); raises :class:`SignatureRefused`."""
    serialization = _crypto()
    data = _read_key_bytes(path)
    if b"-----BEGIN PUBLIC KEY-----" not in data:
        raise _refuse("signature.key.notPem", path=path)
    try:
        key = serialization.load_pem_public_key(data)
    except (ValueError, TypeError):
        raise _refuse("signature.key.notPem", path=path) from None
    _curve(key, path)
    return key


def private_key(path: Path, password_env: str | None) -> Any:
    """The P-256 or P-384 private key of a PEM file, decrypted with the password in ``password_env``."""
    serialization = _crypto()
    data = _read_key_bytes(path)
    password: bytes | None = None
    if password_env is not None:
        value = os.environ.get(password_env)
        if value is None:
            raise _refuse("signature.key.passwordUnset", name=password_env)
        password = value.encode("utf-8")
    try:
        key = serialization.load_pem_private_key(data, password)
    except TypeError:  # encrypted without a password, or a password for a key that is not encrypted
        if password is None:
            raise _refuse("signature.key.encrypted", path=path) from None
        raise _refuse("signature.key.wrongPassword", path=path, name=password_env) from None
    except ValueError:
        if password is not None and b"ENCRYPTED" in data:
            raise _refuse("signature.key.wrongPassword", path=path, name=password_env) from None
        raise _refuse("signature.key.notPrivate", path=path) from None
    except Exception:  # the backend's own errors (unsupported algorithm): never the key's bytes
        raise _refuse("signature.key.notPrivate", path=path) from None
    _curve(key, path)
    return key


def key_hint(key: Any) -> str:
    """The hint model-signing records: the SHA-256 of the public key's PEM (SubjectPublicKeyInfo) text."""
    serialization = _crypto()
    public = key.public_key() if hasattr(key, "private_bytes") else key
    pem = public.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    return hashlib.sha256(pem).hexdigest()


def pae(payload: bytes) -> bytes:
    """DSSE's pre-authentication encoding of an in-toto payload."""
    kind = PAYLOAD_TYPE.encode("utf-8")
    return b"DSSEv1 %d %s %d " % (len(kind), kind, len(payload)) + payload


def _hash_of(key: Any) -> Any:
    from cryptography.hazmat.primitives import hashes

    return hashes.SHA384() if key.curve.name == "secp384r1" else hashes.SHA256()


def _sort_key(name: str) -> tuple[str, ...]:
    return tuple(name.split("/"))


def package_files(directory: Path) -> list[str]:
    """Every regular file below ``directory`` but the top-level ``model.sig``, as relative POSIX names sorted by
    path; a link, a special file or more than :data:`MAX_FILES` files is refused."""
    if directory.is_symlink() or not directory.is_dir():
        raise _refuse("signature.package.notDirectory")
    out: list[str] = []
    pending: list[tuple[Path, str]] = [(directory, "")]
    while pending:
        folder, prefix = pending.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            raise _refuse("signature.package.unlistable", name=prefix or ".",
                          reason=os_error_reason(exc)) from None
        for entry in entries:
            name = prefix + entry.name
            if entry.is_symlink():
                raise _refuse("signature.package.link", name=name)
            if entry.is_dir(follow_symlinks=False):
                pending.append((Path(entry.path), name + "/"))
            elif entry.is_file(follow_symlinks=False):
                if name != SIGNATURE:
                    if len(out) >= MAX_FILES:
                        raise _refuse("signature.package.tooMany", limit=MAX_FILES)
                    out.append(name)
            else:
                raise _refuse("signature.package.special", name=name)
    return sorted(out, key=_sort_key)


def _file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def statement(directory: Path, files: list[str], subject_name: str) -> dict[str, Any]:
    """The in-toto statement over ``files`` (names relative to ``directory``, sorted by path)."""
    resources = []
    root = hashlib.sha256()
    for name in files:
        try:
            digest = _file_sha256(directory / name)
        except OSError as exc:
            raise _refuse("signature.fileUnreadable", name=name, reason=os_error_reason(exc)) from None
        root.update(bytes.fromhex(digest))
        resources.append({"name": name, "algorithm": "sha256", "digest": digest})
    return {
        "_type": STATEMENT_TYPE,
        "subject": [{"name": subject_name, "digest": {"sha256": root.hexdigest()}}],
        "predicateType": PREDICATE_TYPE,
        "predicate": {
            "resources": resources,
            "serialization": {"method": "files", "hash_type": "sha256", "allow_symlinks": False,
                              "ignore_paths": [SIGNATURE]},
        },
    }


def sign(directory: Path, key: Any, subject_name: str | None = None) -> list[str] | Refusal:
    """Write ``directory/model.sig`` over every regular file but itself; the signed names, or a refusal.

    ``key`` is a private key from :func:`private_key`. The bundle goes to a temporary sibling, then is renamed:
    a refusal or an interruption leaves whatever ``model.sig`` was there untouched.
    """
    try:
        files = package_files(directory)
        if not files:
            raise _refuse("signature.package.empty")
        payload = json.dumps(statement(directory, files, subject_name or directory.resolve().name),
                             indent=2).encode("utf-8")
        from cryptography.hazmat.primitives.asymmetric import ec

        sig = key.sign(pae(payload), ec.ECDSA(_hash_of(key)))
        bundle = {
            "mediaType": BUNDLE_TYPE,
            "verificationMaterial": {"publicKey": {"hint": key_hint(key)}, "tlogEntries": []},
            "dsseEnvelope": {
                "payload": base64.b64encode(payload).decode("ascii"),
                "payloadType": PAYLOAD_TYPE,
                "signatures": [{"sig": base64.b64encode(sig).decode("ascii"), "keyid": ""}],
            },
        }
        try:
            write_atomic(directory / SIGNATURE, json.dumps(bundle, separators=(",", ":")))
        except OSError as exc:
            raise _refuse("signature.writeError", path=SIGNATURE, reason=os_error_reason(exc)) from None
    except SignatureRefused as refused:
        return refused.refusal
    return files


def _json(data: bytes, code: str) -> Any:
    try:
        return parse(data, max_bytes=MAX_BUNDLE, max_depth=MAX_DEPTH)
    except StrictJsonError as exc:
        raise _refuse(code, detail=exc.refusal.message) from None


def _signed_statement(bundle_path: Path, key: Any) -> dict[str, Any]:
    try:
        with open(bundle_path, "rb") as handle:
            data = handle.read(MAX_BUNDLE + 1)
    except OSError as exc:
        raise _refuse("signature.unreadable", reason=os_error_reason(exc)) from None
    if len(data) > MAX_BUNDLE:
        raise _refuse("signature.tooLarge", limit=MAX_BUNDLE)
    bundle = _json(data, "signature.notJson")
    if not isinstance(bundle, dict) or bundle.get("mediaType") != BUNDLE_TYPE:
        raise _refuse("signature.notBundle")
    material = bundle.get("verificationMaterial")
    known = material.get("publicKey") if isinstance(material, dict) else None
    hint = known.get("hint") if isinstance(known, dict) else None
    if isinstance(hint, str) and hint and hint != key_hint(key):
        raise _refuse("signature.otherKey")
    envelope = bundle.get("dsseEnvelope")
    signatures = envelope.get("signatures") if isinstance(envelope, dict) else None
    if (not isinstance(envelope, dict) or not isinstance(envelope.get("payload"), str)
            or envelope.get("payloadType") != PAYLOAD_TYPE or not isinstance(signatures, list)
            or len(signatures) != 1 or not isinstance(signatures[0], dict)
            or not isinstance(signatures[0].get("sig"), str)):
        raise _refuse("signature.noEnvelope")
    try:
        payload = base64.b64decode(envelope["payload"], validate=True)
        sig = base64.b64decode(signatures[0]["sig"], validate=True)
    except (binascii.Error, ValueError):
        raise _refuse("signature.notBase64") from None
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric import ec

    try:
        key.verify(sig, pae(payload), ec.ECDSA(_hash_of(key)))
    except (InvalidSignature, ValueError):
        raise _refuse("signature.notVerified") from None
    doc = _json(payload, "signature.statementNotJson")
    if not isinstance(doc, dict) or doc.get("_type") != STATEMENT_TYPE or doc.get("predicateType") != PREDICATE_TYPE:
        raise _refuse("signature.notStatement")
    return doc


def name_problem(name: str) -> str | None:
    """The code of why a signed name is not a plain relative POSIX name inside the package (None: it is)."""
    if not name or name.startswith("/"):
        return "signature.pathProblem.absolute"
    if "\\" in name or any(ord(c) < 0x20 or ord(c) == 0x7F for c in name):
        return "signature.pathProblem.character"
    if any(part in ("", ".", "..") for part in name.split("/")):
        return "signature.pathProblem.part"
    return None


def _resources(doc: dict[str, Any]) -> dict[str, str]:
    predicate = doc.get("predicate")
    listed = predicate.get("resources") if isinstance(predicate, dict) else None
    subjects = doc.get("subject")
    subject = subjects[0] if isinstance(subjects, list) and len(subjects) == 1 else None
    digest = subject.get("digest") if isinstance(subject, dict) else None
    root_digest = digest.get("sha256") if isinstance(digest, dict) else None
    if not isinstance(listed, list) or not isinstance(root_digest, str):
        raise _refuse("signature.noResources")
    if not listed:
        raise _refuse("signature.emptySet")
    resources: dict[str, str] = {}
    root = hashlib.sha256()
    for item in listed:
        name = item.get("name") if isinstance(item, dict) else None
        hexdigest = item.get("digest") if isinstance(item, dict) else None
        if (not isinstance(name, str) or item.get("algorithm") != "sha256" or not isinstance(hexdigest, str)
                or not _HEX64.fullmatch(hexdigest)):
            raise _refuse("signature.badResource")
        problem = name_problem(name)
        if problem is not None:
            raise _refuse("signature.pathOutside", name=repr(name), problem=table_entry(problem).message)
        if name in resources:
            raise _refuse("signature.duplicate", name=repr(name))
        resources[name] = hexdigest
        root.update(bytes.fromhex(hexdigest))
    if root.hexdigest() != root_digest:
        raise _refuse("signature.subjectDigest")
    return resources


def verify(directory: Path, key: Any) -> Verified | Refusal:
    """Check ``directory/model.sig`` against the package's files and ``key`` (from :func:`public_key`)."""
    try:
        if directory.is_symlink() or not directory.is_dir():
            raise _refuse("signature.package.notDirectory")
        bundle_path = directory / SIGNATURE
        if not os.path.lexists(bundle_path):
            raise _refuse("signature.missing")
        if bundle_path.is_symlink() or not bundle_path.is_file():
            raise _refuse("signature.notFile")
        resources = _resources(_signed_statement(bundle_path, key))
        present = set(package_files(directory))
        for name, expected in resources.items():
            if name not in present:
                raise _refuse("signature.coveredMissing", name=name)
            try:
                actual = _file_sha256(directory / name)
            except OSError as exc:
                raise _refuse("signature.fileUnreadable", name=name, reason=os_error_reason(exc)) from None
            if actual != expected:
                raise _refuse("signature.fileChanged", name=name)
        for name in sorted(present, key=_sort_key):
            if name not in resources:
                raise _refuse("signature.notCovered", name=name)
        return Verified(tuple(resources), _curve(key, directory))
    except SignatureRefused as refused:
        return refused.refusal


def load_public_key(path: Path) -> Any | Refusal:
    """:func:`public_key` as a value: the key, or the refusal."""
    try:
        return public_key(path)
    except SignatureRefused as refused:
        return refused.refusal


def load_private_key(path: Path, password_env: str | None) -> Any | Refusal:
    """:func:`private_key` as a value: the key, or the refusal."""
    try:
        return private_key(path, password_env)
    except SignatureRefused as refused:
        return refused.refusal


__all__ = [
    "MAX_BUNDLE", "SIGNATURE", "SignatureRefused", "Verified", "key_hint", "load_private_key", "load_public_key",
    "name_problem", "package_files", "pae", "private_key", "public_key", "sign", "statement", "verify",
]
