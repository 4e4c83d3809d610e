"""Golden records for fixed seeds, like perft for chess: any change to the deal, the rules or the random bot shows."""

from __future__ import annotations

import json

import pytest

from games.part_du_chef import replay
from games.part_du_chef.record import discrepancies

from .golden.make_golden import GAMES, PATH, golden_game

RECORDS = [json.loads(line) for line in PATH.read_text().splitlines()]


def test_there_is_one_golden_record_per_fixed_game() -> None:
    assert len(RECORDS) == len(GAMES)
    assert [(len(r["players"]), r["seed"], r["options"]["marianne"]) for r in RECORDS] == [g[:3] for g in GAMES]


@pytest.mark.parametrize("index", range(len(GAMES)))
def test_each_golden_record_verifies(index: int) -> None:
    record = RECORDS[index]
    assert discrepancies(record) == []
    state = replay(record)
    assert [s.to_json() for s in state.scores()] == record["scores"]


@pytest.mark.parametrize("index", range(len(GAMES)))
def test_playing_the_fixed_game_again_writes_the_golden_record(index: int) -> None:
    assert golden_game(*GAMES[index]) == RECORDS[index]


def test_the_golden_games_exercise_steals_swaps_and_chilis() -> None:
    actions = [a for r in RECORDS for a in r["actions"]]
    assert any(a["type"] == "take" and a["steals"] for a in actions)
    assert any(a["marianne"] for a in actions)
    assert any(r["chili"] for r in RECORDS)
    assert any(a["type"] == "take" and a["eat"] for a in actions)
