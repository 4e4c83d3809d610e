"""Fair seats in tournaments: each table's order balances its entrants' seats over the tournament."""

from __future__ import annotations

from collections import Counter, defaultdict

from results.tasks import play_match
from tournaments.actions import advance
from tournaments.models import TournamentGame
from tournaments.tasks import start_tournament


def create(api, **fields) -> int:
    body = {"name": "fair", "format": "round_robin", "table_size": 3, "rated": False, **fields}
    response = api.post("/api/tournaments/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def seats_by_entry(tournament_id: int) -> dict[int, Counter[int]]:
    seats: dict[int, Counter[int]] = defaultdict(Counter)
    for entries in TournamentGame.objects.filter(tournament_id=tournament_id).values_list("entries", flat=True):
        for seat, entry in enumerate(entries):
            seats[entry][seat] += 1
    return seats


def test_a_round_robin_of_four_at_tables_of_three_seats_each_entrant_once_in_every_seat(client_for, make_bots):
    boss = client_for("boss")
    tid = create(boss)
    for bot in make_bots(4):
        assert boss.post(f"/api/tournaments/{tid}/entries/", {"player": bot.pk}).status_code == 201
    assert start_tournament.run(tid)
    seats = seats_by_entry(tid)
    # Before: the tables were the entrants in id order, so the first entrant cut first at all three.
    assert len(seats) == 4 and all(counts == Counter({0: 1, 1: 1, 2: 1}) for counts in seats.values()), seats


def test_swiss_rounds_balance_the_seats_over_the_rounds(client_for, make_bots):
    boss = client_for("boss")
    tid = create(boss, format="swiss", table_size=2, rounds=4)
    for bot in make_bots(4, engine="greedy"):
        boss.post(f"/api/tournaments/{tid}/entries/", {"player": bot.pk})
    assert start_tournament.run(tid)
    for round_number in range(1, 5):
        for match_id in TournamentGame.objects.filter(tournament_id=tid, round=round_number).values_list(
            "match_id", flat=True
        ):
            play_match.run(match_id)
        assert advance(tid) == (f"round {round_number + 1}" if round_number < 4 else "finished")
    seats = seats_by_entry(tid)
    assert len(seats) == 4
    for counts in seats.values():
        # Before: the better placed entrant of each table cut first, round after round.
        assert sum(counts.values()) == 4 and counts[0] >= 1 and counts[1] >= 1 and abs(counts[0] - counts[1]) <= 2
