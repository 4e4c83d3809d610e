"""The bot owners' page: one's own bots with versions, validation, logs, latency and forfeits."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from arena.models import Match, MatchSeat, Player
from matchmaking.entries import enter_arena
from ratings.models import Rating
from submissions.models import BotComparison, BotSeat, BotVersion, SubmittedBot


def make_bot(owner: Any, name: str, seats: list[tuple[bool, list[int]]]) -> Any:
    player = Player.objects.create(name=name, kind=Player.Kind.BOT, owner=owner)
    bot = SubmittedBot.objects.create(player=player, game="part-du-chef")
    BotVersion.objects.create(
        bot=bot,
        number=1,
        source="upload",
        filename="bot.py",
        status="rejected",
        reason="crashed on move 3",
        log=[{"game": 1, "stderr": "Traceback: boom"}],
    )
    version = BotVersion.objects.create(bot=bot, number=2, source="upload", filename="bot2.py", status="active")
    opponent = Player.objects.get(name="random")
    for forfeited, latencies in seats:
        match = Match.objects.create(game="part-du-chef", kind="arena", rated=True, seed=1, status="finished")
        MatchSeat.objects.create(match=match, seat=0, player=player, forfeited=forfeited)
        MatchSeat.objects.create(match=match, seat=1, player=opponent)
        BotSeat.objects.create(
            match=match,
            seat=0,
            player=player,
            version=version,
            played=True,
            forfeited=forfeited,
            forfeit_reason="too slow" if forfeited else "",
            moves=[{"turn": i, "status": "ok", "latency_ms": ms} for i, ms in enumerate(latencies)],
        )
    return player


def test_an_owner_sees_versions_validation_latency_and_forfeits_of_their_bots_only(
    db: None, django_assert_num_queries: Any
) -> None:
    owner = User.objects.create_user("olga", password="a-long-passphrase")
    other = User.objects.create_user("piet", password="a-long-passphrase")
    make_bot(owner, "olga-bot", [(False, [10, 20, 30]), (True, [40, 5000])])
    make_bot(other, "piet-bot", [(False, [1])])
    client = Client()
    client.force_login(owner)
    # Session, user, bots with players, versions, ratings, seat totals, recent seats, their tournament deals,
    # arena entries, the latest comparisons of all the bots, the head-to-head and seat tables of the one bot.
    with django_assert_num_queries(12):
        response = client.get("/my-bots/")
    body = response.content.decode()
    assert response.status_code == 200
    assert "olga-bot" in body and "piet-bot" not in body
    assert "crashed on move 3" in body and "Traceback: boom" in body and "bot2.py" in body
    assert "too slow" in body
    # Two seats, one forfeited; latencies 10, 20, 30, 40, 5000 ms: median 30, max 5000.
    assert "50.0 %" in body and "30 / 5000 / 5000 ms" in body


def test_the_bot_page_needs_an_account(db: None) -> None:
    assert Client().get("/my-bots/").status_code == 302


def test_a_bot_still_playing_its_active_version_shows_active_while_a_new_one_validates(db: None) -> None:
    owner = User.objects.create_user("olga", password="a-long-passphrase")
    player = make_bot(owner, "olga-bot", [])
    BotVersion.objects.create(bot_id=player.id, number=3, source="upload", filename="bot3.py", status="validating")
    client = Client()
    client.force_login(owner)
    body = client.get("/my-bots/").content.decode()
    assert '<span class="badge">active</span>' in body
    api = APIClient()
    api.force_authenticate(owner)
    assert api.get(f"/api/bots/{player.id}/").json()["status"] == "active"


def test_an_owner_sees_why_their_bot_waits_in_the_arena_and_for_about_how_long(db: None, settings: Any) -> None:
    settings.ARENA_HOUSE_AFTER_SECONDS_BOTS = 10.0
    owner = User.objects.create_user("olga", password="a-long-passphrase")
    player = make_bot(owner, "olga-bot", [])
    Rating.objects.create(player=player, game="part-du-chef", kind="bot", rating=1500.0, games=40)
    enter_arena(player_id=player.id, game="part-du-chef", table_size=3, entered_by=owner)
    client = Client()
    client.force_login(owner)
    body = client.get("/my-bots/").content.decode()
    assert "In the arena" in body and "3-player tables: waiting for bots of other owners" in body
    assert "house bots fill the empty seats after 10 s of waiting" in body and "(about 12 s)" in body


def test_an_owner_sees_the_head_to_head_table_of_their_bot(db: None) -> None:
    owner = User.objects.create_user("olga", password="a-long-passphrase")
    player = make_bot(owner, "olga-bot", [(False, [10]), (False, [10]), (True, [10])])
    for index, seat in enumerate(MatchSeat.objects.filter(match__seats__player=player).order_by("match_id", "seat")):
        mine_first = index < 4 and seat.seat == 0 or index >= 4 and seat.seat == 1
        seat.rank = 1 if mine_first else 2
        seat.save(update_fields=["rank"])
    client = Client()
    client.force_login(owner)
    body = client.get("/my-bots/").content.decode()
    assert "Head to head" in body
    # Against random: 3 rated games, 2 won, placed above twice, mean placing (1 + 1 + 2) / 3.
    assert ">random</a></td><td>3</td><td>2</td><td>2</td><td>1.33</td>" in body


def test_a_running_comparison_shows_its_deals_done_and_running_estimate_and_is_watched(db: None) -> None:
    owner = User.objects.create_user("olga", password="a-long-passphrase")
    player = make_bot(owner, "olga-bot", [])
    v1, v2 = BotVersion.objects.filter(bot_id=player.id).order_by("number")
    running = BotComparison.objects.create(
        bot_id=player.id,
        version=v2,
        against=v1,
        deals=6,
        opponents=["greedy"],
        seed=1,
        games_total=24,
        status="running",
        deals_done=2,
        games_done=8,
        estimate={"mean": 1.25, "ci95": 0.5, "n": 2},
    )
    client = Client()
    client.force_login(owner)
    body = client.get("/my-bots/").content.decode()
    assert "2 of at most 6 deals" in body
    assert "so far: 1.25 ± 0.50 points per game" in body
    assert f'data-comparing="/api/bots/{player.id}/compares/{running.id}/"' in body and 'data-deals-done="2"' in body
