"""DFEN is explained where a command reads it (issue #35, newcomer item: DFEN never explained in help): the
``--help`` of ``extract`` and ``enrich-shards`` carries the sentence (naming no file: a wheel has no docs/), its
example is a DFEN the kit reads and writes back unchanged, and the checkout's docs/features.md has a DFEN section."""

from __future__ import annotations

import pytest

from contract.cli import main
from contract.cli.dfen import DFEN_EXAMPLE
from contract.core.resources import data_root
from contract.features.dfen import parse_fen, to_fen


@pytest.mark.parametrize("command", ["extract", "enrich-shards"])
def test_the_help_of_a_command_reading_dfen_explains_it(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main([command, "--help"])
    assert done.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "DFEN is dice-chess FEN:" in text and "dice pool" in text
    assert DFEN_EXAMPLE in text


def test_the_example_is_a_dfen_with_a_dice_pool_that_reads_back_unchanged() -> None:
    assert len(DFEN_EXAMPLE.split(" ")) == 7
    assert to_fen(parse_fen(DFEN_EXAMPLE)) == DFEN_EXAMPLE


def test_docs_features_has_the_dfen_section() -> None:
    docs = data_root() / "docs" / "features.md"
    if not docs.is_file():
        pytest.skip("an installed kit without its docs")
    assert "\n## DFEN\n" in docs.read_text(encoding="utf-8")
