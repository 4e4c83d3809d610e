"""Built-in bots think within the time a play task has: its games get a deadline (half the lease), search
bots share it out, and a batch of their matches ends before the task's soft time limit, none failed."""

from __future__ import annotations

import time

import pytest

from arena.matches import create_match
from arena.models import Match
from results.batches import run_matches


@pytest.mark.django_db
def test_a_batch_of_search_bot_matches_ends_before_the_tasks_soft_time_limit_and_none_fails(make_bots, settings):
    # A lease of 6 s: the games' deadline is 3 s in, the task's soft limit 4.8 s; four default searches
    # unhurried take several seconds a game (about ten on a busy machine).
    settings.ARENA_MATCH_LEASE_SECONDS = 6.0
    settings.ARENA_CLAIM_BATCH = 3
    searchers = make_bots(4, engine="search", prefix="searcher")
    matches = [
        create_match(game="part-du-chef", kind="ranked", player_ids=[bot.id for bot in searchers], seed=seed)
        for seed in (1, 2, 3)
    ]

    began = time.monotonic()
    assert run_matches(matches[0].id) == "finished"
    took = time.monotonic() - began

    assert took < 6.0 * 0.8, f"the batch took {took:.1f} s, past the task's soft time limit"
    rows = Match.objects.filter(pk__in=[match.id for match in matches]).order_by("pk")
    # Played, or given back unplayed with their attempt (the batch's time was up): never failed.
    assert [(row.status, row.attempt, row.error) for row in rows][0] == ("finished", 1, "")
    assert all((row.status, row.error) in (("finished", ""), ("queued", "")) for row in rows)
    assert all(row.attempt == (1 if row.status == "finished" else 0) for row in rows)
