"""Portability: the promises that rest on POSIX calls hold, with a fallback, where those calls are missing.

Windows has no ``os.O_NONBLOCK`` (and no ``O_CLOEXEC``); the package reader must still refuse what is not a
regular file - a refusal, never an ``AttributeError`` - and still read a real package.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from contract.core.resources import golden_dir

WITHOUT_NONBLOCK = """
import os
del os.O_NONBLOCK, os.O_CLOEXEC
import contract.model.package as package
"""


def _run(script: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", WITHOUT_NONBLOCK + textwrap.dedent(script)],
                          capture_output=True, text=True, timeout=120, check=False)


def test_a_package_loads_on_a_platform_without_o_nonblock() -> None:
    done = _run(f"""
        loaded = package.ModelPackage.load({str(golden_dir() / "example-package")!r}, "0.12.0")
        print(type(loaded).__name__, getattr(loaded, "message", ""))
    """)
    assert done.stdout == "ModelPackage \n", done.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs a FIFO to stand for what is not a regular file")
@pytest.mark.parametrize("which", ["manifest", "model"])
def test_without_o_nonblock_what_is_not_a_regular_file_is_refused(tmp_path: Path, which: str) -> None:
    example = golden_dir() / "example-package"
    fifo = tmp_path / f"{which}.fifo"
    os.mkfifo(fifo)
    model = fifo if which == "model" else example / "model.onnx"
    manifest = fifo if which == "manifest" else example / "manifest.json"
    # The readability check is made to pass, so that the open itself meets the FIFO.
    done = _run(f"""
        package._readable_file = lambda path: True
        print(package.ModelPackage.load_files({str(model)!r}, {str(manifest)!r}, "0.12.0").message)
    """)
    expected = (f"{fifo}: cannot be read: not a regular file" if which == "manifest"
                else f"{fifo}: cannot digest {fifo}: not a regular file")
    assert done.stdout == expected + "\n", done.stderr
    assert "Traceback" not in done.stderr
