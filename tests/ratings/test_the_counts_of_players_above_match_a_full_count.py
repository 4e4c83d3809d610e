"""The players ahead of a rating, counted by either backend in one call, equal a full count of the rows.

The index counts a page's rank intervals in the call that reads the page, from interval ends it works
out itself: they must be the ends ratings.elo gives, to the last bit.

The points fall below every bucket, above them all, on bucket edges, in gaps between buckets, beside a
bucket emptied by a player who moved away, and on tied ratings (with the players of a lower id ahead).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest
from django.db.models import Q
from django.utils import timezone

from arena.models import Player
from ratings import buckets, leaderboard
from ratings.elo import interval
from ratings.leaderboard import index, sql
from ratings.models import Rating, current_deviation

GAME = "part-du-chef"
RATINGS = [812.25, 1000.0, 1000.5, 1003.2, 1500.0, 1500.0, 1500.0, 1501.75, 1777.0, 2000.9, 2400.0]
POINTS = [-50.0, 500.0, 812.25, 999.99, 1000.0, 1000.25, 1003.0, 1200.7, 1500.0, 1500.5, 1777.0, 1990.0, 2400.0, 3000.0]


@pytest.fixture
def board(db: None) -> list[Player]:
    players = []
    for position, rating in enumerate(RATINGS):
        kind = "human" if position % 3 == 0 else "bot"
        player = Player.objects.create(name=f"r-{position}", kind=kind, builtin="" if kind == "human" else "random")
        Rating.objects.create(player=player, game=GAME, kind=kind, rating=rating, games=5, deviation=90.0)
        buckets.move(GAME, [(kind, None, rating)])
        players.append(player)
    # One player moves from 1777 to 1100: the 1777 bucket stays in the histogram with no one in it.
    moved = Rating.objects.get(player=players[8])
    buckets.move(GAME, [(moved.kind, moved.rating, 1100.0)])
    Rating.objects.filter(pk=moved.pk).update(rating=1100.0)
    return players


def _ahead(kind: str | None, rating: float, player_id: int) -> int:
    rows = Rating.objects.filter(game=GAME).filter(Q(rating__gt=rating) | Q(rating=rating, player_id__lt=player_id))
    return (rows.filter(kind=kind) if kind else rows).count()


@pytest.mark.parametrize("kind", [None, "bot", "human"])
def test_both_backends_count_the_players_above_every_point_in_one_call(
    board: list[Player], kind: str | None, django_assert_num_queries
) -> None:
    tied = [player.id for player, rating in zip(board, RATINGS, strict=True) if rating == 1500.0]
    points = [(rating, 0) for rating in POINTS] + [(1500.0, player_id) for player_id in tied]
    expected = [_ahead(kind, rating, player_id) for rating, player_id in points]
    with django_assert_num_queries(1):
        assert sql.ahead(GAME, kind, points) == expected
    index.rebuild(GAME)
    assert index.counts_above(GAME, kind, POINTS) == expected[: len(POINTS)]
    assert index.counts_above(GAME, kind, []) == []


def test_an_empty_board_has_no_one_above_any_point(db: None) -> None:
    assert sql.ahead(GAME, None, [(1500.0, 0), (-3.0, 7)]) == [0, 0]


def test_a_page_and_its_rank_intervals_come_from_one_script_with_the_ends_python_computes(board) -> None:
    """The index works out each line's interval in the same call as the page (the deviation grown by the
    whole idle days, capped): its ends are exactly those of ratings.elo, and its counts the full counts."""
    now = timezone.now()
    ages = [None, timedelta(0), timedelta(days=1, seconds=-1), timedelta(days=1), timedelta(days=3, hours=5)]
    ages += [timedelta(days=400), timedelta(days=29, microseconds=7)]
    for position, row in enumerate(Rating.objects.filter(game=GAME).order_by("player_id")):
        age = ages[position % len(ages)]
        row.rated_at = None if age is None else now - age
        row.deviation = 31.5 + 27.25 * position
        row.save(update_fields=["rated_at", "deviation"])
    index.rebuild(GAME)
    for kind in (None, "bot"):
        found = index.page_lines(GAME, kind, 0, 50, now)
        assert found is not None and found.counted is not None and found.lines
        ends = []
        for line in found.lines:
            low, high = interval(line.rating, current_deviation(line.deviation, line.rated_at, now))
            ends += [high, low]
        assert [end for end, _ in found.counted] == ends
        assert [above for _, above in found.counted] == [_ahead(kind, end, 0) for end in ends]
        # The same from the lines around a player, and none counted when not asked for.
        player = found.lines[3].player_id
        near = index.around(GAME, kind, player, 2, now)
        assert near is not None and near.counted == found.counted[2 * 1 : 2 * 6]
        assert index.page_lines(GAME, kind, 0, 50) == replace(found, counted=None)


def test_ends_worked_out_otherwise_by_the_index_are_counted_again_not_trusted(board, monkeypatch) -> None:
    index.rebuild(GAME)
    exact = leaderboard.page(GAME, None, 1, 50)
    # The script is handed another z than ratings.elo's (none: every end at the rating itself).
    monkeypatch.setattr(index, "Z95", 0.0)
    now = timezone.now()
    found = index.page_lines(GAME, None, 0, 50, now)
    assert found is not None and found.counted is not None
    assert found.counted[0][0] != interval(found.lines[0].rating, found.lines[0].deviation)[1]
    assert leaderboard.page(GAME, None, 1, 50) == exact


@pytest.mark.parametrize("kind", [None, "bot"])
def test_a_page_of_players_lines_looked_up_in_one_round_trip_are_each_players_own(board, kind) -> None:
    index.rebuild(GAME)
    ids = [player.id for player in board] + [10**9]  # the last one is on no board
    each = index.around_each(GAME, kind, ids, 1)
    assert each is not None and len(each) == len(ids)
    assert each == [index.around(GAME, kind, player_id, 1) for player_id in ids]
    assert each[-1] is not None and each[-1].lines == []
    # And the search of a page of players gives each its own line, as the database would.
    found = leaderboard.lines(GAME, kind, ids)
    assert found and all(row.player_id == player_id for player_id, row in found.items())
    assert found == {row.player_id: row for row in leaderboard._sql_search(GAME, kind, ids, len(ids))}
