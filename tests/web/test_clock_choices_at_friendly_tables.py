"""Friendly tables are played with the clock their host chose (seconds a decision, and a bank); the lobby
and the table say it; what a decision takes beyond its seconds comes out of the bank; ranked tables keep
the documented clock."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone

from tests.web.browsing import people


def _client(player: Any) -> Client:
    client = Client()
    client.force_login(player.owner)
    return client


@pytest.mark.django_db
def test_a_friendly_table_plays_the_clock_its_host_chose_and_spends_the_bank(
    django_capture_on_commit_callbacks: Any,
) -> None:
    from play.engine import submit_action
    from play.models import FriendlyTable, LiveGame

    ann, ben = people("ann", "ben")
    host, guest = _client(ann), _client(ben)
    host.post("/play/", {"open": "1", "guests": "ben", "clock": "30+180"})
    table = FriendlyTable.objects.get()
    assert (table.turn_seconds, table.bank_seconds) == (30, 180)
    assert "30 s a decision + 3 min bank" in guest.get("/play/").content.decode()
    assert "Invitation from ann" in guest.get("/notices/").content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        guest.post("/play/", {"accept": str(table.id)})
    table.refresh_from_db()
    game = LiveGame.objects.get(pk=table.match_id)
    assert game.turn_seconds == 30 and game.bank_ms == [180000.0, 180000.0]
    assert game.deadline is not None
    # Seconds of the decision plus the whole bank, from the moment the turn came.
    assert timedelta(seconds=209) < game.deadline - game.updated_at <= timedelta(seconds=211)
    assert "Clock: 30 s a decision + 3 min bank" in host.get(f"/play/{game.match_id}/").content.decode()
    # Ann answers with 100 s left on her deadline: 80 s of her bank were spent.
    LiveGame.objects.filter(pk=game.pk).update(deadline=timezone.now() + timedelta(seconds=100))
    submit_action(game.match_id, ann, 0, {"type": "cut", "cuts": [0, 5], "marianne": None})
    game.refresh_from_db()
    assert 99000 <= game.bank_ms[0] <= 100000 and game.bank_ms[1] == 180000.0
    # Ben's turn: his seconds and his untouched bank.
    assert timedelta(seconds=209) < game.deadline - game.updated_at <= timedelta(seconds=211)


@pytest.mark.django_db
def test_an_unknown_clock_is_the_default_and_ranked_tables_keep_the_documented_clock() -> None:
    from arena.models import Match
    from play.engine import create_live_match
    from play.models import FriendlyTable, LiveGame

    ann, ben = people("ann", "ben")
    _client(ann).post("/play/", {"open": "1", "guests": "ben", "clock": "1"})
    assert (FriendlyTable.objects.get().turn_seconds, FriendlyTable.objects.get().bank_seconds) == (60, 0)
    match = create_live_match(game="part-du-chef", kind=Match.Kind.ARENA, players=[ann, ben], seed=29)
    game = LiveGame.objects.get(pk=match.pk)
    assert game.turn_seconds is None and game.bank_ms == [0.0, 0.0]
    assert game.deadline is not None
    seconds = (game.deadline - game.updated_at).total_seconds()
    assert abs(seconds - settings.ARENA_TURN_SECONDS) < 1
