"""The kit's twins are the engine's ``colorFlip`` serialized, and where the training ``twin_fen`` differs.

spec/domain.md §8: ``colorFlip`` gives square *i* the piece of square *i* XOR 56 with its colour swapped,
swaps the side to move and the K/Q rights with k/q, mirrors every en-passant square vertically, and keeps
the dice pool and the clocks. §2.1 says how a position is serialized: castling in ``KQkq`` order,
en-passant squares in ascending square-index order, the dice sorted by face and upper case when White is
to move, lower case otherwise. The oracle below works on squares, written from those two sections only.

The training repository's ``twin_fen`` works on the FEN text; its answers for every probe were recorded
live (``golden/recorded/training-twin-fen.json``). It agrees on all but three probes, each a limitation
of the text-level helper, listed in docs/golden.md.
"""

from __future__ import annotations

import json
from typing import Any

from golden_testkit import RECORDED, ROOT

FACES = "PNBRQK"  # die faces in ascending order
TRAINING_TWIN_FEN = RECORDED / "training-twin-fen.json"
# probe -> why the training twin_fen gives another text (docs/golden.md, "Twins")
TWIN_FEN_DIFFERS = {
    "ep-two-targets-w": "twin_fen keeps only the first of several en-passant squares",
    "ep-both-ranks-w": "twin_fen keeps only the first of several en-passant squares",
    "start-w-dice": "twin_fen copies the dice field unchanged; the engine writes the pool lower case for Black",
}


def _square(name: str) -> int:
    return (int(name[1]) - 1) * 8 + "abcdefgh".index(name[0])


def _name(index: int) -> str:
    return "abcdefgh"[index % 8] + str(index // 8 + 1)


def _board(placement: str) -> list[str]:
    board = [""] * 64
    for row, rank in enumerate(placement.split("/")):  # the first rank written is rank 8
        file = 0
        for char in rank:
            if char.isdigit():
                file += int(char)
            else:
                board[(7 - row) * 8 + file] = char
                file += 1
    return board


def _placement(board: list[str]) -> str:
    ranks = []
    for rank in range(7, -1, -1):
        text, empty = "", 0
        for file in range(8):
            piece = board[rank * 8 + file]
            if piece:
                text += (str(empty) if empty else "") + piece
                empty = 0
            else:
                empty += 1
        ranks.append(text + (str(empty) if empty else ""))
    return "/".join(ranks)


def color_flip(fen: str) -> str:
    """The engine's colorFlip of ``fen``, serialized with as many fields as ``fen`` has."""
    fields = fen.split(" ")
    board = _board(fields[0])
    flipped = [board[index ^ 56].swapcase() for index in range(64)]
    side = "b" if fields[1] == "w" else "w"
    rights = {right.swapcase() for right in fields[2] if right != "-"}
    castling = "".join(right for right in "KQkq" if right in rights) or "-"
    squares = sorted(_square(fields[3][i:i + 2]) ^ 56 for i in range(0, len(fields[3]), 2)) if fields[3] != "-" else []
    ep = "".join(_name(index) for index in squares) or "-"
    out = [_placement(flipped), side, castling, ep, *fields[4:6]]
    if len(fields) == 7:
        dice = "".join(sorted(fields[6].upper(), key=FACES.index))
        out.append(dice if side == "w" else dice.lower())
    return " ".join(out)


def _probes() -> dict[str, dict[str, Any]]:
    probes = json.loads((ROOT / "golden" / "probes.json").read_text(encoding="utf-8"))["probes"]
    return {probe["id"]: probe for probe in probes}


def test_the_oracle_is_an_involution_on_every_probe() -> None:
    for probe in _probes().values():
        assert color_flip(color_flip(probe["fen"])) == probe["fen"], probe["id"]


def test_every_twin_is_the_engines_color_flip_serialized() -> None:
    probes = _probes()
    twins = [probe for probe in probes.values() if probe["id"].endswith("-twin")]
    assert twins  # test_golden_probes checks that every original has its twin
    for twin in twins:
        assert twin["fen"] == color_flip(probes[twin["twinOf"]]["fen"]), twin["id"]


def test_the_training_twin_fen_differs_on_exactly_the_listed_probes() -> None:
    recorded = json.loads(TRAINING_TWIN_FEN.read_text(encoding="utf-8"))
    assert recorded["recordedBy"]["commit"] == "42eb5994954f69e75e113a2a9497a8b192591621"
    probes = _probes()
    cases = {case["probe"]: case for case in recorded["cases"]}
    # recorded before the engine-newest edge probes were added (2026-12-04): every other probe with a twin
    edge_probes = {p["id"] for p in probes.values() if p["origin"].startswith("edge position of the newest")}
    assert edge_probes == {"ep-occupied-b", "halfmove-127-w", "one-king-castle-both-w"}
    assert set(cases) == {twin["twinOf"] for twin in probes.values() if twin["id"].endswith("-twin")} - edge_probes
    differs = {}
    for probe_id, case in cases.items():
        assert case["fen"] == probes[probe_id]["fen"], probe_id
        kit = probes[probe_id + "-twin"]["fen"]
        if case["twinFen"] != kit:
            differs[probe_id] = (case["twinFen"], kit)
    assert set(differs) == set(TWIN_FEN_DIFFERS)
    assert differs["ep-two-targets-w"] == ("4k3/8/8/8/2PpPp2/8/8/4K3 b - c3", "4k3/8/8/8/2PpPp2/8/8/4K3 b - c3e3")
    assert differs["ep-both-ranks-w"] == ("4k3/8/8/3Pp3/3pP3/8/8/4K3 b - e6", "4k3/8/8/3Pp3/3pP3/8/8/4K3 b - e3e6")
    assert differs["start-w-dice"] == ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1 RK",
                                       "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1 rk")
