"""Interop with the OpenSSF reference, live: ``model_signing`` (PyPI model-signing 1.1.1 with pyOpenSSL) verifies
what ``package sign`` wrote, and the kit (and the jar, when built) verify what ``model_signing sign key`` wrote.

``tox -e signing-interop`` installs the reference beside the kit (never a dependency of the kit) and sets
DICECHESS_SIGNING_REQUIRE_REFERENCE=1, so there a missing reference fails these tests instead of skipping them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from contract.model.signature import SIGNATURE, verify

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "golden" / "example-package"
KIT = [sys.executable, "-m", "contract"]


def _reference() -> str | None:
    beside = Path(sys.executable).parent / "model_signing"
    return str(beside) if beside.is_file() else shutil.which("model_signing")


REFERENCE = _reference()
if REFERENCE is None and os.environ.get("DICECHESS_SIGNING_REQUIRE_REFERENCE"):
    raise RuntimeError("DICECHESS_SIGNING_REQUIRE_REFERENCE is set but model_signing is not installed")
pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(REFERENCE is None, reason="model_signing not installed (tox -e signing-interop)")]


def _keys(tmp: Path, curve: ec.EllipticCurve) -> tuple[Path, Path]:
    key = ec.generate_private_key(curve)
    private, public = tmp / "key.pem", tmp / "key.pub.pem"
    private.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL,
                                          serialization.NoEncryption()))
    public.write_bytes(key.public_key().public_bytes(serialization.Encoding.PEM,
                                                     serialization.PublicFormat.SubjectPublicKeyInfo))
    return private, public


def _package(tmp: Path) -> Path:
    out = tmp / "pkg"
    out.mkdir()
    for file in ("model.onnx", "manifest.json"):
        shutil.copyfile(EXAMPLE / file, out / file)
    (out / "model-card.md").write_text("# card\n", encoding="utf-8")
    return out


def _call(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(argv), capture_output=True, text=True, timeout=300, check=False)


def _reference_verify(package: Path, public: Path) -> int:
    assert REFERENCE is not None
    return _call(REFERENCE, "verify", "key", str(package), "--signature", str(package / SIGNATURE),
                 "--public_key", str(public)).returncode


@pytest.mark.parametrize("curve", [ec.SECP256R1(), ec.SECP384R1()], ids=["p256", "p384"])
def test_the_reference_verifies_what_the_kit_signed(tmp_path: Path, curve: ec.EllipticCurve) -> None:
    private, public = _keys(tmp_path, curve)
    package = _package(tmp_path)
    signed = _call(*KIT, "package", "sign", str(package), "--key", str(private))
    assert signed.returncode == 0, signed.stdout + signed.stderr
    assert _reference_verify(package, public) == 0
    with open(package / "model-card.md", "ab") as handle:
        handle.write(b" ")
    assert _reference_verify(package, public) == 1


@pytest.mark.parametrize("curve", [ec.SECP256R1(), ec.SECP384R1()], ids=["p256", "p384"])
def test_the_kit_verifies_what_the_reference_signed(tmp_path: Path, curve: ec.EllipticCurve) -> None:
    assert REFERENCE is not None
    private, public = _keys(tmp_path, curve)
    package = _package(tmp_path)
    made = _call(REFERENCE, "sign", "key", str(package), "--signature", str(package / SIGNATURE),
                 "--private_key", str(private))
    assert made.returncode == 0, made.stdout + made.stderr
    validated = _call(*KIT, "validate", str(package), "--engine-version", "0.12.0", "--public-key", str(public))
    assert validated.returncode == 0, validated.stdout
    key = serialization.load_pem_public_key(public.read_bytes())
    assert verify(package, key).ok
    jars = sorted((ROOT / "jvm" / "target").glob("dicechess-contract-jvm-*.jar"))
    if jars and shutil.which("java"):
        java = _call("java", "-jar", str(jars[0]), "verify", str(package), "--public-key", str(public))
        assert java.returncode == 0, java.stdout
    (package / "extra.txt").write_text("x", encoding="utf-8")
    refused = verify(package, key)
    assert not refused.ok and refused.code == "signature.notCovered"
    assert _reference_verify(package, public) == 1
