"""A bot's games per seat (fair seats, shown): per table size and seat, rated games and mean placing."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from arena.models import Match, MatchSeat, Player
from submissions.models import SubmittedBot


def table(players: list[Player], ranks: list[int], *, rated: bool = True, status: str = "finished") -> None:
    match = Match.objects.create(
        game="part-du-chef", kind="arena" if rated else "friendly", rated=rated, seed=1, status=status
    )
    for seat, (player, rank) in enumerate(zip(players, ranks, strict=True)):
        MatchSeat.objects.create(match=match, seat=seat, player=player, rank=rank)


def test_the_seat_summary_counts_rated_games_per_table_size_and_seat_for_the_owner_only(db: None) -> None:
    owner = User.objects.create_user("olga", password="a-long-passphrase")
    mine = Player.objects.create(name="olga-bot", kind="bot", owner=owner)
    SubmittedBot.objects.create(player=mine, game="part-du-chef")
    greedy, search = Player.objects.get(name="greedy"), Player.objects.get(name="search")
    table([mine, greedy], [1, 2])
    table([mine, greedy], [2, 1])
    table([greedy, mine], [2, 1])
    table([search, greedy, mine], [1, 2, 3])
    table([mine, greedy], [1, 2], rated=False)  # friendly: not counted
    table([mine, greedy], [1, 2], status="running")  # not over: not counted
    api = APIClient()
    api.force_authenticate(owner)
    response = api.get(f"/api/bots/{mine.id}/seats/")
    assert response.status_code == 200, response.json()
    assert response.json() == [
        {"players": 2, "seat": 0, "games": 2, "mean_placing": 1.5},
        {"players": 2, "seat": 1, "games": 1, "mean_placing": 1.0},
        {"players": 3, "seat": 0, "games": 0, "mean_placing": None},
        {"players": 3, "seat": 1, "games": 0, "mean_placing": None},
        {"players": 3, "seat": 2, "games": 1, "mean_placing": 3.0},
    ]
    stranger = APIClient()
    stranger.force_authenticate(User.objects.create_user("piet"))
    assert stranger.get(f"/api/bots/{mine.id}/seats/").status_code == 404
    assert APIClient().get(f"/api/bots/{mine.id}/seats/").status_code in (401, 403)

    page = Client()
    page.force_login(owner)
    body = page.get("/my-bots/").content.decode()
    assert '<table class="board seats">' in body
    # The page counts seats 1 to N, as the rules do (the API above, the protocol and `replay --seat`
    # count from 0): the two-player tables' first seat, 2 games, mean placing 1.5.
    assert "Seat (0 is the first)" not in body
    assert "<tr><td>2</td><td>1</td><td>2</td><td>1.50</td></tr>" in body
    assert "<tr><td>3</td><td>2</td><td>0</td><td>—</td></tr>" in body
