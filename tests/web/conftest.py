"""Fixtures for page tests: players with ratings, a finished rated match of people, and for the browser
tests Debian's Chromium (one per test module) and the site served under ASGI."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User

from arena.models import Match, Player
from arena.people import person_of
from play.engine import create_live_match, play_turn
from play.models import LiveGame
from tests.web.asgi import site_with_house_bots
from tests.web.browsing import chromium


@pytest.fixture
def finished_match(db: None) -> Any:
    """A rated 3-player match of two people and a house bot, played to the end through the play table."""

    people = [person_of(User.objects.create_user(name, password="a-long-passphrase")) for name in ("ann", "ben")]
    match = create_live_match(
        game="part-du-chef",
        kind=Match.Kind.ARENA,
        players=[*people, Player.objects.get(name="greedy")],
        seed=29,
        options={"marianne": True},
    )
    # Everyone's clock runs out: the house plays every decision, as it would for absent people.
    while (game := LiveGame.objects.get(pk=match.pk)).to_act is not None:
        later = game.deadline if game.deadline is not None else None
        assert play_turn(match.id, game.turn, now=later) == "played"
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


@pytest.fixture
def site(transactional_db: None, monkeypatch: Any) -> Iterator[str]:
    with site_with_house_bots(monkeypatch) as base:
        yield base
