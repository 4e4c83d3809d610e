"""Every rating and rank is shown with its certainty: a 95% interval and the ranks within it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from rest_framework.test import APIClient

from arena.matches import create_match
from arena.models import Player
from ratings.elo import INITIAL_DEVIATION, PROVISIONAL_DEVIATION
from ratings.leaderboard import index
from ratings.ledger import LedgerMismatch, replay_ledger, verify_ratings
from ratings.models import Rating, RatingChange
from results.batches import run_match

GAME = "part-du-chef"


def _play(players: list[Player], seeds: range) -> None:
    for seed in seeds:
        seated = players[seed % len(players) :] + players[: seed % len(players)]
        size = 2 + seed % 3
        match = create_match(game=GAME, kind="ranked", player_ids=[p.id for p in seated[:size]], seed=seed)
        assert run_match(match.id) == "finished"


def _lines(api: APIClient) -> list[dict[str, object]]:
    lines: list[dict[str, object]] = []
    url: str | None = f"/api/leaderboards/{GAME}/?page_size=4"
    while url:
        body = api.get(url).json()
        lines += body["results"]
        url = body["next"]
    return lines


def _holds(line: dict[str, object]) -> None:
    low, high = line["interval"]  # type: ignore[misc]
    best, worst = line["rank_interval"]  # type: ignore[misc]
    assert low < line["rating"] < high
    assert 1 <= best <= line["rank"] <= worst
    assert high - low == pytest.approx(2 * 1.959964 * line["deviation"], abs=1e-3)  # type: ignore[operator]


@pytest.mark.parametrize("indexed", [False, True], ids=["sql", "index"])
def test_every_line_and_standing_has_intervals_holding_its_rating_and_rank(make_bots, indexed: bool) -> None:
    players = make_bots(5) + make_bots(2, engine="greedy", prefix="strong")
    _play(players, range(18))
    if indexed:
        index.rebuild(GAME)
    api = APIClient()
    lines = _lines(api)
    assert len(lines) == 7
    for line in lines:
        _holds(line)
        standing = api.get(f"/api/leaderboards/{GAME}/players/{line['player']['id']}/").json()  # type: ignore[index]
        for shown in [standing["player"], *standing["above"], *standing["below"]]:
            _holds(shown)
        assert standing["player"] == line
    # The rank interval is the count of players above each end of the interval, everyone else in place.
    ratings = [line["rating"] for line in lines]
    for line in lines:
        low, high = line["interval"]  # type: ignore[misc]
        assert line["rank_interval"] == [
            min(line["rank"], 1 + sum(1 for r in ratings if r > high)),  # type: ignore[operator]
            max(line["rank"], sum(1 for r in ratings if r > low)),  # type: ignore[call-overload]
        ]


def test_a_new_players_interval_is_wider_than_a_settled_ones_and_narrows_with_games(make_bots) -> None:
    veterans = make_bots(3, prefix="veteran")
    _play(veterans, range(30))
    newcomer = make_bots(1, prefix="new")[0]
    api = APIClient()
    widths, provisional = [], []
    for seed in range(100, 106):
        match = create_match(game=GAME, kind="ranked", player_ids=[newcomer.id, veterans[seed % 3].id], seed=seed)
        assert run_match(match.id) == "finished"
        mine = api.get(f"/api/leaderboards/{GAME}/players/{newcomer.id}/").json()["player"]
        widths.append(mine["interval"][1] - mine["interval"][0])
        # "Provisional" follows from the deviation, nothing else.
        assert mine["provisional"] == (mine["deviation"] > PROVISIONAL_DEVIATION)
        provisional.append(mine["provisional"])
    assert widths == sorted(widths, reverse=True) and widths[-1] < widths[0]
    settled = api.get(f"/api/leaderboards/{GAME}/players/{veterans[0].id}/").json()["player"]
    assert settled["interval"][1] - settled["interval"][0] < widths[-1]
    assert provisional[0] and not settled["provisional"]
    first = RatingChange.objects.filter(player=newcomer).order_by("id").first()
    assert first is not None and first.deviation_before == INITIAL_DEVIATION


def test_the_deviation_grows_with_idle_time(make_bots) -> None:
    players = make_bots(2)
    _play(players, range(12))
    api = APIClient()
    before = api.get(f"/api/leaderboards/{GAME}/players/{players[0].id}/").json()["player"]
    row = Rating.objects.get(player=players[0])
    Rating.objects.filter(pk=row.pk).update(rated_at=row.rated_at - timedelta(days=200))  # idle since
    after = api.get(f"/api/leaderboards/{GAME}/players/{players[0].id}/").json()["player"]
    assert after["rating"] == before["rating"]
    assert after["deviation"] > before["deviation"] + 50
    # The next game is rated with the grown deviation: a larger move than the same game before.
    row.refresh_from_db()
    match = create_match(game=GAME, kind="ranked", player_ids=[p.id for p in players], seed=99)
    assert run_match(match.id) == "finished"
    change = RatingChange.objects.get(match=match, player=players[0])
    assert change.deviation_before == pytest.approx(row.deviation_at(change.rated_at))
    assert change.deviation_before > row.deviation + 50


def test_the_ledger_replays_ratings_and_deviations_exactly_and_catches_a_changed_one(make_bots) -> None:
    players = make_bots(4)
    _play(players, range(15))
    replayed = verify_ratings(GAME)
    for row in Rating.objects.filter(game=GAME):
        state = replayed[row.player_id]
        assert (state.rating, state.deviation, state.games, state.rated_at) == (
            row.rating,
            row.deviation,
            row.games,
            row.rated_at,
        )
    change = RatingChange.objects.filter(game=GAME).order_by("id")[7]
    RatingChange.objects.filter(pk=change.pk).update(deviation_after=change.deviation_after + 1e-9)
    with pytest.raises(LedgerMismatch, match=f"match {change.match_id}|player {change.player_id}"):
        replay_ledger(GAME)


def test_a_ledger_of_games_rated_by_both_rules_replays_each_match_by_its_own_rule(make_bots, monkeypatch) -> None:
    players = make_bots(4)
    monkeypatch.setattr("ratings.ledger.RULE", 1)  # the games rated before margins counted
    _play(players, range(6))
    monkeypatch.undo()
    _play(players, range(6, 12))
    rules = list(RatingChange.objects.filter(game=GAME).order_by("id").values_list("rule", flat=True))
    assert set(rules[: len(rules) // 2]) == {1} and set(rules[len(rules) // 2 :]) == {2}
    verify_ratings(GAME)
    # The same results under the other rule move the ratings differently: replay tells them apart.
    first_rule_two = RatingChange.objects.filter(game=GAME, rule=2).order_by("id").first()
    assert first_rule_two is not None
    RatingChange.objects.filter(match_id=first_rule_two.match_id).update(rule=1)
    with pytest.raises(LedgerMismatch, match=f"match {first_rule_two.match_id}"):
        replay_ledger(GAME)
    RatingChange.objects.filter(match_id=first_rule_two.match_id).update(rule=3)
    with pytest.raises(LedgerMismatch, match="not one of"):
        replay_ledger(GAME)
