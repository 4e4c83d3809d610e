"""Duplicate deals keep their secrets: the tables of a deal play side by side, and no bot learns at one table a
pizza that another table of the deal has not shown yet, even a hosted bot that remembers everything it saw."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from arena import runner
from arena.models import Player
from games.part_du_chef.deck import deal
from results.commit import commit_result
from results.deals import run_deal
from tests.claims import claim_match
from tests.leaks import api_client, assert_nothing_leaks, leaks, pizzas_after, web_client
from tests.submitted_bots import worker_environment
from tests.support import wait_until
from tournaments.models import TournamentGame
from tournaments.tasks import start_tournament


def _statuses(tournament_id: int) -> list[str]:
    return list(
        TournamentGame.objects.filter(tournament_id=tournament_id)
        .order_by("rotation")
        .values_list("match__status", flat=True)
    )


class _RememberingBot(BaseHTTPRequestHandler):
    """A hosted bot that plays the first legal-looking choice and keeps every ring it is shown, in order."""

    protocol_version = "HTTP/1.1"
    seen: list[tuple[int, int, tuple[int, ...]]] = []  # (seat, pizza, ring's slice ids), in the order received
    lock = threading.Lock()

    def log_message(self, *args: object) -> None:
        pass

    def do_POST(self) -> None:  # noqa: N802 - http.server's naming
        message = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        reply: dict[str, Any] = {}
        if message["type"] == "start":
            reply = {"type": "ready"}
        elif message["type"] == "act":
            obs = message["observation"]
            with self.lock:
                self.seen.append((obs["seat"], obs["pizza"], tuple(piece["id"] for piece in obs["ring"])))
            if obs["phase"] == "cut":
                reply = {"type": "cut", "cuts": list(range(obs["players"] - 1)) + [12]}
                reply["cuts"] = sorted({*reply["cuts"]})[: obs["players"]]
            else:
                free = next(p["index"] for p in obs["portions"] if p["taken_by"] is None)
                reply = {"type": "take", "portion": free, "eat": []}
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@pytest.fixture
def remembering_bot() -> Iterator[str]:
    _RememberingBot.seen = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _RememberingBot)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/bot"
    server.shutdown()


@pytest.mark.system
def test_a_hosted_bot_that_remembers_every_ring_predicts_no_pizza_of_a_duplicate_deal_before_its_table_shows_it(
    workers: Any,
    client_for: Callable[[str], APIClient],
    submit: Callable[..., Any],
    make_bots: Callable[..., list[Player]],
    remembering_bot: str,
    settings: Any,
) -> None:
    settings.ARENA_BOT_ALLOW_PRIVATE_URLS = True
    hosted = submit("rememberer", endpoint=remembering_bot, validate=False)
    boss, alice = client_for("boss"), client_for("alice")
    body = {"name": "memory cup", "format": "round_robin", "table_size": 2, "duplicate": True, "rated": False}
    body["games_per_table"] = 2
    tid = boss.post("/api/tournaments/", body, format="json").json()["id"]
    hosted.versions.filter(number=1).update(status="active")
    assert alice.post(f"/api/tournaments/{tid}/entries/", {"player": hosted.player_id}).status_code == 201, "entry"
    (opponent,) = make_bots(1, engine="greedy")
    assert boss.post(f"/api/tournaments/{tid}/entries/", {"player": opponent.pk}).status_code == 201
    workers.start("deals", concurrency=2, ARENA_BOT_ALLOW_PRIVATE_URLS="1", **worker_environment())
    assert boss.post(f"/api/tournaments/{tid}/start/").status_code == 202
    wait_until(
        lambda: _statuses(tid) and all(status == "finished" for status in _statuses(tid)),
        180,
        "every table of the tournament to finish",
        workers.tail(),
    )

    # Which deal and pizza each ring the bot was shown belongs to, and so at which table it sat.
    games = list(TournamentGame.objects.filter(tournament_id=tid).select_related("match"))
    seeds = {game.match.seed for game in games}
    assert len(games) == 4 and len(seeds) == 2  # two deals, each in both rotations
    where = {ring: (seed, pizza) for seed in seeds for pizza, ring in enumerate(deal(seed))}
    shown: dict[tuple[int, int], int] = {}  # (deal, table) -> the furthest pizza the bot was shown there
    predictions = 0
    for seat, pizza, ring in _RememberingBot.seen:
        seed, index = where[ring]
        assert index == pizza
        # A pizza of this deal the bot has already been shown at another table, beyond this table's pizza:
        # with it the bot would know what this table deals next.
        ahead = [furthest for (other, table), furthest in shown.items() if other == seed and table != seat]
        predictions += sum(1 for furthest in ahead if furthest > pizza)
        shown[(seed, seat)] = max(shown.get((seed, seat), 0), pizza)
    assert len(shown) == 4 and all(furthest == 4 for furthest in shown.values()), shown  # every pizza, every table
    assert predictions == 0


def test_a_finished_table_of_a_duplicate_deal_shows_no_seed_nor_record_while_another_table_of_it_is_unfinished(
    client_for: Callable[[str], APIClient],
    users: dict[str, User],
    make_bots: Callable[..., list[Player]],
) -> None:
    # The tables of a deal are committed together; one finishes alone only when the other's attempt
    # failed and waits for its retry. Here one table is played and committed by itself.
    boss = client_for("boss")
    body = {"name": "deal cup", "format": "round_robin", "table_size": 2, "duplicate": True, "rated": False}
    tid = boss.post("/api/tournaments/", body, format="json").json()["id"]
    for bot in make_bots(2, engine="random"):
        assert boss.post(f"/api/tournaments/{tid}/entries/", {"player": bot.pk}).status_code == 201
    assert start_tournament.run(tid)
    games = list(TournamentGame.objects.filter(tournament_id=tid).select_related("match").order_by("rotation"))
    assert len(games) == 2 and len({game.match.seed for game in games}) == 1  # one deal, two tables
    done, playing = games[0].match, games[1].match
    assert done.deal_group is not None and done.deal_group == playing.deal_group
    attempt = claim_match(done.id)
    assert attempt is not None
    players = [seat.player for seat in done.seats.select_related("player").order_by("seat")]
    assert commit_result(done.id, attempt, runner.play(done.game, players, done.seed, done.options))
    done.refresh_from_db()
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
    assert (rows[playing.id]["held_back"], rows[playing.id]["status"]) == (True, "queued")
    assert not leaks(api_client(None).get(f"/api/tournaments/{tid}/").content, seed, pizzas_after(seed, -1))

    # The retry plays what is left of the deal (run_deal claims the unfinished tables of the group).
    assert run_deal(playing.id) == "finished"
    assert _statuses(tid) == ["finished", "finished"]
    for match in (done, playing):
        record = api_client(None).get(f"/api/matches/{match.id}/record/").json()
        assert record["seed"] == seed
        assert [[s["id"] for s in ring] for ring in record["pizzas"]] == [list(ring) for ring in deal(seed)]
    rows = api_client(None).get(f"/api/tournaments/{tid}/matches/").json()["results"]
    assert [(row["seed"], row["held_back"], row["held_back_reason"]) for row in rows] == [(seed, False, None)] * 2
    assert web_client(None).get(f"/matches/{done.id}/").content.decode().count("data-slice=") >= 65
