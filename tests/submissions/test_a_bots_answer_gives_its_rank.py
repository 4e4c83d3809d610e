"""`/api/bots/` and `/api/bots/{id}/`: beside its rating, a bot's rank and rank interval on its game's leaderboard,
the same as the leaderboard's own answer; null without a rating."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from arena.models import Player
from ratings import buckets, leaderboard
from ratings.leaderboard import index
from ratings.models import Rating
from submissions.models import BotVersion, SubmittedBot

GAME = "part-du-chef"


def _player(name: str, kind: str = "bot", owner: User | None = None) -> Player:
    return Player.objects.create(name=name, kind=kind, owner=owner, builtin="random" if owner is None else "")


def _rate(player: Player, rating: float, games: int = 20, deviation: float = 90.0) -> None:
    Rating.objects.create(player=player, game=GAME, kind=player.kind, rating=rating, games=games, deviation=deviation)
    buckets.move(GAME, [(player.kind, None, rating)])


def _bot(owner: User, name: str, rating: float | None) -> Player:
    player = _player(name, owner=owner)
    bot = SubmittedBot.objects.create(player=player, game=GAME)
    BotVersion.objects.create(bot=bot, number=1, source="upload", filename="bot.py", status="active")
    if rating is not None:
        _rate(player, rating)
    return player


@pytest.fixture
def owner(db: None) -> User:
    """Olga, and a board of others around where her bots will stand: people and bots, one tie."""
    for name, kind, rating in [("ann", "human", 1710.0), ("bob", "bot", 1650.0), ("cid", "human", 1560.0)]:
        _rate(_player(name, kind), rating)
    _rate(_player("dan"), 1400.0, games=4, deviation=300.0)
    return User.objects.create_user("olga")


def _api(user: User) -> APIClient:
    api = APIClient()
    api.force_authenticate(user)
    return api


def _board(player: Player) -> tuple[int, list[int]]:
    line = APIClient().get(f"/api/leaderboards/{GAME}/players/{player.id}/").json()["player"]
    return line["rank"], line["rank_interval"]


@pytest.mark.parametrize("backend", ["database", "index"])
def test_a_rated_bot_answers_its_rank_and_rank_interval_as_the_leaderboard_gives_them(owner, backend) -> None:
    bot = _bot(owner, "olga-bot", 1560.0)  # tied with cid, who has the lower id
    if backend == "index":
        index.rebuild(GAME)
    body = _api(owner).get(f"/api/bots/{bot.id}/").json()
    assert (body["rank"], body["rank_interval"]) == _board(bot)
    assert body["rank"] == 4 and body["rank_interval"][0] <= 2 and body["rank_interval"][1] == 5
    line = leaderboard.rank(GAME, None, bot.id)
    assert line is not None and (body["rank"], body["rank_interval"]) == (line.rank, list(line.rank_interval))
    # Its rating, beside them, as before.
    assert body["rating"]["rating"] == line.rating and body["rating"]["interval"] == list(line.interval)
    assert body["rating"]["games"] == line.games


def test_a_bot_without_a_rating_has_no_rank(owner) -> None:
    bot = _bot(owner, "olga-new", None)
    body = _api(owner).get(f"/api/bots/{bot.id}/").json()
    assert (body["rating"], body["rank"], body["rank_interval"]) == (None, None, None)
    assert APIClient().get(f"/api/leaderboards/{GAME}/players/{bot.id}/").status_code == 404


def test_a_renamed_or_retired_bot_answers_its_rank_too(owner) -> None:
    bot = _bot(owner, "olga-bot", 1800.0)
    api = _api(owner)
    renamed = api.patch(f"/api/bots/{bot.id}/", {"name": "olga-top"}, format="json").json()
    assert (renamed["name"], renamed["rank"], renamed["rank_interval"]) == ("olga-top", *_board(bot))
    retired = api.post(f"/api/bots/{bot.id}/retire/").json()
    assert (retired["rank"], retired["rank_interval"]) == _board(bot)


@pytest.mark.parametrize("backend", ["database", "index"])
def test_the_list_of_ones_bots_looks_the_page_up_on_the_leaderboard_once(owner, backend) -> None:
    api = _api(owner)
    first = _bot(owner, "olga-1", 1600.0)

    def listed() -> tuple[dict[int, tuple[int | None, list[int] | None]], int]:
        if backend == "index":
            index.rebuild(GAME)
        with CaptureQueriesContext(connection) as queries:
            body = api.get("/api/bots/").json()
        return {row["id"]: (row["rank"], row["rank_interval"]) for row in body["results"]}, len(queries)

    ranks, before = listed()
    assert ranks == {first.id: _board(first)}
    more = [_bot(owner, "olga-2", 1300.0), _bot(owner, "olga-3", 1720.0), _bot(owner, "olga-4", None)]
    ranks, after = listed()
    assert ranks == {
        first.id: _board(first),
        more[0].id: _board(more[0]),
        more[1].id: _board(more[1]),
        more[2].id: (None, None),
    }
    assert ranks[more[1].id][0] == 1
    # The page and its count, the bots' versions and rating rows, and from the database the board's lines of the
    # page's rated bots and the counts above their intervals' ends (none from the index): as many for four bots.
    assert before == after == (6 if backend == "database" else 4)
