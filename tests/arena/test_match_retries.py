"""Stuck and failing matches: retried under a new attempt, failed after the third."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from arena.matches import create_match
from arena.models import Match, Player
from arena.sweeper import sweep_stuck_matches
from ratings.models import RatingChange
from results.batches import run_match
from tests.claims import claim_match


def _expire(match_id: int) -> None:
    Match.objects.filter(pk=match_id).update(lease_expires_at=timezone.now() - timedelta(seconds=1))


@pytest.fixture
def match(make_bots) -> Match:
    players = make_bots(2)
    return create_match(game="part-du-chef", kind="ranked", player_ids=[p.id for p in players], seed=3)


@pytest.mark.django_db
def test_a_running_match_inside_its_lease_is_left_alone(match: Match) -> None:
    claim_match(match.id)
    assert sweep_stuck_matches() == {"retried": 0, "failed": 0, "resent": 0, "deferred": 0}
    assert Match.objects.get(pk=match.id).status == "running"


@pytest.mark.django_db
def test_a_match_stuck_past_its_lease_is_queued_again_and_finishes(match: Match) -> None:
    assert claim_match(match.id) == 1
    _expire(match.id)
    assert sweep_stuck_matches()["retried"] == 1
    match.refresh_from_db()
    assert (match.status, match.attempt) == ("queued", 1)
    assert "worker stopped" in match.error
    assert run_match(match.id) == "finished"
    match.refresh_from_db()
    assert (match.status, match.attempt, match.error) == ("finished", 2, "")


@pytest.mark.django_db
def test_after_three_attempts_a_stuck_match_is_failed(match: Match) -> None:
    for attempt in (1, 2, 3):
        assert claim_match(match.id) == attempt
        _expire(match.id)
        if attempt < 3:
            assert sweep_stuck_matches()["retried"] == 1
    assert sweep_stuck_matches()["failed"] == 1
    match.refresh_from_db()
    assert match.status == "failed"
    assert "failed after 3 attempts" in match.error
    assert run_match(match.id) == "not claimed"
    assert not RatingChange.objects.exists()


@pytest.mark.django_db
def test_a_match_whose_bot_cannot_play_fails_after_three_attempts(match: Match) -> None:
    # A bot whose engine disappeared between the creation of the match and its play.
    Player.objects.filter(seats__match=match).update(builtin="vanished")
    outcomes = []
    for _ in range(3):
        outcomes.append(run_match(match.id))
    assert outcomes == ["error", "error", "error"]
    match.refresh_from_db()
    assert (match.status, match.attempt) == ("failed", 3)
    assert "has no playable version" in match.error
    assert set(match.seats.values_list("score", flat=True)) == {None}


@pytest.mark.django_db
def test_a_queued_match_whose_message_was_lost_is_sent_again_once_per_interval(match: Match, empty_queue) -> None:
    assert sweep_stuck_matches()["resent"] == 0
    _expire(match.id)
    assert sweep_stuck_matches()["resent"] == 1
    assert sweep_stuck_matches()["resent"] == 0


@pytest.mark.django_db
def test_a_duplicate_delivery_during_the_last_attempt_leaves_the_running_match_alone(match: Match) -> None:
    Match.objects.filter(pk=match.id).update(attempt=2)
    assert claim_match(match.id) == 3  # the last attempt, running inside its lease
    assert run_match(match.id) == "not claimed"  # a second copy of the message
    match.refresh_from_db()
    assert (match.status, match.attempt) == ("running", 3)
