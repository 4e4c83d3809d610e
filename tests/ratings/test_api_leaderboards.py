"""Leaderboards, a player's standing and rating history through the API."""

from __future__ import annotations

import pytest
from django.db.models import Count
from django.db.models.functions import Floor
from rest_framework.test import APIClient

from arena.matches import create_match
from arena.models import Player
from ratings import buckets, leaderboard
from ratings.leaderboard import sql
from ratings.models import Rating, RatingBucket
from results.batches import run_match

GAME = "part-du-chef"


@pytest.fixture
def field(db: None) -> list[Player]:
    """Eight rated players: bots and humans, one tie, some provisional."""
    specs = [
        ("ann", "human", 1710.0, 30),
        ("bob", "bot", 1650.5, 12),
        ("cid", "bot", 1600.0, 3),
        ("dee", "human", 1600.0, 25),  # tied with cid; cid has the lower id, so ranks first
        ("eve", "bot", 1520.25, 9),
        ("fay", "human", 1480.0, 40),
        ("gus", "bot", 1300.0, 10),
        ("hal", "human", 990.0, 11),
    ]
    players = []
    for name, kind, rating, games in specs:
        player = Player.objects.create(name=name, kind=kind, builtin="random" if kind == "bot" else "")
        deviation = 300.0 if games < 10 else 100.0 - games
        Rating.objects.create(player=player, game=GAME, kind=kind, rating=rating, games=games, deviation=deviation)
        buckets.move(GAME, [(kind, None, rating)])
        players.append(player)
    return players


def test_the_leaderboard_lists_best_first_with_ranks(field, django_assert_num_queries) -> None:
    # The size from the histogram, the page's keys, its rows, the counts above both ends of every interval.
    with django_assert_num_queries(4):
        body = APIClient().get(f"/api/leaderboards/{GAME}/").json()
    assert body["count"] == 8 and body["next"] is None and body["previous"] is None
    rows = body["results"]
    assert [r["player"]["name"] for r in rows] == ["ann", "bob", "cid", "dee", "eve", "fay", "gus", "hal"]
    assert [r["rank"] for r in rows] == list(range(1, 9))
    assert rows[0] == {
        "rank": 1,
        "player": {"id": field[0].id, "name": "ann", "kind": "human"},
        "rating": 1710.0,
        "deviation": 70.0,
        "interval": [round(1710.0 - 1.959964 * 70, 4), round(1710.0 + 1.959964 * 70, 4)],
        "rank_interval": [1, 4],  # bob, cid and dee (1650.5, 1600, 1600) are above its low end
        "games": 30,
        "provisional": False,
    }
    assert [r["provisional"] for r in rows] == [False, False, True, False, True, False, False, False]


def test_the_leaderboard_pages_and_filters_by_kind(field) -> None:
    api = APIClient()
    first = api.get(f"/api/leaderboards/{GAME}/?page_size=3").json()
    assert [r["rank"] for r in first["results"]] == [1, 2, 3]
    second = api.get(first["next"]).json()
    assert [r["player"]["name"] for r in second["results"]] == ["dee", "eve", "fay"]
    assert [r["rank"] for r in second["results"]] == [4, 5, 6]
    assert api.get(second["previous"]).json() == first
    bots = api.get(f"/api/leaderboards/{GAME}/?kind=bot").json()
    assert [(r["rank"], r["player"]["name"]) for r in bots["results"]] == [
        (1, "bob"),
        (2, "cid"),
        (3, "eve"),
        (4, "gus"),
    ]
    assert bots["count"] == 4


def test_a_players_standing_shows_rank_and_neighbours(field, django_assert_max_num_queries) -> None:
    with django_assert_max_num_queries(8):
        body = APIClient().get(f"/api/leaderboards/{GAME}/players/{field[3].id}/").json()
    assert body["player"]["rank"] == 4 and body["player"]["player"]["name"] == "dee"
    assert [(r["rank"], r["player"]["name"]) for r in body["above"]] == [(1, "ann"), (2, "bob"), (3, "cid")]
    assert [(r["rank"], r["player"]["name"]) for r in body["below"]] == [(5, "eve"), (6, "fay"), (7, "gus"), (8, "hal")]
    tied = APIClient().get(f"/api/leaderboards/{GAME}/players/{field[2].id}/").json()
    assert tied["player"]["rank"] == 3
    assert tied["below"][0]["player"]["name"] == "dee"
    among_humans = APIClient().get(f"/api/leaderboards/{GAME}/players/{field[3].id}/?kind=human").json()
    assert among_humans["player"]["rank"] == 2
    assert [r["player"]["name"] for r in among_humans["above"]] == ["ann"]


def test_the_rank_is_one_plus_the_players_ahead(field) -> None:
    for expected_rank, player in enumerate(field, start=1):
        line = leaderboard.rank(GAME, None, player.id)
        assert line is not None and line.rank == expected_rank


def test_rating_history_follows_each_rated_match(make_bots) -> None:
    a, b = make_bots(2)
    for seed in range(3):
        run_match(create_match(game=GAME, kind="ranked", player_ids=[a.id, b.id], seed=seed).id)
    run_match(create_match(game=GAME, kind="friendly", player_ids=[a.id, b.id]).id)
    body = APIClient().get(f"/api/players/{a.id}/ratings/{GAME}/").json()
    history = body["results"]
    assert body["count"] == 3
    assert history[0]["before"] == 1500.0
    assert [h["games_before"] for h in history] == [0, 1, 2]
    for earlier, later in zip(history, history[1:], strict=False):
        assert later["before"] == earlier["after"]
    assert history[-1]["after"] == Rating.objects.get(player=a).rating
    assert all(h["finished_at"] for h in history)


def test_deep_pages_jump_through_the_histogram_to_the_same_rows(field, monkeypatch) -> None:
    direct = [(rank, row.player_id) for rank, row in sql.page(GAME, None, 3, 3)]
    monkeypatch.setattr(sql, "DIRECT_OFFSET", 0)
    assert [(rank, row.player_id) for rank, row in sql.page(GAME, None, 3, 3)] == direct
    assert [row.player.name for _, row in sql.page(GAME, "human", 2, 2)] == ["fay", "hal"]


def test_the_histogram_follows_every_rated_match(make_bots) -> None:
    players = make_bots(5)
    for seed in range(12):
        seated = players[seed % 5 :] + players[: seed % 5]
        run_match(create_match(game=GAME, kind="ranked", player_ids=[p.id for p in seated[:3]], seed=seed).id)
    expected = {
        (row["kind"], int(row["b"])): row["n"]
        for row in Rating.objects.annotate(b=Floor("rating")).values("kind", "b").annotate(n=Count("id"))
    }
    stored = {(b.kind, b.bucket): b.count for b in RatingBucket.objects.all() if b.count}
    assert stored == expected
    for row in Rating.objects.all():
        line = leaderboard.rank(GAME, None, row.player_id)
        assert line is not None and line.rank == 1 + sum(
            1 for other in Rating.objects.all() if (-other.rating, other.player_id) < (-row.rating, row.player_id)
        )
