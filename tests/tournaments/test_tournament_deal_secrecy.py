"""Duplicate deals: a table that has finished keeps its seed and record to itself while another table plays its deal."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from arena.models import Match, Player
from games.part_du_chef.deck import deal
from tests.leaks import api_client, assert_nothing_leaks, leaks, pizzas_after, web_client
from tests.support import wait_until
from tournaments.models import TournamentGame


def _statuses(tournament_id: int) -> list[str]:
    return list(
        TournamentGame.objects.filter(tournament_id=tournament_id)
        .order_by("rotation")
        .values_list("match__status", flat=True)
    )


@pytest.mark.system
def test_a_finished_table_of_a_duplicate_deal_shows_no_seed_nor_record_while_another_table_plays_it(
    restore_builtin_bots: None,
    workers: Any,
    client_for: Callable[[str], APIClient],
    users: dict[str, User],
    make_bots: Callable[..., list[Player]],
) -> None:
    boss = client_for("boss")
    body = {"name": "deal cup", "format": "round_robin", "table_size": 2, "duplicate": True, "rated": False}
    tid = boss.post("/api/tournaments/", body, format="json").json()["id"]
    for bot in make_bots(2, engine="random"):
        assert boss.post(f"/api/tournaments/{tid}/entries/", {"player": bot.pk}).status_code == 201
    # One worker playing one match at a time, slowly: the second table of the deal plays after the first.
    workers.start("slow", ARENA_BOT_MOVE_DELAY_SECONDS="0.6")
    assert boss.post(f"/api/tournaments/{tid}/start/").status_code == 202
    wait_until(
        lambda: sorted(_statuses(tid)) == ["finished", "running"],
        120,
        "one table of the deal to finish while the other plays",
        workers.tail(),
    )
    games = list(TournamentGame.objects.filter(tournament_id=tid).select_related("match"))
    assert len(games) == 2 and len({game.match.seed for game in games}) == 1  # one deal, two tables
    done = next(game.match for game in games if game.match.status == "finished")
    playing = next(game.match for game in games if game.match.status == "running")
    seed = done.seed
    everyone = [None, users["alice"], users["boss"]]

    # The finished table gives nothing of the deal: no seed, no record, no replay of its pizzas.
    assert_nothing_leaks(done, seed, pizzas_after(seed, -1), everyone)
    assert_nothing_leaks(playing, seed, pizzas_after(seed, -1), everyone)
    detail = api_client(None).get(f"/api/matches/{done.id}/").json()
    assert (detail["status"], detail["seed"], detail["held_back"]) == ("finished", None, True)
    assert f"shares its deal with 1 table of tournament {tid} still playing" in detail["held_back_reason"]
    assert all(row["score"] is not None for row in detail["results"])  # the result itself is public
    record = api_client(users["alice"]).get(f"/api/matches/{done.id}/record/")
    assert record.status_code == 404 and "every table of the deal is over" in record.json()["detail"]
    page = web_client(None).get(f"/matches/{done.id}/").content.decode()
    assert "still playing" in page
    # The tournament's match list says which games are held back, and why.
    listed = api_client(None).get(f"/api/tournaments/{tid}/matches/")
    assert not leaks(listed.content, seed, pizzas_after(seed, -1))
    rows = {row["match"]: row for row in listed.json()["results"]}
    assert (rows[done.id]["seed"], rows[done.id]["held_back"]) == (None, True)
    assert "still playing" in rows[done.id]["held_back_reason"]
    assert (rows[playing.id]["held_back"], rows[playing.id]["status"]) == (True, "running")
    assert not leaks(api_client(None).get(f"/api/tournaments/{tid}/").content, seed, pizzas_after(seed, -1))
    assert Match.objects.get(pk=playing.pk).status == "running", "the reads came too late to prove anything"

    wait_until(lambda: _statuses(tid) == ["finished", "finished"], 120, "the second table to finish", workers.tail())
    for match in (done, playing):
        record = api_client(None).get(f"/api/matches/{match.id}/record/").json()
        assert record["seed"] == seed
        assert [[s["id"] for s in ring] for ring in record["pizzas"]] == [list(ring) for ring in deal(seed)]
    rows = api_client(None).get(f"/api/tournaments/{tid}/matches/").json()["results"]
    assert [(row["seed"], row["held_back"], row["held_back_reason"]) for row in rows] == [(seed, False, None)] * 2
    assert web_client(None).get(f"/matches/{done.id}/").content.decode().count("data-slice=") >= 65
