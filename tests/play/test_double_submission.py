"""The same decision sent twice, one after the other or at the same time, is applied once."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection

from arena.models import MatchSeat
from play.models import LiveGame
from tests.play.conftest import client_of, cut, post_action


def test_the_same_turn_sent_twice_is_applied_once(table: Any) -> None:
    match = table("ann", "ben", "cat")
    ann = client_of(MatchSeat.objects.get(match=match, seat=0).player)
    first = post_action(ann, match.id, 0, cut([0, 4, 8]))
    second = post_action(ann, match.id, 0, cut([0, 4, 8]))
    assert first.status_code == 200 and first.json()["turn"] == 1
    assert second.status_code == 409
    assert second.json()["detail"] == "turn 0 has already been played; the game is at turn 1"
    game = LiveGame.objects.get(pk=match.pk)
    assert game.turn == 1 and len(game.record["actions"]) == 1


@pytest.mark.django_db(transaction=True)
def test_the_same_turn_sent_at_the_same_time_is_applied_once(table: Any) -> None:
    match = table("ann", "ben", "cat")
    player = MatchSeat.objects.get(match=match, seat=0).player
    statuses: list[int] = []
    start = threading.Barrier(4)

    def send(points: list[int]) -> None:
        try:
            client = client_of(player)
            start.wait()
            statuses.append(post_action(client, match.id, 0, cut(points)).status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=([0, 4, 8 + i],)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [200, 409, 409, 409]
    game = LiveGame.objects.get(pk=match.pk)
    assert game.turn == 1 and len(game.record["actions"]) == 1
