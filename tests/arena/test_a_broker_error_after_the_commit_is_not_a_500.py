"""A request whose rows are committed answers as applied even when the broker refuses the task sent on commit
(here: the broker URL points at a closed local port); the sweeper sends the lost message again.
Real commits (transactional_db): the sends on commit do run."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from celery import current_app
from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework.test import APIClient

from arena.builtin import ensure_builtin_bots
from arena.models import Match, Player
from arena.people import person_of
from play.models import FriendlyTable


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])  # closed again when the probe goes: nothing listens there


def _fresh_connections() -> None:
    """Drop the app's pooled broker connections, so that the next send connects to the configured URL."""
    current_app._pool = None
    current_app.amqp._producer_pool = None


@pytest.fixture
def broker_down(settings: Any) -> Iterator[str]:
    url = f"redis://127.0.0.1:{_closed_port()}/0"
    previous = current_app.conf.broker_url
    settings.CELERY_BROKER_URL = url
    current_app.conf.broker_url = url
    _fresh_connections()
    try:
        yield url
    finally:
        current_app.conf.broker_url = previous
        _fresh_connections()


@pytest.fixture
def ann(transactional_db: None) -> User:
    """Real commits (on-commit sends run), the built-in bots, and an account."""
    ensure_builtin_bots(Player)
    user = User.objects.create_user("ann")
    person_of(user)
    return user


def _client(user: User) -> APIClient:
    api = APIClient()
    api.force_authenticate(user)
    return api


def test_a_friendly_match_is_created_and_answered_201_with_the_broker_down(ann: User, broker_down: str) -> None:
    bots = [Player.objects.get(name=name) for name in ("greedy", "random")]
    answer = _client(ann).post(
        "/api/matches/", {"game": "part-du-chef", "kind": "friendly", "players": [b.id for b in bots]}, format="json"
    )
    assert answer.status_code == 201, answer.content
    match = Match.objects.get(pk=answer.json()["id"])
    assert match.status == Match.Status.QUEUED  # waiting for the sweeper's resend


def test_a_table_is_created_and_answered_201_with_the_broker_down(ann: User, broker_down: str) -> None:
    greedy = Player.objects.get(name="greedy")
    answer = _client(ann).post("/api/tables/", {"game": "part-du-chef", "guests": [greedy.id]}, format="json")
    assert answer.status_code == 201, answer.content
    assert answer["Content-Type"] == "application/json"
    assert FriendlyTable.objects.get(pk=answer.json()["id"]).status == FriendlyTable.Status.STARTED


def test_the_sweeper_resends_the_lost_message_once_the_broker_is_back(
    ann: User, broker_down: str, empty_queue: str, settings: Any
) -> None:
    import redis

    from arena.sweeper import sweep_stuck_matches

    bots = [Player.objects.get(name=name) for name in ("greedy", "random")]
    answer = _client(ann).post(
        "/api/matches/", {"game": "part-du-chef", "kind": "friendly", "players": [b.id for b in bots]}, format="json"
    )
    assert answer.status_code == 201
    queue = redis.Redis.from_url(settings.REDIS_URL)
    assert queue.llen(empty_queue) == 0  # the message was lost
    current_app.conf.broker_url = settings.REDIS_URL
    _fresh_connections()
    # Its resend deadline has passed (the sweeper's clock, without waiting for it).
    Match.objects.filter(pk=answer.json()["id"]).update(lease_expires_at=timezone.now() - timedelta(seconds=1))
    sweep_stuck_matches()
    assert queue.llen(empty_queue) == 1
