"""House bots in the bots' arena: the built-in ladder fills the empty seats of a bot that has waited.

A submitted bot that has waited ARENA_BOT_HOUSE_AFTER_SECONDS without a full table is seated with
the other waiting bots that may sit with it and house bots for the remaining seats: players of the
built-in engines in ARENA_BOT_HOUSE_BOTS (random, greedy, search-fast, search) with no owner. The
house bots it has met least come first, then the nearest in rating, so a newcomer meets the
whole ladder in its first games (its placement) before it meets any rung again.

House bots have no arena entry and are shared: one house bot may sit at several tables at once.
That breaks no rule: its decisions are played per seat in each match, and each result rates it in
commit order (the ratings lock its rating row), like any other player. A bot that is itself a
house bot (a built-in engine without an owner) waits for real opponents.

Placement: a bot still placing (fewer than ARENA_BOT_PLACEMENT_GAMES rated games, or a new version
still provisional) is seated with house bots alone, at once, without waiting: the least met rung
first, so its first games go round the whole ladder and its rating lands near its level.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime, timedelta

from django.conf import settings

from arena.models import Player
from games.part_du_chef.bots import BOT_NAMES
from matchmaking.pairing import Meetings, Waiting, owner_of, pair, shares_an_owner
from ratings.elo import INITIAL_RATING
from ratings.models import Rating


def ladder() -> list[str]:
    return [name for name in settings.ARENA_BOT_HOUSE_BOTS if name in BOT_NAMES]


def is_house_bot(player: Player) -> bool:
    return player.is_house_bot


def house_players(count: int) -> list[Player]:
    """At least `count` house bots when the ladder is not empty: each engine's own player first,
    then copies under names of their own (`greedy-2`, ...) for tables larger than the ladder."""
    engines = ladder()
    if not engines:
        return []
    bots = list(Player.objects.filter(kind=Player.Kind.BOT, owner=None, builtin__in=engines).order_by("id"))
    number = 2
    while len(bots) < count:
        for name in engines:
            bot, _ = Player.objects.get_or_create(
                name=f"{name}-{number}", defaults={"kind": Player.Kind.BOT, "builtin": name}
            )
            if is_house_bot(bot) and bot.builtin == name and bot not in bots:
                bots.append(bot)
        number += 1
    return bots


def ratings_of(game: str, players: Collection[int]) -> dict[int, float]:
    return dict(Rating.objects.filter(game=game, player_id__in=list(players)).values_list("player_id", "rating"))


def choose(
    anchor: Waiting,
    members: Sequence[Waiting],
    bots: Sequence[Player],
    ratings: dict[int, float],
    meetings: Meetings,
    count: int,
) -> list[Player]:
    """`count` house bots for the anchor's table: least met by the anchor, then nearest in rating."""
    seated = {member.entry.player_id for member in members}
    free = [bot for bot in bots if bot.id not in seated]
    free.sort(
        key=lambda bot: (
            meetings.get(pair(anchor.entry.player_id, bot.id), 0),
            abs(ratings.get(bot.id, INITIAL_RATING) - anchor.rating),
            bot.id,
        )
    )
    return free[:count]


def is_placing(waiting: Waiting, games: int, provisional_left: int) -> bool:
    """Whether this bot is still being placed on the ladder (a house bot never is)."""
    if is_house_bot(waiting.entry.player) or waiting.entry.player.kind != Player.Kind.BOT:
        return False
    return games < int(settings.ARENA_BOT_PLACEMENT_GAMES) or provisional_left > 0


def fill_with_house_bots(
    left: Sequence[Waiting],
    size: int,
    now: datetime,
    bots: Sequence[Player],
    ratings: dict[int, float],
    meetings: Meetings,
    placing: Collection[int] = (),
) -> list[tuple[list[Waiting], list[Player]]]:
    """Tables for the bots still waiting after the full tables were formed: (waiting members, house bots).

    `placing`: entry ids of bots being placed; they sit with house bots alone, without waiting.
    """
    patience = timedelta(seconds=float(settings.ARENA_BOT_HOUSE_AFTER_SECONDS))
    ordered = sorted(left, key=lambda waiting: (waiting.since, waiting.entry.id))
    taken: set[int] = set()
    tables = []
    for anchor in ordered:
        if anchor.entry.id in taken or is_house_bot(anchor.entry.player):
            continue
        placement = anchor.entry.id in placing
        if not placement and now - anchor.since < patience:
            continue
        members = [anchor]
        window = anchor.window(now)
        for other in ordered:
            if placement or len(members) == size - 1:
                break  # one seat at least for the ladder: that is what the anchor waited for
            if other.entry.id in taken or other is anchor or other.entry.id in placing:
                continue
            if shares_an_owner([*(owner_of(member) for member in members), owner_of(other)]):
                continue
            if abs(other.rating - anchor.rating) <= max(window, other.window(now)):
                members.append(other)
        house = choose(anchor, members, bots, ratings, meetings, size - len(members))
        if len(house) < size - len(members):
            continue  # no ladder configured: the bot waits for bots
        tables.append((members, house))
        taken.update(member.entry.id for member in members)
    return tables
