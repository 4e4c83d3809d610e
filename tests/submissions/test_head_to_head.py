"""A bot's head-to-head table: per opponent, rated games, wins and mean placing; a forfeit counts last."""

from __future__ import annotations

from django.contrib.auth.models import User
from rest_framework.test import APIClient

from arena.models import Match, MatchSeat, Player
from submissions.models import SubmittedBot


def table(players: list[Player], ranks: list[int], *, rated: bool = True, forfeited: int | None = None) -> None:
    match = Match.objects.create(
        game="part-du-chef", kind="arena" if rated else "friendly", rated=rated, seed=1, status="finished"
    )
    for seat, (player, rank) in enumerate(zip(players, ranks, strict=True)):
        MatchSeat.objects.create(match=match, seat=seat, player=player, rank=rank, forfeited=seat == forfeited)


def test_the_head_to_head_counts_rated_games_wins_and_placings_per_opponent(db: None) -> None:
    owner = User.objects.create_user("olga")
    mine = Player.objects.create(name="olga-bot", kind="bot", owner=owner)
    SubmittedBot.objects.create(player=mine, game="part-du-chef")
    greedy, search = Player.objects.get(name="greedy"), Player.objects.get(name="search")
    table([mine, greedy], [1, 2])
    table([mine, greedy, search], [2, 3, 1])
    # A forfeit: the match core stored it last, whatever the points.
    table([mine, greedy], [2, 1], forfeited=0)
    table([mine, greedy], [1, 2], rated=False)  # friendly: not counted
    api = APIClient()
    api.force_authenticate(owner)
    response = api.get(f"/api/bots/{mine.id}/head-to-head/")
    assert response.status_code == 200, response.json()
    rows = {row["name"]: row for row in response.json()}
    assert rows["greedy"] == {
        "opponent": greedy.id,
        "name": "greedy",
        "kind": "bot",
        "games": 3,
        "wins": 1,
        "mean_placing": round((1 + 2 + 2) / 3, 2),
        "above": 2,
        "opponent_mean_placing": round((2 + 3 + 1) / 3, 2),
    }
    assert (rows["search"]["games"], rows["search"]["wins"], rows["search"]["above"]) == (1, 0, 0)
    assert list(rows) == ["greedy", "search"]  # most games first

    stranger = APIClient()
    stranger.force_authenticate(User.objects.create_user("piet"))
    assert stranger.get(f"/api/bots/{mine.id}/head-to-head/").status_code == 404
