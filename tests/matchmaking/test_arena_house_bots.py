"""House bots in the bots' arena: a bot that has waited gets the built-in ladder in its empty seats."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from arena.builtin import BUILTIN_BOTS
from arena.models import Match, Player
from games.part_du_chef.bots import BOT_NAMES, get_bot, noisy_share
from matchmaking import matchmaker
from matchmaking.entries import enter_arena
from ratings.models import Rating
from results.batches import run_match

GAME = "part-du-chef"
LADDER = (
    "random",
    "noisy-greedy-65",
    "noisy-greedy-45",
    "noisy-greedy-25",
    "noisy-greedy-15",
    "greedy",
    "search-fast",
    "search",
)


@pytest.fixture
def owner(db: None) -> User:
    return User.objects.create_user("newcomer")


def owned_bots(owner: User, count: int) -> list[Player]:
    return [
        Player.objects.create(name=f"{owner.username}-bot-{i}", kind=Player.Kind.BOT, builtin="random", owner=owner)
        for i in range(count)
    ]


def seated(match_id: int) -> list[Player]:
    return [seat.player for seat in Match.objects.get(pk=match_id).seats.select_related("player").order_by("seat")]


def test_search_fast_is_a_built_in_engine_with_a_player_of_its_own(db: None) -> None:
    assert "search-fast" in BOT_NAMES and get_bot("search-fast", 1).name == "search-fast"
    bot = Player.objects.get(name="search-fast")
    assert (bot.kind, bot.builtin, bot.owner) == ("bot", "search-fast", None)


def test_the_default_ladder_is_every_built_in_bot_from_the_weakest_up(settings) -> None:
    assert tuple(settings.ARENA_HOUSE_LADDER) == LADDER == BUILTIN_BOTS


@pytest.mark.parametrize("name", [name for name in LADDER if noisy_share(name) is not None])
def test_a_noisy_greedy_rung_is_a_house_bot_played_by_its_engine(db: None, name: str) -> None:
    bot = Player.objects.get(name=name)
    assert (bot.kind, bot.builtin, bot.owner) == ("bot", name, None)
    assert bot.is_builtin and bot.is_house_bot and not bot.is_submitted_bot
    assert get_bot(bot.builtin, 1).name == name


@pytest.mark.parametrize("size", [2, 3, 4, 5])
def test_a_lone_placed_bot_gets_house_bots_once_it_has_waited_the_setting(owner, settings, size) -> None:
    settings.ARENA_HOUSE_AFTER_SECONDS_BOTS = 10
    (mine,) = owned_bots(owner, 1)
    Rating.objects.create(player=mine, game=GAME, kind="bot", rating=1500.0, games=40)  # placed long ago
    enter_arena(player_id=mine.id, game=GAME, table_size=size, entered_by=owner)
    now = timezone.now()
    assert matchmaker.tick(now + timedelta(seconds=9)) == []
    created = matchmaker.tick(now + timedelta(seconds=11))
    assert len(created) == 1
    match = Match.objects.get(pk=created[0])
    assert (match.kind, match.rated, match.status) == ("arena", True, "queued")
    players = seated(created[0])
    assert mine in players and len(players) == size
    house = [p for p in players if p != mine]
    assert all(p.owner is None and p.builtin in LADDER for p in house)
    assert len({p.id for p in house}) == size - 1


def test_three_bots_of_one_owner_each_get_a_table_of_their_own_with_house_bots(owner, settings) -> None:
    settings.ARENA_HOUSE_AFTER_SECONDS_BOTS = 10
    settings.ARENA_BOT_PLACEMENT_GAMES = 0
    mine = owned_bots(owner, 3)
    for bot in mine:
        enter_arena(player_id=bot.id, game=GAME, table_size=4, entered_by=owner)
    created = matchmaker.tick(timezone.now() + timedelta(seconds=11))
    assert len(created) == 3
    for match_id in created:
        players = seated(match_id)
        assert len([p for p in players if p.owner_id == owner.id]) == 1
        assert len(players) == 4


def test_a_placed_bot_meets_every_rung_of_the_ladder_before_meeting_one_again(owner, settings) -> None:
    settings.ARENA_HOUSE_AFTER_SECONDS_BOTS = 0
    settings.ARENA_BOT_PLACEMENT_GAMES = 0
    (mine,) = owned_bots(owner, 1)
    enter_arena(player_id=mine.id, game=GAME, table_size=2, entered_by=owner)
    met = []
    for _ in range(len(LADDER)):
        created = matchmaker.tick(timezone.now() + timedelta(seconds=1))
        assert len(created) == 1
        assert run_match(created[0]) == "finished"
        (house,) = [p for p in seated(created[0]) if p != mine]
        met.append(house.builtin)
    assert sorted(met) == sorted(LADDER)
    assert Match.objects.filter(kind="arena", status="finished", rated=True).count() == len(LADDER)


def test_house_bots_do_not_fill_seats_for_a_house_bot_or_before_the_wait(owner, settings) -> None:
    settings.ARENA_HOUSE_AFTER_SECONDS_BOTS = 10
    greedy = Player.objects.get(name="greedy")
    enter_arena(player_id=greedy.id, game=GAME, table_size=2, entered_by=None)
    assert matchmaker.tick(timezone.now() + timedelta(seconds=60)) == []


def test_no_ladder_configured_means_the_bot_waits_for_bots(owner, settings) -> None:
    settings.ARENA_HOUSE_AFTER_SECONDS_BOTS = 0
    settings.ARENA_HOUSE_LADDER = []
    (mine,) = owned_bots(owner, 1)
    enter_arena(player_id=mine.id, game=GAME, table_size=2, entered_by=owner)
    assert matchmaker.tick(timezone.now() + timedelta(seconds=60)) == []


def test_a_bot_still_placing_plays_house_bots_alone_at_once_even_with_bots_waiting(owner, settings) -> None:
    settings.ARENA_HOUSE_AFTER_SECONDS_BOTS = 3600
    settings.ARENA_BOT_PLACEMENT_GAMES = 10
    other = User.objects.create_user("regular")
    (newcomer,) = owned_bots(owner, 1)
    regulars = owned_bots(other, 1) + [
        Player.objects.create(name="third-regular", kind="bot", builtin="random", owner=User.objects.create_user("x"))
    ]
    for player in regulars:
        Rating.objects.create(player=player, game=GAME, kind="bot", rating=1500.0, games=40)
    for player in [newcomer, *regulars]:
        enter_arena(player_id=player.id, game=GAME, table_size=2, entered_by=player.owner)
    created = matchmaker.tick()
    tables = {frozenset(p.id for p in seated(match_id)) for match_id in created}
    assert frozenset(p.id for p in regulars) in tables
    (placement,) = [t for t in tables if newcomer.id in t]
    (house,) = Player.objects.filter(pk__in=placement - {newcomer.id})
    assert house.owner is None and house.builtin in LADDER


def test_a_new_version_still_provisional_is_placed_again(owner, settings) -> None:
    settings.ARENA_HOUSE_AFTER_SECONDS_BOTS = 3600
    (mine,) = owned_bots(owner, 1)
    rival = Player.objects.create(name="rival", kind="bot", builtin="random", owner=User.objects.create_user("r"))
    Rating.objects.create(player=mine, game=GAME, kind="bot", rating=1700.0, games=50, provisional_left=10)
    Rating.objects.create(player=rival, game=GAME, kind="bot", rating=1700.0, games=50)
    for player in (mine, rival):
        enter_arena(player_id=player.id, game=GAME, table_size=2, entered_by=player.owner)
    (match_id,) = matchmaker.tick()
    assert {p.id for p in seated(match_id)} != {mine.id, rival.id}
    assert mine in seated(match_id)
