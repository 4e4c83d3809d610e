"""The leaderboard order kept in Redis: exact against a full count, after real matches, ties and flushes."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.models import Q
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from arena.matches import create_match
from arena.models import Player
from ratings import buckets, leaderboard, ledger
from ratings.leaderboard import index
from ratings.models import Rating
from ratings.tasks import rebuild_leaderboard
from results.batches import run_match
from tests.support import wait_until

GAME = "part-du-chef"
KINDS = [None, "bot", "human"]


def _rate(player: Player, rating: float, games: int = 12) -> None:
    deviation = 350.0 if games == 0 else max(40.0, 350.0 / games**0.5)
    Rating.objects.create(player=player, game=GAME, kind=player.kind, rating=rating, games=games, deviation=deviation)
    buckets.move(GAME, [(player.kind, None, rating)])


@pytest.fixture
def tied_field(db: None) -> list[Player]:
    """Sixteen rated bots and eight people; two ratings are shared by bots and people."""
    players = []
    for i in range(24):
        kind = "bot" if i % 3 else "human"
        player = Player.objects.create(name=f"p-{i:02d}", kind=kind, builtin="random" if kind == "bot" else "")
        rating = 1512.5 if i in (1, 2, 3, 9) else 1400.0 if i in (5, 6) else 1300.0 + 17.25 * i
        _rate(player, rating, games=i)
        players.append(player)
    return players


def _expected_rank(row: Rating, kind: str | None) -> int:
    """One plus the players ahead: a higher rating, or the same rating and a lower player id."""
    ahead = Rating.objects.filter(game=GAME).filter(
        Q(rating__gt=row.rating) | Q(rating=row.rating, player_id__lt=row.player_id)
    )
    if kind:
        ahead = ahead.filter(kind=kind)
    return 1 + ahead.count()


def _query(kind: str | None) -> str:
    return f"&kind={kind}" if kind else ""


def _whole_board(api: APIClient, kind: str | None) -> list[tuple[int, int, float]]:
    lines: list[tuple[int, int, float]] = []
    url: str | None = f"/api/leaderboards/{GAME}/?page_size=7{_query(kind)}"
    while url:
        body = api.get(url).json()
        lines += [(line["rank"], line["player"]["id"], line["rating"]) for line in body["results"]]
        url = body["next"]
    return lines


def _assert_exact(api: APIClient) -> None:
    """Every page and every standing of every board agrees with COUNT(*) of the better ratings."""
    for kind in KINDS:
        rows = Rating.objects.filter(game=GAME, **({"kind": kind} if kind else {}))
        expected = sorted((_expected_rank(row, kind), row.player_id, row.rating) for row in rows)
        assert _whole_board(api, kind) == expected
        assert [rank for rank, _, _ in expected] == list(range(1, len(expected) + 1))
        by_rank = {rank: player_id for rank, player_id, _ in expected}
        for rank, player_id, _ in expected:
            body = api.get(f"/api/leaderboards/{GAME}/players/{player_id}/?{_query(kind)}").json()
            assert body["player"]["rank"] == rank and body["player"]["player"]["id"] == player_id
            assert [(line["rank"], line["player"]["id"]) for line in body["above"]] == [
                (r, by_rank[r]) for r in range(max(1, rank - 5), rank)
            ]
            assert [(line["rank"], line["player"]["id"]) for line in body["below"]] == [
                (r, by_rank[r]) for r in range(rank + 1, min(len(expected), rank + 5) + 1)
            ]


def test_pages_and_ranks_from_the_index_match_a_full_count_with_ties(tied_field) -> None:
    assert index.rebuild(GAME) == 24
    assert index.size(GAME, None) == 24
    _assert_exact(APIClient())


def test_the_index_and_the_database_give_the_same_answers(tied_field, django_assert_num_queries) -> None:
    api = APIClient()
    urls = [
        f"/api/leaderboards/{GAME}/",
        f"/api/leaderboards/{GAME}/?kind=human&page=2&page_size=3",
        f"/api/leaderboards/{GAME}/players/{tied_field[8].id}/",
        f"/api/leaderboards/{GAME}/players/{tied_field[3].id}/?kind=bot",
    ]
    from_sql = [api.get(url).json() for url in urls[:2]]
    standing_sql = [api.get(url) for url in urls[2:]]
    index.rebuild(GAME)
    with django_assert_num_queries(0):  # the order, the size and the lines all come from Redis
        first = api.get(urls[0]).json()
    with django_assert_num_queries(0):
        standing = api.get(urls[2]).json()
    assert [first, api.get(urls[1]).json()] == from_sql
    assert [standing, api.get(urls[3]).status_code] == [standing_sql[0].json(), standing_sql[1].status_code]
    assert standing_sql[1].status_code == 404  # p-03 is a person: not on the bots' board


def test_the_index_follows_real_committed_matches_around_tied_players(transactional_db, make_bots) -> None:
    idle = make_bots(4, prefix="idle")
    for player in idle:
        _rate(player, 1500.0, games=30)  # four players tied at the starting rating
    index.rebuild(GAME)
    active = make_bots(6)
    for seed in range(14):
        seated = active[seed % 6 :] + active[: seed % 6]
        match = create_match(game=GAME, kind="ranked", player_ids=[p.id for p in seated[: 2 + seed % 3]], seed=seed)
        assert run_match(match.id) == "finished"
    # Every committed change reached the index, newest last.
    client = index.client()
    assert client is not None
    for row in Rating.objects.filter(game=GAME):
        assert client.zscore(index.keys(GAME).all, index.member(row.player_id)) == -row.rating
    assert index.size(GAME, None) == 10
    _assert_exact(APIClient())


def test_changes_arriving_late_or_twice_leave_the_newest_rating(tied_field) -> None:
    index.rebuild(GAME)
    player = tied_field[5]
    now = timezone.now()

    def entry(rating: float, games: int, at: datetime) -> index.Entry:
        return index.Entry(player.id, player.kind, rating, games, 0, at, 80.0, at, player.name)

    assert index.apply(GAME, [entry(1900.0, 50, now)]) == 1
    assert index.apply(GAME, [entry(1900.0, 50, now)]) == 0  # the same change again
    assert index.apply(GAME, [entry(1100.0, 49, now + timedelta(seconds=1))]) == 0  # an older game, late
    assert index.apply(GAME, [entry(1100.0, 50, now - timedelta(seconds=1))]) == 0  # an older write
    assert index.rank(GAME, None, player.id) == 1
    assert index.rank(GAME, player.kind, player.id) == 1


def test_a_flushed_index_answers_from_the_database_and_asks_for_a_rebuild(
    tied_field, django_assert_num_queries
) -> None:
    api = APIClient()
    index.rebuild(GAME)
    indexed = api.get(f"/api/leaderboards/{GAME}/?page_size=5").json()
    index.forget(GAME)
    with django_assert_num_queries(4):  # the size from the histogram, the page's keys, its rows, the rank intervals
        assert api.get(f"/api/leaderboards/{GAME}/?page_size=5").json() == indexed
    client = index.client()
    assert client is not None and client.exists(index.keys(GAME).rebuild_requested)
    # Not ready: a change is left to the rebuild, which reads the database.
    row = Rating.objects.get(player=tied_field[0])
    assert index.apply(GAME, [index.Entry.of(row, "renamed")]) == -1
    assert rebuild_leaderboard.run(GAME) == 24
    assert not client.exists(index.keys(GAME).rebuild_requested)
    with django_assert_num_queries(0):
        assert api.get(f"/api/leaderboards/{GAME}/?page_size=5").json() == indexed


def test_the_rebuild_command_indexes_every_game_and_names_an_unknown_one(tied_field, capsys) -> None:
    call_command("rebuild_leaderboards")
    assert f"{GAME}: 24 rated players indexed" in capsys.readouterr().out
    assert index.size(GAME, "human") == 8 and index.size(GAME, "bot") == 16
    with pytest.raises(CommandError, match="unknown game 'chess'"):
        call_command("rebuild_leaderboards", "chess")


def test_bad_leaderboard_requests_are_named_on_the_index_path(tied_field) -> None:
    index.rebuild(GAME)
    api = APIClient()
    stranger = Player.objects.create(name="unrated", kind="bot")
    answers = {
        f"/api/leaderboards/{GAME}/?kind=wizard": (400, "kind must be one of"),
        f"/api/leaderboards/{GAME}/?page=0": (400, "page must be between 1 and"),
        f"/api/leaderboards/{GAME}/?page_size=x": (400, "page_size must be a positive integer"),
        f"/api/leaderboards/{GAME}/?page=5": (404, "page 5 is past the last page (1)"),
        f"/api/leaderboards/{GAME}/players/{stranger.id}/": (404, f"player {stranger.id} has no {GAME} rating"),
        f"/api/leaderboards/{GAME}/players/{tied_field[0].id}/?kind=bot": (404, "has no"),
        "/api/leaderboards/chess/": (404, "unknown game 'chess'"),
    }
    for url, (status, message) in answers.items():
        response = api.get(url)
        assert (url, response.status_code) == (url, status)
        assert message in str(response.json())


def test_a_provisional_reset_a_rename_and_an_edited_rating_reach_the_index_after_commit(
    transactional_db, make_bots
) -> None:
    veteran, other = make_bots(2)
    _rate(veteran, 1700.0, games=40)
    _rate(other, 1650.0, games=40)
    index.rebuild(GAME)
    api = APIClient()

    def first_line() -> dict[str, object]:
        return api.get(f"/api/leaderboards/{GAME}/").json()["results"][0]

    assert first_line()["provisional"] is False
    # What a new bot version does: the same rating, provisional again (submissions.actions).
    assert ledger.reset_provisional(veteran) == 1
    assert first_line()["provisional"] is True
    veteran.name = "veteran-2"
    veteran.save()
    assert first_line()["player"] == {"id": veteran.id, "name": "veteran-2", "kind": "bot"}
    edited = Rating.objects.get(player=other)
    edited.rating = 1800.0
    edited.save()  # as the admin does
    assert first_line()["player"]["id"] == other.id
    _assert_exact(api)


def test_the_web_leaderboard_and_profiles_read_the_index(tied_field, django_assert_num_queries) -> None:
    index.rebuild(GAME)
    web = Client()
    with django_assert_num_queries(0):  # the lines, the order and the size all come from Redis
        body = web.get(f"/leaderboard/{GAME}/?kind=human").content.decode()
    humans = Rating.objects.filter(game=GAME, kind="human").order_by("-rating", "player_id")
    names = [row.player.name for row in humans.select_related("player")]
    assert [body.index(f">{name}<") for name in names] == sorted(body.index(f">{name}<") for name in names)
    assert "8 rated players" in body
    third = Rating.objects.filter(game=GAME).order_by("-rating", "player_id")[2]
    line = leaderboard.rank(GAME, None, third.player_id)
    assert line is not None and line.rank == 3 == _expected_rank(third, None)


def test_a_reader_finding_no_index_has_it_rebuilt_by_a_worker(workers, make_bots, django_assert_num_queries) -> None:
    for rating, player in zip([1620.0, 1500.0, 1500.0], make_bots(3), strict=True):
        _rate(player, rating)
    api = APIClient()
    from_sql = api.get(f"/api/leaderboards/{GAME}/").json()  # asks for a rebuild once this commits
    workers.start("board")
    wait_until(lambda: index.size(GAME, None) == 3, 60, "the index rebuilt by the worker", workers.tail())
    with django_assert_num_queries(0):
        assert api.get(f"/api/leaderboards/{GAME}/").json() == from_sql


def test_a_change_whose_index_call_was_lost_is_applied_by_the_catch_up_sweep(tied_field) -> None:
    index.rebuild(GAME)
    assert index.catch_up() == 0  # the first sweep only sets its mark
    # A committed rating change that never reached the index (its worker died between the commit and
    # the call): written past every hook, as the process that wrote it never got to send it.
    moved = Rating.objects.get(player=tied_field[0])
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE ratings_rating SET rating = 1999.0, updated_at = clock_timestamp() WHERE id = %s", [moved.pk]
        )
    api = APIClient()
    top = api.get(f"/api/leaderboards/{GAME}/?page_size=1").json()["results"][0]
    assert top["player"]["id"] != moved.player_id  # the index is stale until the sweep

    assert index.catch_up() >= 1
    _assert_exact(api)
    assert api.get(f"/api/leaderboards/{GAME}/?page_size=1").json()["results"][0]["player"]["id"] == moved.player_id


def test_a_name_search_gives_the_same_lines_from_the_index_and_from_the_database(
    tied_field, django_assert_num_queries
) -> None:
    ids = [player.id for player in tied_field if player.name.endswith(("1", "3", "5"))]
    from_sql = {kind: leaderboard.search(GAME, kind, ids, 5) for kind in KINDS}
    index.rebuild(GAME)
    with django_assert_num_queries(0):
        from_index = {kind: leaderboard.search(GAME, kind, ids, 5) for kind in KINDS}
    assert from_index == from_sql
    for kind, lines in from_index.items():
        assert [line.rank for line in lines] == sorted(line.rank for line in lines)
        for line in lines:
            row = Rating.objects.get(game=GAME, player_id=line.player_id)
            assert line.rank == _expected_rank(row, kind)
            assert line.rank_interval[0] <= line.rank <= line.rank_interval[1]
