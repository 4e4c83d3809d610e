"""Queued matches are re-sent sparingly: once per deadline, the deadline doubling, never while a backlog holds them."""

from __future__ import annotations

import logging
from datetime import timedelta

import pytest
import redis
from celery import current_app
from django.conf import settings
from django.utils import timezone

from arena.claims import dispatch_match
from arena.dispatch import queue_of
from arena.matches import create_match
from arena.models import Match, Player
from arena.sweeper import sweep_stuck_matches
from common.task_names import TaskName
from tests.support import wait_until


def _expire(*match_ids: int) -> None:
    Match.objects.filter(pk__in=match_ids).update(lease_expires_at=timezone.now() - timedelta(seconds=1))


def _bots_match(make_bots) -> Match:
    players = make_bots(2)
    return create_match(game="part-du-chef", kind="friendly", player_ids=[p.id for p in players], seed=5)


def _submitted_bots_match(make_bots) -> Match:
    """A match with its own message: one of its seats is no built-in bot (turned into one once queued)."""
    match = _bots_match(make_bots)
    Player.objects.filter(pk=match.seats.first().player_id).update(builtin="")
    dispatch_match(match.id)  # the message such a match is sent when queued (arena.matches.create_match)
    return match


@pytest.mark.django_db
def test_each_resend_of_a_lost_message_doubles_the_next_deadline(make_bots, empty_queue) -> None:
    match = _submitted_bots_match(make_bots)
    interval = float(settings.ARENA_QUEUED_RESEND_SECONDS)
    waits = []
    for expected_resends in (1, 2, 3):
        _expire(match.id)
        before = timezone.now()
        assert sweep_stuck_matches()["resent"] == 1
        assert sweep_stuck_matches()["resent"] == 0  # once per deadline, however often one sweeps
        match.refresh_from_db()
        assert match.resends == expected_resends
        waits.append((match.lease_expires_at - before).total_seconds())
    assert [round(wait / interval) for wait in waits] == [2, 4, 8]


@pytest.mark.django_db(transaction=True)
def test_matches_waiting_behind_a_backlog_are_not_sent_twice(make_bots, empty_queue) -> None:
    matches = [_bots_match(make_bots) for _ in range(3)]  # committed: their offer of work waits in the broker
    _expire(*(match.id for match in matches))
    assert sweep_stuck_matches() == {"retried": 0, "failed": 0, "resent": 0, "deferred": 3}
    assert set(Match.objects.filter(pk__in=[m.id for m in matches]).values_list("resends", flat=True)) == {0}


@pytest.mark.django_db(transaction=True)
def test_only_as_many_matches_as_have_no_message_are_sent_again(make_bots, empty_queue) -> None:
    matches = [_submitted_bots_match(make_bots) for _ in range(3)]
    client = redis.Redis.from_url(settings.REDIS_URL)
    try:
        client.delete(empty_queue)
        for match in matches:
            client.rpush(empty_queue, str(match.id))  # the three messages, standing in for the real ones
        client.rpop(empty_queue)  # a worker died holding one of the three messages
    finally:
        client.close()
    _expire(*(match.id for match in matches))
    counts = sweep_stuck_matches()
    assert (counts["resent"], counts["deferred"]) == (1, 2)
    assert sorted(Match.objects.filter(pk__in=[m.id for m in matches]).values_list("resends", flat=True)) == [0, 0, 1]


@pytest.mark.django_db(transaction=True)
def test_built_in_bot_matches_whose_offer_of_work_was_lost_are_offered_again_in_one_message(
    make_bots, empty_queue
) -> None:
    matches = [_bots_match(make_bots) for _ in range(3)]
    client = redis.Redis.from_url(settings.REDIS_URL)
    try:
        assert client.llen(empty_queue) == 1  # one offer of work for the three
        _expire(*(match.id for match in matches))
        assert sweep_stuck_matches()["deferred"] == 3  # it still waits in the broker
        client.rpop(empty_queue)  # a worker died holding it
        assert sweep_stuck_matches() == {"retried": 0, "failed": 0, "resent": 3, "deferred": 0}
        assert client.llen(empty_queue) == 1  # offered again, one message for them all
        assert sweep_stuck_matches()["resent"] == 0  # their deadlines doubled, as any resend's
    finally:
        client.close()
    assert set(Match.objects.filter(pk__in=[m.id for m in matches]).values_list("resends", flat=True)) == {1}


@pytest.mark.django_db
def test_the_sweeper_says_what_it_did_in_a_log_line(make_bots, empty_queue, caplog) -> None:
    match = _bots_match(make_bots)
    _expire(match.id)
    with caplog.at_level(logging.INFO, logger="arena.sweeper"):
        sweep_stuck_matches()
    assert "match sweep: retried 0, failed 0, resent 1, deferred 0" in caplog.text


def test_periodic_tasks_wait_on_a_queue_of_their_own_that_workers_consume() -> None:
    # As a process started with ARENA_QUEUE derives them (this test run changed the live values).
    play, periodic = (queue.name for queue in settings.CELERY_TASK_QUEUES)
    assert periodic != play
    assert periodic == f"{play}-periodic"
    # The routes name this run's own periodic queue (tests/conftest.py), as a worker's name its own.
    routes = settings.CELERY_TASK_ROUTES
    live = settings.ARENA_PERIODIC_QUEUE
    assert {routes[entry["task"]]["queue"] for entry in settings.CELERY_BEAT_SCHEDULE.values()} == {live}
    assert routes[TaskName.REBUILD_LEADERBOARD]["queue"] == live
    # A tick not taken within its interval expires: ticks never pile up while no worker runs.
    assert all(entry["options"]["expires"] == entry["schedule"] for entry in settings.CELERY_BEAT_SCHEDULE.values())
    # Sent by the service itself (arena.dispatch), they go to the queue read at send time.
    assert queue_of(TaskName.SWEEP_STUCK_MATCHES) == live
    assert queue_of(TaskName.PLAY_MATCH) == settings.CELERY_TASK_DEFAULT_QUEUE


@pytest.mark.system
def test_a_worker_consumes_the_periodic_queue_and_its_sweep_brings_a_lost_match_back(workers, make_bots) -> None:
    players = make_bots(2)
    match = create_match(game="part-du-chef", kind="ranked", player_ids=[p.id for p in players], seed=8)
    Match.objects.filter(pk=match.id).update(
        status=Match.Status.RUNNING, attempt=1, lease_expires_at=timezone.now() - timedelta(seconds=1)
    )
    client = redis.Redis.from_url(settings.REDIS_URL)
    client.delete(workers.queue)  # its worker died: the play message is gone, only the sweep brings it back
    periodic = f"{workers.queue}-periodic"  # what a worker started with ARENA_QUEUE derives
    current_app.send_task("arena.sweep_stuck_matches", queue=periodic)
    workers.start("both-queues")
    wait_until(
        lambda: Match.objects.get(pk=match.id).status == Match.Status.FINISHED,
        90,
        "the sweep from the periodic queue to requeue the match and a worker to play it",
        workers.tail(),
    )
    assert Match.objects.get(pk=match.id).attempt == 2
    client.delete(periodic)
    client.close()
