"""Built-in bots think within the time a play task has: its games get a deadline (half the lease), search
bots share it out (tests/games/test_search_thinks_within_its_deadline.py), and a batch of their matches
plays what it can and gives back the rest, none failed."""

from __future__ import annotations

import time
from typing import Any

import pytest

from arena.matches import create_match
from arena.models import Match
from games.part_du_chef.bots.search import SearchBot
from results.batches import run_matches


@pytest.mark.django_db
def test_a_batch_of_search_bot_matches_gives_its_games_half_the_lease_and_none_fails(make_bots, settings, monkeypatch):
    # A lease of 6 s: the games' deadline is 3 s in, the task's soft limit 4.8 s; four default searches
    # unhurried take several seconds a game (about ten on a busy machine). How long the batch takes on
    # this machine is the benchmarks' to say; here, that every decision is asked against the deadline.
    settings.ARENA_MATCH_LEASE_SECONDS = 6.0
    settings.ARENA_CLAIM_BATCH = 3
    searchers = make_bots(4, engine="search", prefix="searcher")
    matches = [
        create_match(game="part-du-chef", kind="ranked", player_ids=[bot.id for bot in searchers], seed=seed)
        for seed in (1, 2, 3)
    ]
    asked: list[tuple[float | None, float]] = []
    real_act = SearchBot.act

    def act(self: SearchBot, observation: Any) -> Any:
        asked.append((self.deadline, time.monotonic()))
        return real_act(self, observation)

    monkeypatch.setattr(SearchBot, "act", act)

    began = time.monotonic()
    assert run_matches(matches[0].id) == "finished"

    # Every decision had the task's deadline: half the lease from when the task began, before it was asked.
    assert asked and all(deadline is not None for deadline, _ in asked)
    deadlines = {deadline for deadline, _ in asked}
    assert len(deadlines) == 1
    (deadline,) = deadlines
    assert began <= deadline - 6.0 * 0.5 <= min(at for _, at in asked)
    rows = Match.objects.filter(pk__in=[match.id for match in matches]).order_by("pk")
    # Played, or given back unplayed with their attempt (the batch's time was up): never failed.
    assert [(row.status, row.attempt, row.error) for row in rows][0] == ("finished", 1, "")
    assert all((row.status, row.error) in (("finished", ""), ("queued", "")) for row in rows)
    assert all(row.attempt == (1 if row.status == "finished" else 0) for row in rows)
