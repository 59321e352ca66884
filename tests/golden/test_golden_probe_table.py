"""``golden/probes.tsv`` in the training golden tool's format, and the provenance of the kit's vectors.

The training repository reads a probe table (``tests/fixtures/kcp13/probes.tsv``: header
``id<TAB>fen<TAB>tags<TAB>note``, tags space-separated) beside its goldens, and ties the newest golden to
it. The kit's table must list every probe it ships, in the order of its vector files; a file the kit
computed must say so while keeping every field the training ``load_golden`` reads.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from golden_testkit import RECORDED, ROOT

from contract import __version__
from contract.core import probetable
from contract.golden.validation import validate_files

TABLE = ROOT / "golden" / "probes.tsv"
VECTOR_FILES = sorted((ROOT / "golden" / "vectors").glob("*.json"))


def _load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def _schema(name: str) -> bytes | None:
    path = ROOT / name
    return path.read_bytes() if path.is_file() else None


def test_the_table_has_the_training_header_and_every_probe_in_order() -> None:
    lines = TABLE.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "id\tfen\ttags\tnote"
    probes = _load(ROOT / "golden" / "probes.json")["probes"]
    rows = [line.split("\t") for line in lines[1:]]
    assert all(len(row) == 4 for row in rows)
    assert [(r[0], r[1], r[2].split(" ") if r[2] else [], r[3]) for r in rows] == [
        (p["id"], p["fen"], p["tags"], p["note"]) for p in probes]


@pytest.mark.parametrize("path", VECTOR_FILES, ids=lambda p: p.stem)
def test_the_newest_golden_covers_every_committed_probe(path: Path) -> None:
    """The training test of the same name, for every vector file the kit ships."""
    ids = [line.split("\t")[0] for line in TABLE.read_text(encoding="utf-8").splitlines()[1:]]
    assert ids == [p["id"] for p in _load(path)["probes"]]


def test_the_table_validates_and_a_broken_one_is_named() -> None:
    good = TABLE.read_bytes()
    assert validate_files({"golden/probes.tsv": good}, _schema) == (1, [])
    header, first, *rest = good.decode("utf-8").split("\n")
    cases = {
        "line 2: 3 tab-separated fields, the header has 4": "\n".join([header, first.rsplit("\t", 1)[0], *rest]),
        "holds a carriage return": good.decode("utf-8").replace("\n", "\r\n", 1),
        "does not end with a newline": good.decode("utf-8")[:-1],
        "columns": "\n".join([header.replace("note", "comment"), first, *rest]),
        "rows/0/tags/1": "\n".join([header, first.replace("opening symmetric", "opening  symmetric"), *rest]),
        "rows/0/fen": "\n".join([header, first.replace(" w KQkq -", " white KQkq -"), *rest]),
    }
    for expected, text in cases.items():
        _, problems = validate_files({"golden/probes.tsv": text.encode("utf-8")}, _schema)
        assert problems and expected in problems[0], (expected, problems[:2])


def test_a_field_the_format_cannot_hold_is_refused() -> None:
    probe = {"id": "p", "fen": "4k3/8/8/8/8/8/8/4K3 w - -", "tags": ["a"], "note": "two\tcolumns"}
    with pytest.raises(ValueError, match="tab or a line break"):
        probetable.render([probe])
    with pytest.raises(ValueError, match="empty or holds a space"):
        probetable.render([{**probe, "note": "", "tags": ["a b"]}])


@pytest.mark.parametrize("path", VECTOR_FILES, ids=lambda p: p.stem)
def test_a_vector_file_the_kit_computed_says_so_and_stays_loadable(path: Path) -> None:
    corpus = _load(path)
    version = __version__
    assert corpus["provenance"]["computedBy"] == "dicechess-contract"
    assert corpus["provenance"]["computedByVersion"] == version
    assert corpus["generator"].startswith(f"dicechess-contract {version} ")
    assert "did not write this file" in corpus["provenance"]["engineVersion"]
    # what the training repository's load_golden reads (spec/features.md §12), all still there
    assert {"schema", "perspective", "columns", "engineVersion", "engineArtifact", "probes"} <= corpus.keys()
    assert corpus["engineArtifact"] == f"com.fortemate:dicechess-engine_3:{corpus['engineVersion']}"
    assert all({"id", "fen", "side", "features"} <= p.keys() for p in corpus["probes"])


def test_the_engines_recordings_carry_no_kit_provenance() -> None:
    for path in sorted(RECORDED.glob("*.engine-*.json")):
        assert "provenance" not in _load(path), path.name
