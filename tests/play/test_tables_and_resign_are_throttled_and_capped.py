"""Opening, accepting and declining tables, and resigning, have throttle scopes of their own; a host keeps
at most ARENA_MAX_OPEN_TABLES tables waiting or playing, past which a table is refused with a 409 naming the limit."""

from __future__ import annotations

from typing import Any

from rest_framework.throttling import ScopedRateThrottle

from tests.play.conftest import client_of


def _open(host: Any, guests: list[int]) -> Any:
    return client_of(host).post("/api/tables/", {"game": "part-du-chef", "guests": guests}, format="json")


def test_opening_tables_is_throttled_per_user(person: Any, monkeypatch: Any, settings: Any) -> None:
    monkeypatch.setitem(ScopedRateThrottle.THROTTLE_RATES, "table", "3/hour")
    settings.ARENA_MAX_OPEN_TABLES = 10
    ann, ben, cat = person("ann"), person("ben"), person("cat")
    assert [_open(ann, [ben.id]).status_code for _ in range(3)] == [201, 201, 201]
    refused = _open(ann, [ben.id])
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    # Per user: another host is not held back by ann's tables.
    assert _open(cat, [ben.id]).status_code == 201
    assert client_of(ann).get("/api/tables/").status_code == 200  # reading is not throttled


def test_resigning_is_throttled(person: Any, monkeypatch: Any) -> None:
    from arena.models import Match, Player
    from play.engine import create_live_match

    monkeypatch.setitem(ScopedRateThrottle.THROTTLE_RATES, "resign", "2/hour")
    ann, greedy = person("ann"), Player.objects.get(name="greedy")
    matches = [
        create_live_match(game="part-du-chef", kind=Match.Kind.FRIENDLY, players=[ann, greedy]) for _ in range(3)
    ]
    answers = [client_of(ann).post(f"/api/matches/{match.id}/resign/").status_code for match in matches]
    assert answers == [200, 200, 429]
    assert Match.objects.get(pk=matches[2].id).status == Match.Status.RUNNING


def test_a_host_keeps_a_bounded_number_of_open_tables(person: Any, settings: Any) -> None:
    from arena.models import Match, Player
    from play.engine import play_turn
    from play.models import LiveGame

    settings.ARENA_MAX_OPEN_TABLES = 2
    ann, ben = person("ann"), person("ben")
    waiting = [_open(ann, [ben.id]).json()["id"] for _ in range(2)]
    refused = _open(ann, [ben.id])
    assert refused.status_code == 409
    assert "ARENA_MAX_OPEN_TABLES=2" in refused.json()["detail"] and "you have 2 open" in refused.json()["detail"]
    # A table that starts at once with a bot still counts while its match plays.
    assert client_of(ann).post(f"/api/tables/{waiting[0]}/decline/").status_code == 200
    started = _open(ann, [Player.objects.get(name="greedy").id])
    assert started.status_code == 201 and started.json()["status"] == "started"
    assert _open(ann, [ben.id]).status_code == 409
    # Resigning leaves the match to the house, which still plays it: the table counts until the match is over.
    match_id = started.json()["match"]
    assert client_of(ann).post(f"/api/matches/{match_id}/resign/").status_code == 200
    assert _open(ann, [ben.id]).status_code == 409
    while (game := LiveGame.objects.get(pk=match_id)).to_act is not None:
        assert play_turn(match_id, game.turn, now=game.deadline) == "played"
    assert Match.objects.get(pk=match_id).status == Match.Status.FINISHED
    assert _open(ann, [ben.id]).status_code == 201
    # The cap is per host: ben opens his own.
    assert _open(ben, [ann.id]).status_code == 201
