"""Build the JVM adapter of ``adapters/jvm/`` against a released engine, or say why it cannot be built.

``adapters/jvm/pom.xml`` depends on ``com.fortemate:dicechess-engine_3`` at ``-Dengine.version`` and writes
the adapter's classes and the engine's run-time classpath under ``adapters/jvm/target/engine-VERSION/``.
:func:`build` runs Maven there and returns the adapter command; when Java or Maven is absent, the checkout
has no ``adapters/jvm`` (an installed wheel), or Maven cannot resolve the engine, it returns the reason
instead, and the caller replays the recorded answers (labelled ``recorded``). The engine is resolved at
build time and never vendored: it is AGPL-3.0, the kit Apache-2.0 (``adapters/jvm/NOTICE.md``).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from contract.core.errors import ContractError
from contract.core.oserrors import os_error_reason
from contract.core.resources import data_root

ENGINE_ARTIFACT: Final = "com.fortemate:dicechess-engine_3"
DEFAULT_ENGINE_VERSION: Final = "0.12.0"
MAIN_CLASS: Final = "dicechesscontract.engine.EngineAdapter"
TIMING_CLASS: Final = "dicechesscontract.engine.EngineTiming"
BUILD_TIMEOUT: Final = 900.0
_RELEASE = re.compile(r"[0-9]+\.[0-9]+\.[0-9]+\Z")
_ERROR_LINE = re.compile(r"^\[ERROR\]\s*(.+)$", re.MULTILINE)
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


class EngineVersionError(ContractError, ValueError):
    """An engine version that is not a release ``MAJOR.MINOR.PATCH``."""


@dataclass(frozen=True)
class EngineBuild:
    """The outcome of one build: ``command`` when the adapter is ready, else ``reason``."""

    version: str
    command: tuple[str, ...] | None
    reason: str | None = None

    @property
    def live(self) -> bool:
        return self.command is not None


def adapter_dir() -> Path:
    """``adapters/jvm`` of the checkout: beside the data root, else in the working directory (a tox env
    whose kit is installed from a wheel still runs in the checkout)."""
    beside = data_root() / "adapters" / "jvm"
    here = Path.cwd() / "adapters" / "jvm"
    if not (beside / "pom.xml").is_file() and (here / "pom.xml").is_file():
        return here
    return beside


def build_dir(version: str) -> Path:
    return adapter_dir() / "target" / f"engine-{version}"


def check_version(version: str) -> str:
    if not _RELEASE.match(version):
        raise EngineVersionError(f"engine version {version!r} is not a release MAJOR.MINOR.PATCH (e.g. 0.12.0)")
    return version


def maven_reason(output: str, version: str) -> str:
    """One line saying why Maven failed, from its output (the engine's absence named as such)."""
    text = _ANSI.sub("", output)
    coordinate = f"{ENGINE_ARTIFACT}:jar:{version}"
    if coordinate in text and ("not found" in text or "Could not find artifact" in text):
        return (f"Maven could not resolve {ENGINE_ARTIFACT}:{version}: the repositories it reaches "
                "(Maven Central) do not serve it")
    errors = [line.strip() for line in _ERROR_LINE.findall(text) if line.strip()]
    detail = errors[0] if errors else (text.strip().splitlines() or ["no output"])[-1]
    return f"Maven could not build adapters/jvm for engine {version}: {detail[:300]}"


def command_for(directory: Path, java: str) -> tuple[str, ...]:
    classpath_file = directory / "classpath.txt"
    runtime = classpath_file.read_text(encoding="utf-8").strip()
    entries = [str(directory / "classes")] + ([runtime] if runtime else [])
    return (java, "-cp", ":".join(entries), MAIN_CLASS)


def java_command() -> str | None:
    """``$JAVA_HOME/bin/java`` when JAVA_HOME names a JDK (Maven uses the same), else ``java`` on PATH.

    An engine release compiled for a newer Java than the default one needs JAVA_HOME pointed at it (the
    adapter itself targets Java 17)."""
    home = os.environ.get("JAVA_HOME", "").strip()
    if home:
        candidate = Path(home) / "bin" / "java"
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return shutil.which("java")


def build(version: str = DEFAULT_ENGINE_VERSION, *, without_engine: bool = False,
          timeout: float = BUILD_TIMEOUT) -> EngineBuild:
    """Build the adapter for engine ``version`` (``without_engine``: the protocol layer alone)."""
    check_version(version)
    java, mvn = java_command(), shutil.which("mvn")
    if java is None or mvn is None:
        missing = " and ".join(name for name, path in (("java", java), ("mvn", mvn)) if path is None)
        return EngineBuild(version, None, f"{missing} not found on PATH")
    pom = adapter_dir() / "pom.xml"
    if not pom.is_file():
        return EngineBuild(version, None, f"{pom} does not exist (adapters/ ships in a checkout, not in the wheel)")
    directory = build_dir(version) if not without_engine else adapter_dir() / "target" / "protocol-only"
    argv = [mvn, "-B", "-q", "-f", str(pom), f"-Dengine.version={version}", f"-Dadapter.build={directory}"]
    if without_engine:
        argv.append("-Dengine.none")
    argv.append("package")
    try:
        done = subprocess.run(argv, capture_output=True, text=True, encoding="utf-8", errors="replace",
                              timeout=timeout, check=False, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return EngineBuild(version, None, f"Maven did not finish building adapters/jvm within {timeout:g} s")
    except OSError as exc:
        return EngineBuild(version, None, f"cannot run Maven ({mvn}): {os_error_reason(exc)}")
    if done.returncode != 0:
        return EngineBuild(version, None, maven_reason(done.stdout + "\n" + done.stderr, version))
    try:
        return EngineBuild(version, command_for(directory, java))
    except OSError as exc:
        return EngineBuild(version, None, f"Maven succeeded but wrote no classpath file: {os_error_reason(exc)}")
