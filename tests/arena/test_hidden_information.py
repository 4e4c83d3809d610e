"""Fair play: a match's seed, its record and the pizzas still to come are in no answer until it is over."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User

from arena.models import Match, MatchSeat, Player
from arena.people import person_of
from arena.secrecy import held_back_reason, may_show_secrets
from botclient import BotSession
from botclient.match import play_with_sessions
from botclient.session import Exchange
from games.part_du_chef import State
from games.part_du_chef.bots import get_bot
from games.part_du_chef.deck import deal
from play.engine import create_live_match
from play.models import LiveGame
from submissions.models import BotSeat, BotVersion, SubmittedBot
from tests.leaks import api_client, assert_nothing_leaks, leaks, pizzas_after, slice_ids, web_client
from tests.support import wait_until
from tournaments.models import Tournament, TournamentGame

GAME = "part-du-chef"


def _status(match_id: int) -> str:
    return Match.objects.values_list("status", flat=True).get(pk=match_id)


@pytest.fixture
def users(transactional_db: None) -> dict[str, User]:
    return {
        "alice": User.objects.create_user("alice", password="a-long-passphrase"),
        "bob": User.objects.create_user("bob", password="a-long-passphrase"),
        "boss": User.objects.create_user("boss", password="a-long-passphrase", is_staff=True),
    }


@pytest.mark.system
def test_while_a_bot_match_plays_no_answer_gives_its_seed_or_a_pizza_and_once_over_its_record_has_the_seed(
    workers: Any, make_bots: Callable[..., list[Player]], users: dict[str, User]
) -> None:
    bots = make_bots(3, engine="random")
    created = api_client(users["alice"]).post(
        "/api/matches/", {"game": GAME, "kind": "friendly", "players": [b.id for b in bots]}, format="json"
    )
    assert created.status_code == 201
    match = Match.objects.get(pk=created.json()["id"])
    seed = match.seed
    assert not leaks(created.content, seed, pizzas_after(seed, -1)), "the creation answer gives the deal away"
    # 20 decisions with a pause before each: the match runs for about ten seconds.
    workers.start("slow", ARENA_BOT_MOVE_DELAY_SECONDS="0.5")
    wait_until(lambda: _status(match.id) == "running", 60, "the worker to start the match", workers.tail())

    # Nothing of a bot match is on a table anyone sees: every slice is hidden, and so is the seed.
    assert_nothing_leaks(match, seed, pizzas_after(seed, -1), [None, users["alice"], users["bob"]])
    detail = api_client(None).get(f"/api/matches/{match.id}/").json()
    assert (detail["seed"], detail["held_back"]) == (None, True)
    assert "published when it is over" in detail["held_back_reason"]
    record = api_client(users["bob"]).get(f"/api/matches/{match.id}/record/")
    assert record.status_code == 404 and "status running" in record.json()["detail"]
    assert _status(match.id) == "running", "the match ended before every answer was read: the reads prove nothing"

    wait_until(lambda: _status(match.id) == "finished", 120, "the match to finish", workers.tail())
    record = api_client(None).get(f"/api/matches/{match.id}/record/").json()
    assert record["seed"] == seed
    assert [[s["id"] for s in ring] for ring in record["pizzas"]] == [list(ring) for ring in deal(seed)]
    detail = api_client(None).get(f"/api/matches/{match.id}/").json()
    assert (detail["seed"], detail["held_back"], detail["held_back_reason"]) == (seed, False, None)
    page = web_client(None).get(f"/matches/{match.id}/").content.decode()
    assert page.count("data-slice=") >= 65  # the replay draws every pizza now


def _legal_action(state: dict[str, Any]) -> dict[str, Any]:
    legal = state["legal"]
    if legal["phase"] == "cut":
        return {"type": "cut", "cuts": [0, 4, 8][: len(state["players"])], "marianne": None}
    return {"type": "take", "portion": legal["portions"][-1]["index"], "eat": [], "steals": [], "marianne": None}


@pytest.mark.system
def test_a_person_at_a_ranked_table_sees_only_the_pizza_on_the_table_and_the_seed_once_the_game_is_over(
    workers: Any, make_bots: Callable[..., list[Player]], users: dict[str, User]
) -> None:
    ann = person_of(users["alice"])
    greedy, random_bot = make_bots(1, engine="greedy") + make_bots(1, engine="random", prefix="rnd")
    match = create_live_match(game=GAME, kind=Match.Kind.ARENA, players=[ann, greedy, random_bot])
    seed = match.seed
    workers.start("table")
    seen = set()
    while True:
        wait_until(
            lambda: LiveGame.objects.get(pk=match.pk).to_act in (0, None), 60, "the bots to play", workers.tail()
        )
        live = LiveGame.objects.get(pk=match.pk)
        if live.to_act is None:
            break
        state = api_client(users["alice"]).get(f"/api/matches/{match.id}/state/").json()
        pizza = state["observation"]["pizza"]
        seen.add(pizza)
        # The pizza on the table is public; those after it are in no answer, to anyone.
        assert slice_ids(state) and not slice_ids(state) - {sid for ring in deal(seed)[: pizza + 1] for sid in ring}
        assert_nothing_leaks(
            Match.objects.get(pk=match.pk), seed, pizzas_after(seed, pizza), [None, users["alice"], users["bob"]]
        )
        played = api_client(users["alice"]).post(
            f"/api/matches/{match.id}/actions/", {"turn": live.turn, "action": _legal_action(state)}, format="json"
        )
        assert played.status_code == 200, played.json()
    assert seen == {0, 1, 2, 3, 4}
    wait_until(lambda: _status(match.id) == "finished", 60, "the result to be committed", workers.tail())
    assert api_client(users["bob"]).get(f"/api/matches/{match.id}/record/").json()["seed"] == seed
    assert api_client(None).get(f"/api/matches/{match.id}/").json()["seed"] == seed


class RecordingBot(BotSession):
    """A bot session that keeps every protocol message it is sent and answers the house greedy's move."""

    def __init__(self, state: State, seat: int) -> None:
        super().__init__()
        self.state, self.seat = state, seat
        self.messages: list[dict[str, Any]] = []
        self.engine = get_bot("greedy", seed=1)

    def _launch(self) -> None:
        pass

    def _exchange(self, message: dict[str, Any], timeout_s: float, reply: bool) -> Exchange:
        self.messages.append(message)
        if message["type"] == "start":
            return Exchange(b'{"type": "ready"}')
        if message["type"] == "act":
            action = self.engine.act(self.state.observation(self.seat))
            return Exchange(json.dumps(action.to_json()).encode())
        return Exchange(None)

    def _shutdown(self) -> None:
        pass


