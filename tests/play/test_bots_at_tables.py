"""Submitted bots at tables with people: one sandboxed or HTTP session per decision, the failure policy kept."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from arena.builtin import ensure_builtin_bots
from arena.errors import UnplayablePlayer
from arena.models import Match, MatchSeat, Player
from arena.people import person_of
from play.engine import create_live_match, play_turn
from play.models import LiveGame
from submissions import actions
from submissions.models import BotSeat, BotVersion, SubmittedBot
from tests.submissions.test_validation import hosted  # noqa: F401 - the local hosted bot server, a fixture
from tests.submitted_bots import STARTER_KITS, kit_zip, worker_environment
from tests.support import wait_until

# Submitted bots here run with the sandbox's short test limits, as in tests/submissions/.
pytestmark = pytest.mark.usefixtures("bot_settings")

# Plays like the starter kit, except at a table of four from the second pizza on: it passes validation
# (tables of two and three) and crashes in the middle of a game with people.
CRASH_AT_FOUR = """
import json
import sys

import kit

for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        print(json.dumps({"type": "ready"}), flush=True)
        continue
    if msg["type"] == "end":
        break
    obs = msg["observation"]
    if obs["players"] == 4 and obs["pizza"] >= 1:
        raise SystemExit("no fourth guest at my table")
    print(json.dumps(kit.choose_cut(obs) if obs["phase"] == "cut" else kit.choose_take(obs)), flush=True)
