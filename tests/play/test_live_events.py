"""The play actions publish what happened, and why, once their transaction commits: a decision and who
took it, a resignation, a table formed and over, a friendly table's invitation answered."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
import redis
from django.conf import settings
from django.core.cache import cache
from django.db import transaction

from arena.models import Match, MatchSeat, Player
from play import tables
from play.engine import create_live_match, play_turn, resign, submit_action
from play.events import player_channel, playing_key, table_channel
from play.models import LiveGame
from tests.play.conftest import cut


class Listener:
    """Reads a channel's stream from its newest event on, as a page connecting now would."""

    def __init__(self, channel: str) -> None:
        self.client = redis.Redis.from_url(settings.REDIS_URL)
        self.channel = channel
        newest = self.client.xrevrange(channel, count=1)
        self.last = newest[0][0] if newest else b"0-0"

    def next(self) -> dict[str, Any] | None:
        """The next event, or None when none comes within three seconds."""
        found = self.client.xread({self.channel: self.last}, count=1, block=3000)
        if not found:
            return None
        self.last, fields = found[0][1][0]
        return json.loads(fields[b"data"])  # type: ignore[no-any-return]  # JSON of our own events


@pytest.fixture
def listen() -> Iterator[Callable[[str], Listener]]:
    opened: list[Listener] = []

    def make(channel: str) -> Listener:
        opened.append(Listener(channel))
        return opened[-1]

    yield make
    for listener in opened:
        listener.client.close()


def _live(match_id: int) -> LiveGame:
    return LiveGame.objects.get(pk=match_id)


def test_each_decision_is_published_with_who_took_it_and_a_resignation_as_such(
    table: Any, listen: Any, django_capture_on_commit_callbacks: Any
) -> None:
    match = table("ann", "ben")
    ann, ben = (seat.player for seat in MatchSeat.objects.filter(match=match).order_by("seat"))
    events = listen(table_channel(match.id))
    with django_capture_on_commit_callbacks(execute=True):  # ann, the chef, lets her clock run out
        assert play_turn(match.id, 0, now=_live(match.id).deadline + timedelta(seconds=1)) == "played"
    assert events.next() == {"type": "turn", "match": match.id, "turn": 1, "over": False, "why": "clock"}
    with django_capture_on_commit_callbacks(execute=True):
        resign(match.id, ann)
    assert events.next() == {"type": "turn", "match": match.id, "turn": 1, "over": False, "why": "resigned"}
    with django_capture_on_commit_callbacks(execute=True):  # ben takes first, as the chef's left
        submit_action(match.id, ben, 1, {"type": "take", "portion": 0})
    assert events.next() == {"type": "turn", "match": match.id, "turn": 2, "over": False, "why": "seat"}
    with django_capture_on_commit_callbacks(execute=True):  # the chef's last portion: ann has left
        assert play_turn(match.id, 2) == "played"
    assert events.next() == {"type": "turn", "match": match.id, "turn": 3, "over": False, "why": "left"}
    assert _live(match.id).decided_by == ["clock", "seat", "left"]


def test_a_table_formed_takes_its_players_to_it_and_its_end_clears_the_people_headers(
    table: Any, listen: Any, person: Any, django_capture_on_commit_callbacks: Any
) -> None:
    ann = person("ann")
    lobby = listen(player_channel(ann.id))
    with django_capture_on_commit_callbacks(execute=True):
        match = table("bot:greedy", "ben")
    ben = MatchSeat.objects.get(match=match, seat=1).player
    assert cache.get(playing_key(ben.owner_id)) == match.id
    # ann is not seated there: the first event she is told is of the table she sits at, formed next.
    with django_capture_on_commit_callbacks(execute=True):
        hers = create_live_match(
            game="part-du-chef", kind=Match.Kind.FRIENDLY, players=[Player.objects.get(name="greedy"), ann]
        )
    told = lobby.next()
    assert told is not None and told["match"] == hers.id, told
    events = listen(table_channel(match.id))
    with django_capture_on_commit_callbacks(execute=True):
        resign(match.id, ben)
    assert events.next() == {"type": "turn", "match": match.id, "turn": 0, "over": False, "why": "resigned"}
    last = None
    while (game := _live(match.id)).to_act is not None:
        with django_capture_on_commit_callbacks(execute=True):
            assert play_turn(match.id, game.turn) == "played"
        last = events.next()
        assert last is not None and last["why"] == ("seat" if game.to_act == 0 else "left")
    assert last == {"type": "turn", "match": match.id, "turn": game.turn, "over": True, "why": last["why"]}
    assert cache.get(playing_key(ben.owner_id)) is None


def test_a_friendly_tables_invitation_answered_is_told_to_everyone_seated(
    person: Any, listen: Any, django_capture_on_commit_callbacks: Any
) -> None:
    ann, ben, cat = person("ann"), person("ben"), person("cat")
    inboxes = [listen(player_channel(player.id)) for player in (ann, ben, cat)]
    with django_capture_on_commit_callbacks(execute=True):
        first = tables.open_table(ann.owner, "part-du-chef", [ben.id, cat.id])
    assert [inbox.next() for inbox in inboxes] == [{"type": "lobby", "table": first.id, "why": "invited"}] * 3
    with django_capture_on_commit_callbacks(execute=True):
        tables.accept(ben.owner, first.id)
    assert [inbox.next() for inbox in inboxes] == [{"type": "lobby", "table": first.id, "why": "accepted"}] * 3
    with django_capture_on_commit_callbacks(execute=True):
        tables.decline(cat.owner, first.id)
    assert [inbox.next() for inbox in inboxes] == [{"type": "lobby", "table": first.id, "why": "declined"}] * 3
    with django_capture_on_commit_callbacks(execute=True):
        second = tables.open_table(ann.owner, "part-du-chef", [ben.id])
        tables.accept(ben.owner, second.id)
    match_id = tables.FriendlyTable.objects.get(pk=second.pk).match_id
    told = [inboxes[0].next() for _ in range(5)]
    # ann, seat 0, is the first chef: her turn is told as the table forms (play/notify.py).
    assert told == [
        {"type": "lobby", "table": second.id, "why": "invited"},
        {"type": "lobby", "table": second.id, "why": "accepted"},
        {"type": "your-turn", "match": match_id, "turn": 0},
        {"type": "table", "match": match_id},
        {"type": "lobby", "table": second.id, "why": "started"},
    ]


def test_an_action_rolled_back_publishes_nothing(
    table: Any, listen: Any, django_capture_on_commit_callbacks: Any
) -> None:
    match = table("ann", "ben")
    ann = MatchSeat.objects.get(match=match, seat=0).player
    events = listen(table_channel(match.id))
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(RuntimeError):
        with transaction.atomic():
            submit_action(match.id, ann, 0, cut([4, 9]))
            raise RuntimeError("the caller's transaction fails after the decision")
    assert _live(match.id).turn == 0 and _live(match.id).decided_by == []
    # Then ann resigns, committed: its event is the first the channel carries (events from one process
    # arrive in the order they were published), so the rolled back decision's was never sent.
    with django_capture_on_commit_callbacks(execute=True):
        resign(match.id, ann)
    assert events.next() == {"type": "turn", "match": match.id, "turn": 0, "over": False, "why": "resigned"}
