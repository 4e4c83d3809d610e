"""The people's arena queue: join, see one's place, leave; tables by rating, house bots after a wait."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from arena.models import ArenaEntry, Match, MatchSeat
from matchmaking import matchmaker
from play.engine import play_turn
from play.models import LiveGame
from ratings.models import Rating, RatingChange
from tests.play.conftest import client_of


def join(player: Any, size: int = 3) -> Any:
    return client_of(player).post("/api/arena/queue/", {"game": "part-du-chef", "table_size": size}, format="json")


def test_a_person_joins_sees_their_place_and_leaves(person: Any) -> None:
    ann, ben = person("ann"), person("ben")
    first = join(ann)
    assert first.status_code == 201
    assert first.json()["waiting"]["place"] == 1 and first.json()["match"] is None
    assert join(ben).json()["waiting"]["place"] == 2
    assert join(ann).status_code == 201  # joining again changes nothing
    left = client_of(ann).delete("/api/arena/queue/")
    assert left.status_code == 200 and left.json()["waiting"] is None
    assert client_of(ben).get("/api/arena/queue/").json()["waiting"]["place"] == 1


def test_joining_names_the_problem(person: Any) -> None:
    ann = person("ann")
    for body, message in [
        ({"game": "chess", "table_size": 3}, "unknown game 'chess'; available games: part-du-chef"),
        ({"game": "part-du-chef", "table_size": 6}, "La Part du Chef is played by 2 to 5 players, not 6"),
        ({"game": "part-du-chef", "table_size": "3"}, "table_size must be an integer"),
    ]:
        response = client_of(ann).post("/api/arena/queue/", body, format="json")
        assert response.status_code == 400 and response.json()["detail"] == message
    assert join(ann, 2).status_code == 201
    response = join(ann, 4)
    assert response.status_code == 400
    assert response.json()["detail"].startswith("you are already waiting for a 2-player table of part-du-chef")


def test_the_matchmaker_seats_people_close_in_rating_together(person: Any) -> None:
    people = [person(name) for name in ("ann", "ben", "cat", "dan")]
    for player, rating in zip(people, (1500, 1900, 1510, 1890), strict=True):
        Rating.objects.create(player=player, game="part-du-chef", kind="human", rating=rating)
        assert join(player, 2).status_code == 201
    created = matchmaker.tick()
    assert len(created) == 2
    tables = [sorted(MatchSeat.objects.filter(match_id=m).values_list("player__name", flat=True)) for m in created]
    assert sorted(tables) == [["ann", "cat"], ["ben", "dan"]]
    status = client_of(people[0]).get("/api/arena/queue/").json()
    assert status["waiting"] is None and status["match"] in created


def test_after_the_wait_house_bots_fill_the_empty_seats_and_the_game_is_rated(person: Any, settings: Any) -> None:
    settings.ARENA_HOUSE_AFTER_SECONDS_PEOPLE = 30
    ann, ben = person("ann"), person("ben")
    join(ann)
    join(ben)
    assert matchmaker.tick() == []  # two people for a table of three: they wait
    later = timezone.now() + timedelta(seconds=31)
    created = matchmaker.tick(now=later)
    assert len(created) == 1
    match = Match.objects.get(pk=created[0])
    seated = list(match.seats.select_related("player").order_by("seat"))
    assert match.kind == Match.Kind.ARENA and match.rated and match.status == Match.Status.RUNNING
    assert sorted(seat.player.kind for seat in seated) == ["bot", "human", "human"]
    bot = next(seat.player for seat in seated if seat.player.kind == "bot")
    assert bot.builtin in settings.ARENA_HOUSE_LADDER and bot.owner is None
    assert LiveGame.objects.filter(pk=match.pk).exists()
    assert not ArenaEntry.objects.filter(active=True).exists()
    # A seated person cannot queue again until the table is over.
    response = join(ann)
    assert response.status_code == 400 and response.json()["detail"].startswith(f"you are playing match {match.id}")


def test_a_lone_person_at_a_table_of_five_gets_four_house_bots(person: Any, settings: Any) -> None:
    settings.ARENA_HOUSE_AFTER_SECONDS_PEOPLE = 0
    join(person("ann"), 5)
    (match_id,) = matchmaker.tick()
    kinds = list(Match.objects.get(pk=match_id).seats.values_list("player__kind", flat=True))
    assert sorted(kinds) == ["bot"] * 4 + ["human"]


def test_people_and_bot_entries_are_never_seated_together(person: Any, make_bots: Any) -> None:
    bots = make_bots(2)
    for bot in bots:
        ArenaEntry.objects.create(player=bot, game="part-du-chef", table_size=2, waiting_since=timezone.now())
    join(person("ann"), 2)
    join(person("ben"), 2)
    created = matchmaker.tick()
    kinds = [set(Match.objects.get(pk=m).seats.values_list("player__kind", flat=True)) for m in created]
    assert sorted(sorted(k) for k in kinds) == [["bot"], ["human"]]


def test_a_ranked_game_of_people_and_a_house_bot_is_rated_exactly_once(person: Any, settings: Any) -> None:
    settings.ARENA_HOUSE_AFTER_SECONDS_PEOPLE = 0
    ann, ben = person("ann"), person("ben")
    join(ann)
    join(ben)
    (match_id,) = matchmaker.tick()
    clients = {seat.seat: client_of(seat.player) for seat in MatchSeat.objects.filter(match_id=match_id)}
    while True:
        game = LiveGame.objects.get(pk=match_id)
        if game.to_act is None:
            break
        seat = MatchSeat.objects.select_related("player").get(match_id=match_id, seat=game.to_act)
        if seat.player.kind == "bot":
            assert play_turn(match_id, game.turn) == "played"  # what the worker does
            continue
        legal = clients[game.to_act].get(f"/api/matches/{match_id}/state/").json()["legal"]
        action = (
            {"type": "cut", "cuts": [0, 4, 8]}
            if legal["phase"] == "cut"
            else {"type": "take", "portion": legal["portions"][0]["index"], "eat": legal["portions"][0]["edible"][:1]}
        )
        response = clients[game.to_act].post(
            f"/api/matches/{match_id}/actions/", {"turn": game.turn, "action": action}, format="json"
        )
        assert response.status_code == 200, response.content
    match = Match.objects.get(pk=match_id)
    assert match.status == Match.Status.FINISHED and match.record["scores"] is not None
    assert RatingChange.objects.filter(match=match).count() == 3
    assert Rating.objects.get(player=ann, game="part-du-chef").games == 1
    # Replaying the house's last decision again changes nothing.
    assert play_turn(match_id, LiveGame.objects.get(pk=match_id).turn - 1) == "stale"
    assert RatingChange.objects.filter(match=match).count() == 3
    final = clients[0].get(f"/api/matches/{match_id}/state/").json()
    assert final["status"] == "finished" and final["result"]["ranks"] == match.record["ranks"]


def test_resigning_makes_a_forfeiter_whose_seat_the_house_plays(
    table: Any, django_capture_on_commit_callbacks: Any
) -> None:
    match = table("ann", "ben")
    ann = client_of(MatchSeat.objects.get(match=match, seat=0).player)
    with django_capture_on_commit_callbacks() as callbacks:
        response = ann.post(f"/api/matches/{match.id}/resign/")
    assert response.status_code == 200
    assert response.json()["players"][0]["forfeited"] is True and response.json()["legal"] is None
    game = LiveGame.objects.get(pk=match.pk)
    assert game.out == [True, False] and game.deadline is None
    # The house's move for her seat, sent at once (the live update of the table is published beside it).
    assert [callback.__qualname__.split(".")[0] for callback in callbacks].count("send_on_commit") == 1


def test_without_house_bots_configured_people_wait_for_people(person: Any, settings: Any) -> None:
    settings.ARENA_HOUSE_AFTER_SECONDS_PEOPLE = 0
    settings.ARENA_HOUSE_LADDER = []
    ann = person("ann")
    join(ann)
    assert matchmaker.tick() == []
    assert client_of(ann).get("/api/arena/queue/").json()["waiting"]["place"] == 1


def test_the_rating_window_widens_with_waiting_until_far_apart_people_meet(person: Any, settings: Any) -> None:
    settings.ARENA_WINDOW_BASE = 100
    settings.ARENA_WINDOW_PER_SECOND = 25
    settings.ARENA_HOUSE_AFTER_SECONDS_PEOPLE = 3600
    ann, ben = person("ann"), person("ben")
    Rating.objects.create(player=ann, game="part-du-chef", kind="human", rating=1300)
    Rating.objects.create(player=ben, game="part-du-chef", kind="human", rating=1700)
    join(ann, 2)
    join(ben, 2)
    now = timezone.now()
    assert matchmaker.tick(now=now + timedelta(seconds=5)) == []  # window 225 < 400 apart
    assert len(matchmaker.tick(now=now + timedelta(seconds=13))) == 1  # window 425