"""


def client_of(user: Any) -> APIClient:
    api = APIClient()
    api.force_authenticate(user)
    return api


def play_to_the_end(match_id: int, people: dict[int, APIClient]) -> list[str]:
    """People cut at the first gaps and take the first portion left; every other decision is taken by
    `play_turn`, what the Celery task of the table runs. Returns what each such task answered."""
    answers = []
    for _ in range(500):
        game = LiveGame.objects.get(pk=match_id)
        if game.to_act is None:
            return answers
        client = people.get(game.to_act)
        if client is None:
            answers.append(play_turn(match_id, game.turn))
            continue
        legal = client.get(f"/api/matches/{match_id}/state/").json()["legal"]
        if legal["phase"] == "cut":
            action = {"type": "cut", "cuts": list(range(legal["cut"]["points"])), "marianne": None}
        else:
            action = {"type": "take", "portion": legal["portions"][0]["index"], "eat": [], "steals": []}
        body = {"turn": game.turn, "action": action}
        answered = client.post(f"/api/matches/{match_id}/actions/", body, format="json")
        assert answered.status_code == 200, answered.content
    raise AssertionError(f"match {match_id} did not end")


def bot_decisions(match: Match, seat: int) -> list[int]:
    return [index for index, action in enumerate(match.record["actions"]) if action["seat"] == seat]


def test_a_friendly_table_with_a_person_and_an_uploaded_starter_kit_plays_to_the_end_with_the_bots_moves_logged(
    submit, users, client_for, settings
):
    bot = submit("kit-at-table", (STARTER_KITS / "python" / "bot.py").read_bytes(), filename="bot.py")
    version = BotVersion.objects.get(bot=bot, number=1)
    assert version.status == "active", version.reason
    opened = client_for("bob").post("/api/tables/", {"game": "part-du-chef", "guests": [bot.pk]}, format="json")
    assert opened.status_code == 201, opened.content
    table = opened.json()
    assert table["status"] == "started" and [seat["accepted"] for seat in table["seats"]] == [True, True]
    match_id = table["match"]
    pin = BotSeat.objects.get(match_id=match_id, seat=1)
    assert (pin.version_id, pin.pinned, pin.played) == (version.id, True, False)
    assert LiveGame.objects.get(pk=match_id).bank_ms == [0.0, float(settings.ARENA_BOT_BANK_MS)]

    answers = play_to_the_end(match_id, {0: client_for("bob")})

    match = Match.objects.get(pk=match_id)
    assert (match.status, match.kind, match.rated) == (Match.Status.FINISHED, Match.Kind.FRIENDLY, False)
    decisions = bot_decisions(match, 1)
    assert len(decisions) >= 7 and answers == ["played"] * len(decisions)
    pin.refresh_from_db()
    assert pin.played and not pin.forfeited and pin.forfeit_reason == ""
    assert [move["turn"] for move in pin.moves] == decisions
    assert all(move["status"] == "ok" and move["seat"] == 1 and move["latency_ms"] > 0 for move in pin.moves)
    # The kit writes its seat to stderr at every start: each decision was a session of its own.
    assert pin.stderr.count("seat 1 of 2") == len(decisions)
    assert not any(seat.forfeited for seat in MatchSeat.objects.filter(match=match))
    game = LiveGame.objects.get(pk=match_id)
    assert 0 <= game.bank_ms[1] <= settings.ARENA_BOT_BANK_MS and game.out == [False, False]
    # The owner reads the table's seat log like any match's; nobody else does.
    rows = client_for("alice").get(f"/api/bots/{bot.pk}/matches/").json()["results"]
    table_row = next(row for row in rows if row["match"] == match_id)
    assert [move["status"] for move in table_row["moves"]] == ["ok"] * len(decisions)
    assert client_for("bob").get(f"/api/bots/{bot.pk}/matches/").status_code == 404


def test_a_crashing_uploaded_bot_at_a_table_with_a_person_forfeits_and_greedy_finishes_its_seat(submit, users):
    bot = submit("crash-at-four", kit_zip(CRASH_AT_FOUR), filename="crasher.zip")
    assert BotVersion.objects.get(bot=bot, number=1).status == "active"
    bob = person_of(users["bob"])
    players = [bob, Player.objects.get(pk=bot.pk), *Player.objects.filter(name__in=["greedy", "random"]).order_by("id")]
    match = create_live_match(game="part-du-chef", kind=Match.Kind.FRIENDLY, players=players, seed=11)

    answers = play_to_the_end(match.id, {0: client_of(users["bob"])})

    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    pin = BotSeat.objects.get(match=match, seat=1)
    statuses = [move["status"] for move in pin.moves]
    assert statuses[-1] == "crash" and set(statuses[:-1]) == {"ok"} and len(statuses) >= 2
    assert pin.played and pin.forfeited and pin.forfeit_reason.startswith("crash: the bot exited (exit code 1)")
    assert "no fourth guest at my table" in pin.stderr
    decisions = bot_decisions(match, 1)
    # The crash asked once: greedy played that decision and every later one of the seat.
    assert len(decisions) > len(statuses) and "forfeited" in answers
    game = LiveGame.objects.get(pk=match.id)
    assert game.out == [False, True, False, False]
    # Who took each of the seat's decisions: the bot itself, then the house at its forfeit and after.
    causes = [game.decided_by[turn] for turn in decisions]
    assert causes == ["seat"] * (len(statuses) - 1) + ["forfeit"] + ["left"] * (len(decisions) - len(statuses))
    seats = list(MatchSeat.objects.filter(match=match).order_by("seat"))
    assert [seat.forfeited for seat in seats] == [False, True, False, False]
    assert seats[1].rank == 4


def test_a_hosted_bot_plays_at_a_table_with_a_person(submit, users, hosted, settings):  # noqa: F811
    settings.ARENA_BOT_ALLOW_PRIVATE_URLS = True
    bot = submit("hosted-at-table", endpoint=hosted)
    assert BotVersion.objects.get(bot=bot, number=1).status == "active"
    bob = person_of(users["bob"])
    match = create_live_match(
        game="part-du-chef", kind=Match.Kind.FRIENDLY, players=[Player.objects.get(pk=bot.pk), bob], seed=3
    )

    play_to_the_end(match.id, {1: client_of(users["bob"])})

    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    pin = BotSeat.objects.get(match=match, seat=0)
    assert pin.played and not pin.forfeited
    assert [move["turn"] for move in pin.moves] == bot_decisions(match, 0)
    assert {move["status"] for move in pin.moves} == {"ok"}


def test_a_bot_without_an_active_version_or_suspended_cannot_be_seated_with_people(submit, users, client_for):
    pending = submit("not-yet", (STARTER_KITS / "python" / "bot.py").read_bytes(), validate=False)
    refused = client_for("bob").post("/api/tables/", {"game": "part-du-chef", "guests": [pending.pk]}, format="json")
    assert refused.status_code == 400
    assert refused.json()["detail"] == f"bot {pending.pk} (not-yet) has no active version (version 1 is pending)"

    bot = submit("suspended", (STARTER_KITS / "python" / "bot.py").read_bytes())
    SubmittedBot.objects.filter(pk=bot.pk).update(suspended_at=timezone.now(), suspension_reason="Too many forfeits.")
    bob = person_of(users["bob"])
    try:
        create_live_match(game="part-du-chef", kind=Match.Kind.FRIENDLY, players=[bob, Player.objects.get(pk=bot.pk)])
    except UnplayablePlayer as exc:
        assert str(exc).startswith(f"bot {bot.pk} (suspended) is suspended from the arena: Too many forfeits.")
    else:
        raise AssertionError("a suspended bot was seated")


def test_an_uploaded_bots_decisions_at_a_table_are_played_by_a_real_worker(workers, submit, users, client_for):
    ensure_builtin_bots(Player)  # a transactional test starts from an empty database
    workers.start("table-bots", **worker_environment())
    bot = submit("kit-by-worker", (STARTER_KITS / "python" / "bot.py").read_bytes(), filename="bot.py")
    bob = client_for("bob")
    table = bob.post("/api/tables/", {"game": "part-du-chef", "guests": [bot.pk]}, format="json").json()
    match_id = table["match"]

    def waiting_for_bob() -> bool:
        game = LiveGame.objects.get(pk=match_id)
        return game.to_act in (0, None)

    while True:
        wait_until(waiting_for_bob, 60, "the bot's decision", workers.tail())
        game = LiveGame.objects.get(pk=match_id)
        if game.to_act is None:
            break
        legal = bob.get(f"/api/matches/{match_id}/state/").json()["legal"]
        if legal["phase"] == "cut":
            action = {"type": "cut", "cuts": list(range(legal["cut"]["points"])), "marianne": None}
        else:
            action = {"type": "take", "portion": legal["portions"][0]["index"], "eat": [], "steals": []}
        body = {"turn": game.turn, "action": action}
        assert bob.post(f"/api/matches/{match_id}/actions/", body, format="json").status_code == 200

    wait_until(lambda: Match.objects.get(pk=match_id).status == Match.Status.FINISHED, 30, "the result", workers.tail())
    match = Match.objects.get(pk=match_id)
    pin = BotSeat.objects.get(match=match, seat=1)
    assert pin.played and not pin.forfeited
    assert [move["turn"] for move in pin.moves] == bot_decisions(match, 1)
    assert {move["status"] for move in pin.moves} == {"ok"}


VERSION_TWO = """
import sys

import kit

print("version two here", file=sys.stderr)
kit.main()
"""


def test_the_version_seated_when_the_table_formed_plays_it_to_the_end_after_a_new_upload(submit, users):
    bot = submit("kit-then-two", (STARTER_KITS / "python" / "bot.py").read_bytes(), filename="bot.py")
    first = BotVersion.objects.get(bot=bot, number=1)
    bob = person_of(users["bob"])
    match = create_live_match(
        game="part-du-chef", kind=Match.Kind.FRIENDLY, players=[bob, Player.objects.get(pk=bot.pk)], seed=17
    )
    second = actions.add_version(bot, upload=("two.zip", kit_zip(VERSION_TWO)))
    actions.run_validation(second.id)
    second.refresh_from_db()
    first.refresh_from_db()
    assert (first.status, second.status) == ("retired", "active"), second.reason

    play_to_the_end(match.id, {0: client_of(users["bob"])})

    pin = BotSeat.objects.get(match=match, seat=1)
    assert pin.version_id == first.id and pin.played and not pin.forfeited
    assert [move["turn"] for move in pin.moves] == bot_decisions(Match.objects.get(pk=match.id), 1)
    assert "seat 1 of 2" in pin.stderr and "version two here" not in pin.stderr