def test_protocol_messages_to_a_bot_carry_no_seed_and_no_pizza_to_come() -> None:
    seed = 1_234_567_891
    state = State.new(3, seed)
    bot = RecordingBot(state, 1)
    played = play_with_sessions(state, [get_bot("random", seed=2), bot, get_bot("greedy", seed=3)], {})
    assert not any(played.forfeited) and state.is_over
    kinds = [message["type"] for message in bot.messages]
    assert kinds[0] == "start" and kinds[-1] == "end" and kinds.count("act") >= 5
    for message in bot.messages:
        if message["type"] == "act":
            hidden = pizzas_after(seed, message["observation"]["pizza"])
        else:
            hidden = pizzas_after(seed, -1) if message["type"] == "start" else set()
        assert not leaks(json.dumps(message), seed, hidden), message


def _tournament_pair(seed: int, statuses: tuple[str, str]) -> list[Match]:
    """Two tables of one duplicate tournament deal, with the given statuses."""
    boss = User.objects.get_or_create(username="organiser", defaults={"is_staff": True})[0]
    tournament = Tournament.objects.create(
        name="cup", game=GAME, format="round_robin", table_size=2, duplicate=True, rated=False, created_by=boss
    )
    a, b = Player.objects.get(name="random"), Player.objects.get(name="greedy")
    matches = []
    for rotation, status in enumerate(statuses):
        match = Match.objects.create(game=GAME, kind="friendly", rated=False, seed=seed, status=status)
        seated = [a, b] if rotation == 0 else [b, a]
        MatchSeat.objects.bulk_create([MatchSeat(match=match, seat=i, player=p) for i, p in enumerate(seated)])
        TournamentGame.objects.create(
            tournament=tournament, match=match, round=1, table=0, deal=0, rotation=rotation, entries=[1, 2]
        )
        matches.append(match)
    return matches


