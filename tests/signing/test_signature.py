"""Package signatures (issue 34): package sign, validate --public-key, build --sign-key, hostile bundles, and the
jar's verdicts on the same packages.

The agreement data are recorded by others: ``jvm/src/test/resources/signed`` holds bundles the OpenSSF reference
signer (model-signing 1.1.1) wrote and the verdicts its verifier gave (README there). The live interop with the
reference runs in ``tox -e signing-interop`` (tests/signing/test_interop.py).
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519

from contract.cli import main
from contract.model.signature import SIGNATURE, key_hint, pae, verify

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "golden" / "example-package"
RECORDED = ROOT / "jvm" / "src" / "test" / "resources" / "signed"
KEYS = RECORDED / "keys"


def _keypair(tmp: Path, name: str, curve: ec.EllipticCurve) -> tuple[Path, Path]:
    key = ec.generate_private_key(curve)
    private = tmp / f"{name}.pem"
    public = tmp / f"{name}.pub.pem"
    private.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                          serialization.NoEncryption()))
    public.write_bytes(key.public_key().public_bytes(serialization.Encoding.PEM,
                                                     serialization.PublicFormat.SubjectPublicKeyInfo))
    return private, public


def _package(tmp: Path, name: str, card: bool = True) -> Path:
    out = tmp / name
    out.mkdir()
    for file in ("model.onnx", "manifest.json"):
        shutil.copyfile(EXAMPLE / file, out / file)
    if card:
        (out / "model-card.md").write_text("# card\n", encoding="utf-8")
    return out


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = int(exc.code or 0)
    return code, capsys.readouterr().out


def _validate(capsys: pytest.CaptureFixture[str], package: Path, key: Path, *extra: str) -> tuple[int, str]:
    return _run(capsys, "validate", str(package), "--engine-version", "0.12.0", "--public-key", str(key), *extra)


def _tree(directory: Path) -> dict[str, bytes]:
    return {str(p.relative_to(directory)): p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()}


# ---------------------------------------------------------------------------------------------------------------
# The reference signer's bundles, with the verdicts its verifier gave (recorded, README in RECORDED)

def _recorded(tmp: Path, curve: str, name: str | None = None) -> Path:
    out = _package(tmp, name or f"ref-{curve}", card=False)
    for file in (RECORDED / curve).iterdir():
        shutil.copyfile(file, out / file.name)
    return out


def _public(name: str) -> Any:
    return serialization.load_pem_public_key((KEYS / name).read_bytes())


@pytest.mark.parametrize("curve", ["p256", "p384"])
def test_the_reference_signers_bundles_verify(tmp_path: Path, capsys: pytest.CaptureFixture[str], curve: str) -> None:
    package = _recorded(tmp_path, curve)
    assert _validate(capsys, package, KEYS / f"{curve}.pub.pem")[0] == 0
    verdict = verify(package, _public(f"{curve}.pub.pem"))
    assert verdict.ok and verdict.message == f"3 file(s) signed by the key (secp{curve[1:]}r1)"


def _tamper(package: Path, how: str) -> None:
    if how.startswith("append:"):
        with open(package / how.split(":")[1], "ab") as handle:
            handle.write(b" ")
    elif how == "add":
        (package / "extra.txt").write_text("x", encoding="utf-8")
    elif how.startswith("remove:"):
        (package / how.split(":")[1]).unlink()


# what the reference verifier refused (README), and the code the kit names
TAMPERED = [
    ("append:manifest.json", "p256.pub.pem", "signature.fileChanged"),
    ("append:model.onnx", "p256.pub.pem", "signature.fileChanged"),
    ("append:model-card.md", "p256.pub.pem", "signature.fileChanged"),
    ("add", "p256.pub.pem", "signature.notCovered"),
    ("remove:model-card.md", "p256.pub.pem", "signature.coveredMissing"),
    ("remove:model.sig", "p256.pub.pem", "signature.missing"),
    ("none", "other-p256.pub.pem", "signature.otherKey"),
]


@pytest.mark.parametrize(("how", "key", "code"), TAMPERED)
def test_what_the_reference_refuses_the_kit_refuses_with_its_code(tmp_path: Path, how: str, key: str,
                                                                   code: str) -> None:
    package = _recorded(tmp_path, "p256")
    _tamper(package, how)
    verdict = verify(package, _public(key))
    assert not verdict.ok and verdict.code == code, verdict


def test_the_p384_package_under_the_p256_key_is_another_key(tmp_path: Path) -> None:
    verdict = verify(_recorded(tmp_path, "p384"), _public("p256.pub.pem"))
    assert not verdict.ok and verdict.code == "signature.otherKey"


@pytest.mark.parametrize("key", ["p521.pub.pem", "ed25519.pub.pem"])
def test_a_key_of_another_curve_or_kind_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                         key: str) -> None:
    code, out = _validate(capsys, _recorded(tmp_path, "p256"), KEYS / key, "--json")
    document = json.loads(out)
    assert code == 2 and document["code"] == "signature.key.unsupported"
    assert "is not a P-256 or P-384 key" in document["message"]


def test_a_changed_card_fails_validate_with_exit_1_naming_it(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    package = _recorded(tmp_path, "p256")
    _tamper(package, "append:model-card.md")
    code, out = _validate(capsys, package, KEYS / "p256.pub.pem", "--json")
    document = json.loads(out)
    schema = json.loads((ROOT / "schema" / "output-validate-1.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(document, schema)
    assert code == 1 and document["code"] == "signature.fileChanged"
    assert document["message"].endswith("model-card.md changed since it was signed (its SHA-256 is not the signed one)")


def test_a_changed_model_is_refused_by_the_digest_check_first(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    package = _recorded(tmp_path, "p256")
    _tamper(package, "append:model.onnx")
    code, out = _validate(capsys, package, KEYS / "p256.pub.pem", "--json")
    assert code == 1 and json.loads(out)["code"] == "package.model.sha256Mismatch"


# ---------------------------------------------------------------------------------------------------------------
# package sign, build --sign-key

@pytest.mark.parametrize("curve", [ec.SECP256R1(), ec.SECP384R1()], ids=["p256", "p384"])
def test_sign_then_validate(tmp_path: Path, capsys: pytest.CaptureFixture[str], curve: ec.EllipticCurve) -> None:
    private, public = _keypair(tmp_path, "k", curve)
    package = _package(tmp_path, "pkg")
    code, out = _run(capsys, "package", "sign", str(package), "--key", str(private), "--json")
    document = json.loads(out)
    schema = json.loads((ROOT / "schema" / "output-package-sign-1.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(document, schema)
    assert code == 0 and document["files"] == ["manifest.json", "model-card.md", "model.onnx"]
    assert sorted(os.listdir(package)) == ["manifest.json", "model-card.md", "model.onnx", SIGNATURE]
    assert private.read_text(encoding="ascii").splitlines()[1] not in out
    assert _validate(capsys, package, public)[0] == 0
    _, other = _keypair(tmp_path, "other", curve)
    code, out = _validate(capsys, package, other, "--json")
    assert code == 1 and json.loads(out)["code"] == "signature.otherKey"


def test_an_encrypted_key_takes_its_password_from_the_named_variable(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str],
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    private = tmp_path / "enc.pem"
    private.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                          serialization.BestAvailableEncryption(b"s3cret-pass")))
    package = _package(tmp_path, "pkg")
    code, out = _run(capsys, "package", "sign", str(package), "--key", str(private), "--json")
    assert code == 1 and json.loads(out)["code"] == "signature.key.encrypted"
    code, out = _run(capsys, "package", "sign", str(package), "--key", str(private), "--key-password-env", "PW_X")
    assert code == 1 and "PW_X is not set in the environment" in out
    monkeypatch.setenv("PW_X", "wrong")
    code, out = _run(capsys, "package", "sign", str(package), "--key", str(private), "--key-password-env", "PW_X")
    assert code == 1 and "cannot be decrypted with the password in PW_X" in out and "wrong" not in out.split(":")[-1]
    assert not (package / SIGNATURE).exists()
    monkeypatch.setenv("PW_X", "s3cret-pass")
    code, out = _run(capsys, "package", "sign", str(package), "--key", str(private), "--key-password-env", "PW_X")
    assert code == 0 and "s3cret-pass" not in out
    public = tmp_path / "enc.pub.pem"
    public.write_bytes(key.public_key().public_bytes(serialization.Encoding.PEM,
                                                     serialization.PublicFormat.SubjectPublicKeyInfo))
    assert verify(package, key.public_key()).ok


def test_sign_refuses_a_link_an_empty_directory_and_another_kind_of_key_writing_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    private, _ = _keypair(tmp_path, "k", ec.SECP256R1())
    linked = _package(tmp_path, "linked")
    os.symlink(linked / "model.onnx", linked / "link.onnx")
    code, out = _run(capsys, "package", "sign", str(linked), "--key", str(private), "--json")
    assert code == 1 and json.loads(out)["code"] == "signature.package.link"
    assert not (linked / SIGNATURE).exists()
    empty = tmp_path / "empty"
    empty.mkdir()
    code, out = _run(capsys, "package", "sign", str(empty), "--key", str(private), "--json")
    assert code == 1 and json.loads(out)["code"] == "signature.package.empty" and os.listdir(empty) == []
    ed = tmp_path / "ed.pem"
    ed.write_bytes(ed25519.Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    package = _package(tmp_path, "pkg")
    code, out = _run(capsys, "package", "sign", str(package), "--key", str(ed), "--json")
    assert code == 1 and json.loads(out)["code"] == "signature.key.unsupported"
    assert not (package / SIGNATURE).exists()


def test_sign_and_validate_refuse_a_missing_directory_or_key(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    private, public = _keypair(tmp_path, "k", ec.SECP256R1())
    code, out = _run(capsys, "package", "sign", str(tmp_path / "none"), "--key", str(private), "--json")
    assert code == 1 and json.loads(out)["code"] == "signature.package.notDirectory"
    code, out = _run(capsys, "package", "sign", str(tmp_path), "--key", str(tmp_path / "none.pem"), "--json")
    assert code == 1 and json.loads(out)["code"] == "signature.key.unreadable"
    code, out = _validate(capsys, _package(tmp_path, "pkg"), tmp_path / "none.pem", "--json")
    assert code == 2 and json.loads(out)["code"] == "signature.key.unreadable"
    code, out = _validate(capsys, tmp_path / "pkg", public, "--json")
    assert code == 1 and json.loads(out)["code"] == "signature.missing"
    code, out = _validate(capsys, tmp_path / "pkg", private, "--json")
    assert code == 2 and json.loads(out)["code"] == "signature.key.notPem"


def test_a_signature_that_cannot_be_written_is_one_refusal_leaving_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    private, _ = _keypair(tmp_path, "k", ec.SECP256R1())
    package = _package(tmp_path, "pkg")
    (package / SIGNATURE).mkdir()
    before = sorted(os.listdir(package))
    code, out = _run(capsys, "package", "sign", str(package), "--key", str(private), "--json")
    assert code == 1 and json.loads(out)["code"] == "signature.writeError", out
    assert sorted(os.listdir(package)) == before


def test_without_the_signing_extra_validate_and_sign_say_how_to_install_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    package = _package(tmp_path, "pkg")
    monkeypatch.setitem(__import__("sys").modules, "cryptography.hazmat.primitives", None)
    code, out = _validate(capsys, package, KEYS / "p256.pub.pem", "--json")
    assert code == 2 and json.loads(out)["code"] == "signature.extra.missing"
    code, out = _run(capsys, "package", "sign", str(package), "--key", str(KEYS / "p256.pub.pem"))
    assert code == 1 and out == "refusing to sign: signing needs the cryptography package (the kit's [signing] " \
        "extra): pip install cryptography\n"


def test_resigning_replaces_the_signature_atomically(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    private, public = _keypair(tmp_path, "k", ec.SECP256R1())
    package = _package(tmp_path, "pkg")
    assert _run(capsys, "package", "sign", str(package), "--key", str(private))[0] == 0
    assert _run(capsys, "package", "sign", str(package), "--key", str(private))[0] == 0
    assert sorted(os.listdir(package)) == ["manifest.json", "model-card.md", "model.onnx", SIGNATURE]
    assert verify(package, serialization.load_pem_public_key(public.read_bytes())).ok


def test_build_with_a_sign_key_publishes_a_signed_package(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    private, public = _keypair(tmp_path, "k", ec.SECP384R1())
    out = tmp_path / "built"
    code, text = _run(capsys, "package", "build", "--model", str(EXAMPLE / "model.onnx"), "--schema", "kcp-13",
                      "--role", "position-value", "--engine-compatibility", ">=0.12.0 <1.0.0", "--model-id", "m",
                      "--out", str(out), "--sign-key", str(private))
    assert code == 0, text
    assert (out / SIGNATURE).is_file()
    assert _validate(capsys, out, public)[0] == 0
    statement = json.loads(base64.b64decode(json.loads((out / SIGNATURE).read_text())["dsseEnvelope"]["payload"]))
    assert statement["subject"][0]["name"] == "built"


# ---------------------------------------------------------------------------------------------------------------
# hostile bundles, signed by a test key so that only the statement is wrong

def _bundle(key: ec.EllipticCurvePrivateKey, resources: list[dict[str, str]], root: str | None = None) -> str:
    digest = hashlib.sha256(b"".join(bytes.fromhex(r["digest"]) for r in resources)).hexdigest()
    statement = {"_type": "https://in-toto.io/Statement/v1",
                 "subject": [{"name": "pkg", "digest": {"sha256": root or digest}}],
                 "predicateType": "https://model_signing/signature/v1.0",
                 "predicate": {"resources": resources, "serialization": {"method": "files"}}}
    payload = json.dumps(statement).encode()
    sig = key.sign(pae(payload), ec.ECDSA(hashes.SHA256()))
    return json.dumps({"mediaType": "application/vnd.dev.sigstore.bundle.v0.3+json",
                       "verificationMaterial": {"publicKey": {"hint": key_hint(key)}, "tlogEntries": []},
                       "dsseEnvelope": {"payload": base64.b64encode(payload).decode(),
                                        "payloadType": "application/vnd.in-toto+json",
                                        "signatures": [{"sig": base64.b64encode(sig).decode(), "keyid": ""}]}})


def _res(name: str, digest: str) -> dict[str, str]:
    return {"name": name, "algorithm": "sha256", "digest": digest}


def _hostile() -> dict[str, Any]:
    a = hashlib.sha256(b"a").hexdigest()
    return {
        "dotdot": (lambda k: _bundle(k, [_res("a.txt", a), _res("../x", a)]), "signature.pathOutside"),
        "absolute": (lambda k: _bundle(k, [_res("/etc/passwd", a)]), "signature.pathOutside"),
        "duplicate": (lambda k: _bundle(k, [_res("a.txt", a), _res("a.txt", a)]), "signature.duplicate"),
        "empty": (lambda k: _bundle(k, []), "signature.emptySet"),
        "subject": (lambda k: _bundle(k, [_res("a.txt", a)], root="0" * 64), "signature.subjectDigest"),
        "notJson": (lambda k: "not json", "signature.notJson"),
        "deep": (lambda k: "[" * 100 + "]" * 100, "signature.notJson"),
        "mediaType": (lambda k: _bundle(k, [_res("a.txt", a)]).replace("vnd.dev.sigstore.bundle.v0.3+json",
                                                                         "json"), "signature.notBundle"),
        "huge": (lambda k: " " * (16 * 1024 * 1024 + 1), "signature.tooLarge"),
    }


@pytest.mark.parametrize("case", list(_hostile()))
def test_a_hostile_bundle_is_one_refusal_and_nothing_is_written(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                case: str) -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "a.txt").write_bytes(b"a")
    make, code = _hostile()[case]
    (package / SIGNATURE).write_text(make(key), encoding="utf-8")
    before = _tree(package)
    verdict = verify(package, key.public_key())
    assert not verdict.ok and verdict.code == code, verdict
    assert len(verdict.message.splitlines()) == 1
    assert _tree(package) == before


def test_a_link_in_a_signed_package_is_refused(tmp_path: Path) -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "a.txt").write_bytes(b"a")
    (package / SIGNATURE).write_text(_bundle(key, [_res("a.txt", hashlib.sha256(b"a").hexdigest())]))
    assert verify(package, key.public_key()).ok
    os.symlink(package / "a.txt", package / "b.txt")
    verdict = verify(package, key.public_key())
    assert not verdict.ok and verdict.code == "signature.package.link"


def test_the_module_raises_every_code_of_the_family_and_no_other() -> None:
    from contract.core.checktable import table_family
    from contract.model.signature import IMPLEMENTED

    assert {entry.code for entry in table_family("signature")} == IMPLEMENTED


# ---------------------------------------------------------------------------------------------------------------
# the jar answers the same packages with the same codes

JAR_DIR = ROOT / "jvm" / "target"


def _jar() -> Path | None:
    found = sorted(JAR_DIR.glob("dicechess-contract-jvm-*.jar")) if JAR_DIR.is_dir() else []
    return found[0] if found and shutil.which("java") else None


if _jar() is None and os.environ.get("DICECHESS_SIGNING_REQUIRE_JAR"):
    raise RuntimeError("DICECHESS_SIGNING_REQUIRE_JAR is set but the jar is not built or java is missing")


@pytest.mark.skipif(_jar() is None, reason="the jar is not built (mvn -B -f jvm/pom.xml package) or no java")
def test_python_and_the_jar_give_the_same_verdicts_on_a_corpus(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    jar = _jar()
    assert jar is not None
    private, public = _keypair(tmp_path, "kit", ec.SECP256R1())
    corpus: list[tuple[Path, Path]] = []
    for origin in ("kit", "reference"):
        for how, key_name, _ in [*TAMPERED, ("none", "p256.pub.pem", None)]:
            label = f"{origin}-{how.replace(':', '-')}-{key_name}"
            if origin == "kit":
                package = _package(tmp_path, label)
                assert _run(capsys, "package", "sign", str(package), "--key", str(private))[0] == 0
                key = public if key_name == "p256.pub.pem" else KEYS / key_name
            else:
                package = _recorded(tmp_path, "p256", label)
                key = KEYS / key_name
            _tamper(package, how)
            corpus.append((package, key))
    hostile_key = ec.generate_private_key(ec.SECP256R1())
    hostile_public = tmp_path / "hostile.pub.pem"
    hostile_public.write_bytes(hostile_key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))
    for case, (make, _) in _hostile().items():
        package = tmp_path / f"hostile-{case}"
        package.mkdir()
        (package / "a.txt").write_bytes(b"a")
        (package / SIGNATURE).write_text(make(hostile_key), encoding="utf-8")
        corpus.append((package, hostile_public))
    edited = tmp_path / "hostile-edited"
    edited.mkdir()
    (edited / "a.txt").write_bytes(b"a")
    bundle = json.loads(_bundle(hostile_key, [_res("a.txt", hashlib.sha256(b"a").hexdigest())]))
    bundle["dsseEnvelope"]["payload"] = base64.b64encode(b'{"_type": 1}').decode()
    (edited / SIGNATURE).write_text(json.dumps(bundle), encoding="utf-8")
    linked = tmp_path / "hostile-link"
    shutil.copytree(edited, linked)
    (linked / SIGNATURE).write_text(_bundle(hostile_key, [_res("a.txt", hashlib.sha256(b"a").hexdigest())]))
    os.symlink(linked / "a.txt", linked / "b.txt")
    corpus += [(edited, hostile_public), (linked, hostile_public)]
    for package, key in corpus:
        mine = verify(package, serialization.load_pem_public_key(key.read_bytes()))
        java = subprocess.run(["java", "-jar", str(jar), "verify", str(package), "--public-key", str(key)],
                              capture_output=True, text=True, timeout=120, check=False)
        line = java.stdout.strip()
        if mine.ok:
            assert java.returncode == 0 and line.endswith(f": OK: {mine.message}"), (package, line)
        else:
            assert java.returncode == 1 and f": FAIL {mine.code}: " in line, (package, mine, line)
            if mine.code in ("signature.notJson", "signature.statementNotJson"):  # the detail is each parser's own
                assert ": model.sig is not valid JSON: " in line and "model.sig is not valid JSON: " in mine.message
            else:
                assert line.endswith(mine.message), (package, mine, line)
