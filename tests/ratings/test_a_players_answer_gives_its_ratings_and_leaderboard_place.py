"""`/api/players/` and `/api/players/{id}/`: each player's ratings, per game, with its rank and rank interval on
that game's leaderboard, the same as the leaderboard's own answer, from the index or the database alike."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from arena.models import Player
from ratings import buckets, leaderboard
from ratings.leaderboard import index
from ratings.models import Rating

GAME = "part-du-chef"
FIELDS = ("rating", "deviation", "interval", "rank", "rank_interval", "games", "provisional")


def _rate(player: Player, rating: float, games: int, deviation: float, idle_days: int = 0) -> None:
    rated_at = timezone.now() - timedelta(days=idle_days, hours=1)
    Rating.objects.create(
        player=player, game=GAME, kind=player.kind, rating=rating, games=games, deviation=deviation, rated_at=rated_at
    )
    buckets.move(GAME, [(player.kind, None, rating)])


@pytest.fixture
def field(db: None) -> list[Player]:
    """Seven rated players, bots and people, one tie, one idle for 40 days, one provisional."""
    specs = [
        ("ann", "human", 1710.0, 30, 70.0, 0),
        ("bob", "bot", 1650.5, 12, 88.0, 0),
        ("cid", "bot", 1600.0, 3, 300.0, 0),
        ("dee", "human", 1600.0, 25, 75.0, 40),  # tied with cid, who has the lower id; her deviation grew since
        ("eve", "bot", 1520.25, 9, 120.0, 0),
        ("fay", "human", 1480.0, 40, 60.0, 0),
        ("gus", "bot", 1300.0, 10, 90.0, 0),
    ]
    players = []
    for name, kind, rating, games, deviation, idle_days in specs:
        player = Player.objects.create(name=name, kind=kind, builtin="random" if kind == "bot" else "")
        _rate(player, rating, games, deviation, idle_days)
        players.append(player)
    return players


def _board_line(api: APIClient, player: Player) -> dict[str, object]:
    """The leaderboard's own answer for this player, in the fields a player's rating shows."""
    line = api.get(f"/api/leaderboards/{GAME}/players/{player.id}/").json()["player"]
    return {"game": GAME, **{name: line[name] for name in FIELDS}}


@pytest.mark.parametrize("backend", ["database", "index"])
def test_a_players_ratings_are_the_leaderboards_own_lines(field, backend) -> None:
    if backend == "index":
        index.rebuild(GAME)
    api = APIClient()
    for player in field:
        body = api.get(f"/api/players/{player.id}/").json()
        assert body["ratings"] == [_board_line(api, player)], player.name
    dee = api.get(f"/api/players/{field[3].id}/").json()["ratings"][0]
    assert dee["rank"] == 4 and dee["deviation"] > 75.0  # behind cid on the tie; grown by 40 idle days
    assert dee["rank_interval"][0] < 4 < dee["rank_interval"][1]
    line = leaderboard.rank(GAME, None, field[3].id)
    assert line is not None and (dee["rank"], dee["rank_interval"]) == (line.rank, list(line.rank_interval))


def test_a_player_without_a_rating_has_no_ratings_and_an_unknown_one_is_not_found(field) -> None:
    newcomer = Player.objects.create(name="hal", kind="human")
    api = APIClient()
    body = api.get(f"/api/players/{newcomer.id}/").json()
    assert body == {
        "id": newcomer.id,
        "name": "hal",
        "kind": "human",
        "builtin": "",
        "created_at": body["created_at"],
        "ratings": [],
    }
    assert api.get("/api/players/987654/").status_code == 404


def test_a_rating_the_board_does_not_show_yet_keeps_its_values_without_a_place(field) -> None:
    index.rebuild(GAME)
    # Written after the index was built and never applied to it (its commit has not come): not on the board yet.
    late = Player.objects.create(name="ivy", kind="bot", builtin="random")
    _rate(late, 1555.0, 11, 80.0)
    assert leaderboard.lines(GAME, None, [late.id]) == {}
    (rating,) = APIClient().get(f"/api/players/{late.id}/").json()["ratings"]
    assert rating["rating"] == 1555.0 and rating["games"] == 11 and rating["deviation"] == 80.0
    assert (rating["rank"], rating["rank_interval"]) == (None, None)


@pytest.mark.parametrize("backend", ["database", "index"])
def test_the_players_list_gives_every_players_ratings_with_one_leaderboard_lookup_per_page(field, backend) -> None:
    if backend == "index":
        index.rebuild(GAME)
    api = APIClient()

    def listed() -> tuple[dict[int, list[dict[str, object]]], int]:
        with CaptureQueriesContext(connection) as queries:
            body = api.get("/api/players/?kind=human").json()
        return {row["id"]: row["ratings"] for row in body["results"]}, len(queries)

    ratings, before = listed()
    assert ratings == {player.id: [_board_line(api, player)] for player in field if player.kind == "human"}
    # More than twice as many people on the page: not one query more. The page, its count, the players' rating rows, and
    # from the database the board's lines of the page's players and the counts above their intervals' ends
    # (none from the index).
    for number in range(4):
        _rate(Player.objects.create(name=f"new-{number}", kind="human"), 1400.0 + number, 10, 90.0)
    if backend == "index":
        index.rebuild(GAME)
    ratings, after = listed()
    assert len(ratings) == 7 and all(len(lines) == 1 and lines[0]["rank"] for lines in ratings.values())
    assert before == after == (5 if backend == "database" else 3)