def test_a_finished_table_is_held_back_while_another_table_of_its_deal_plays_and_a_failed_one_counts_as_over(
    db: None,
) -> None:
    done, playing = _tournament_pair(77, ("finished", "running"))
    assert "shares its deal with 1 table of tournament" in (held_back_reason(done) or "")
    assert not may_show_secrets(done)
    Match.objects.filter(pk=playing.pk).update(status="failed")
    assert held_back_reason(done) is None and held_back_reason(Match.objects.get(pk=playing.pk)) is None
    # A match outside any tournament is shown once over, and never before.
    lone = Match.objects.create(game=GAME, kind="friendly", rated=False, seed=78, status="queued")
    assert "status queued" in (held_back_reason(lone) or "")
    lone.status = "finished"
    assert held_back_reason(lone) is None


def test_the_admin_shows_a_running_match_s_seed_to_staff_without_a_seat_at_it_only(
    db: None, make_bots: Callable[..., list[Player]]
) -> None:
    boss = User.objects.create_user("boss", password="a-long-passphrase", is_staff=True, is_superuser=True)
    seated = User.objects.create_user("seated", password="a-long-passphrase", is_staff=True, is_superuser=True)
    outsider = User.objects.create_user("outsider", password="a-long-passphrase")
    bots = make_bots(1)
    player = person_of(seated)
    match = Match.objects.create(game=GAME, kind="ranked", rated=True, seed=1_357_924_680, status="running")
    MatchSeat.objects.bulk_create(
        [MatchSeat(match=match, seat=0, player=player), MatchSeat(match=match, seat=1, player=bots[0])]
    )
    url = f"/admin/arena/match/{match.id}/change/"
    assert "1357924680" in web_client(boss).get(url).content.decode()
    for user in (seated, outsider):
        page = web_client(user).get(url, follow=True)
        assert page.status_code == 200 and "1357924680" not in page.content.decode(), user.username
    Match.objects.filter(pk=match.pk).update(status="finished")
    assert "1357924680" in web_client(seated).get(url).content.decode()


def test_the_admin_shows_a_live_game_s_record_so_far_to_staff_without_a_seat_at_it_only(
    db: None, make_bots: Callable[..., list[Player]]
) -> None:
    boss = User.objects.create_user("boss", password="a-long-passphrase", is_staff=True, is_superuser=True)
    seated = User.objects.create_user("seated", password="a-long-passphrase", is_staff=True, is_superuser=True)
    match = create_live_match(game=GAME, kind=Match.Kind.ARENA, players=[person_of(seated), make_bots(1)[0]])
    url = f"/admin/play/livegame/{match.id}/change/"
    last_pizza = [f"&quot;id&quot;: {sid}," for sid in deal(match.seed)[4]]
    assert all(mark in web_client(boss).get(url).content.decode() for mark in last_pizza)
    page = web_client(seated).get(url).content.decode()
    assert "pizzas" not in page and not any(mark in page for mark in last_pizza)


def test_a_bot_s_log_of_a_table_whose_deal_is_still_played_elsewhere_is_held_back_from_its_owner(db: None) -> None:
    owner = User.objects.create_user("olga", password="a-long-passphrase")
    done, playing = _tournament_pair(4242, ("finished", "running"))
    player = Player.objects.create(name="olga-bot", kind=Player.Kind.BOT, owner=owner)
    bot = SubmittedBot.objects.create(player=player, game=GAME)
    version = BotVersion.objects.create(bot=bot, number=1, source="upload", filename="bot.py", status="active")
    MatchSeat.objects.filter(match=done, seat=0).update(player=player)
    BotSeat.objects.create(
        match=done,
        seat=0,
        player=player,
        version=version,
        played=True,
        forfeited=True,
        forfeit_reason="illegal: slice 23 is not in portion 1",
        moves=[{"turn": 0, "status": "ok", "latency_ms": 3.0, "error": None, "stderr": "first pizza: 23 40 7"}],
        stderr="first pizza: 23 40 7",
    )
    api = api_client(owner)
    rows = api.get(f"/api/bots/{player.id}/matches/").json()["results"]
    assert [(r["match"], r["held_back"], r["moves"], r["stderr"], r["forfeit_reason"]) for r in rows] == [
        (done.id, True, None, None, None)
    ]
    assert rows[0]["forfeited"] is True and "still playing" in rows[0]["held_back_reason"]
    page = web_client(owner).get("/my-bots/").content.decode()
    assert "first pizza" not in page and "slice 23" not in page
    Match.objects.filter(pk=playing.pk).update(status="finished")
    rows = api.get(f"/api/bots/{player.id}/matches/").json()["results"]
    assert (rows[0]["held_back"], rows[0]["stderr"]) == (False, "first pizza: 23 40 7")
    assert "first pizza" in web_client(owner).get("/my-bots/").content.decode()
