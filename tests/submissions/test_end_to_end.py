"""End to end through the API and real worker processes: upload a bot, watch it validate, enter it
in the arena and in a duplicate round-robin tournament, read the standings."""

from __future__ import annotations

from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from arena.models import Player
from matchmaking import matchmaker
from tests.submitted_bots import STARTER_KITS, worker_environment
from tests.support import wait_until


def test_upload_validate_enter_the_arena_and_a_duplicate_round_robin_then_read_the_standings(
    workers, client_for, settings
):
    workers.start("e2e", concurrency=2, **worker_environment())
    alice, boss, anyone = client_for("alice"), client_for("boss"), APIClient()

    kit = SimpleUploadedFile("bot.py", (STARTER_KITS / "python" / "bot.py").read_bytes())
    created = alice.post("/api/bots/", {"name": "alices-chef", "file": kit}, format="multipart")
    assert created.status_code == 201, created.json()
    bot_id = created.json()["id"]
    assert created.json()["status"] == "pending"

    def status() -> str:
        return alice.get(f"/api/bots/{bot_id}/").json()["status"]

    wait_until(lambda: status() in ("active", "rejected"), 90, "the upload to be validated", workers.tail())
    assert status() == "active"
    version = alice.get(f"/api/bots/{bot_id}/versions/1/").json()
    assert version["status"] == "active" and len(version["log"]) == 2
    assert not any(game["forfeited"] for game in version["log"])

    # The arena: alice's bot and a built-in bot entered by staff; the matchmaker seats them (with
    # placement off: a new bot would first play the house ladder alone, tests/matchmaking/test_arena_house_bots.py).
    settings.ARENA_BOT_PLACEMENT_GAMES = 0
    greedy = Player.objects.get(name="greedy")
    entry = alice.post(
        "/api/arena/entries/", {"player": bot_id, "game": "part-du-chef", "table_size": 2}, format="json"
    )
    assert entry.status_code == 201, entry.json()
    assert (
        boss.post(
            "/api/arena/entries/", {"player": greedy.pk, "game": "part-du-chef", "table_size": 2}, format="json"
        ).status_code
        == 201
    )
    arena_matches = matchmaker.tick()
    assert len(arena_matches) == 1

    def arena_done() -> bool:
        return anyone.get(f"/api/matches/{arena_matches[0]}/").json()["status"] in ("finished", "failed")

    wait_until(arena_done, 60, "the arena match to be played", workers.tail())
    played = anyone.get(f"/api/matches/{arena_matches[0]}/").json()
    assert (played["status"], played["kind"], played["rated"]) == ("finished", "arena", True)
    assert {r["player"] for r in played["results"]} == {bot_id, greedy.pk}
    assert all(r["rating_after"] is not None and not r["forfeited"] for r in played["results"])

    # A rated duplicate round robin at tables of 2: 3 tables, each deal in both seatings.
    tournament = boss.post(
        "/api/tournaments/",
        {"name": "e2e cup", "format": "round_robin", "table_size": 2, "duplicate": True},
        format="json",
    ).json()
    tid = tournament["id"]
    assert alice.post(f"/api/tournaments/{tid}/entries/", {"player": bot_id}, format="json").status_code == 201
    for name in ("random", "greedy"):
        house = Player.objects.get(name=name)
        assert boss.post(f"/api/tournaments/{tid}/entries/", {"player": house.pk}, format="json").status_code == 201
    assert boss.post(f"/api/tournaments/{tid}/start/").status_code == 202

    def tournament_status() -> str:
        return anyone.get(f"/api/tournaments/{tid}/").json()["status"]

    wait_until(lambda: tournament_status() in ("finished", "cancelled"), 120, "the tournament", workers.tail())
    body = anyone.get(f"/api/tournaments/{tid}/").json()
    assert body["status"] == "finished", body["error"]
    assert body["progress"] == {"done": 6, "total": 6, "failed": 0}
    standings = body["standings"]
    assert [row["rank"] for row in standings] == [1, 2, 3]
    assert {row["player"] for row in standings} == {bot_id, greedy.pk, Player.objects.get(name="random").pk}
    assert sum(row["points"] for row in standings) == 6 and all(row["games"] == 4 for row in standings)
    mine = next(row for row in standings if row["player"] == bot_id)
    assert (mine["version"], mine["name"]) == (1, "alices-chef")
    matches = anyone.get(f"/api/tournaments/{tid}/matches/").json()
    assert matches["count"] == 6 and {m["status"] for m in matches["results"]} == {"finished"}

    seats = alice.get(f"/api/bots/{bot_id}/matches/").json()
    kinds = [seat["kind"] for seat in seats["results"]]
    assert kinds.count("friendly") == 2 and kinds.count("arena") >= 1 and kinds.count("ranked") == 4
    assert all(move["status"] == "ok" for seat in seats["results"] for move in seat["moves"])
