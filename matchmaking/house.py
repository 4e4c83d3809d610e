"""House bots: the built-in ladder that fills the empty seats of a table in either arena pool.

One supplier for both pools. A bot or a person that has waited without a full table
(ARENA_HOUSE_AFTER_SECONDS_BOTS, ARENA_HOUSE_AFTER_SECONDS_PEOPLE) is seated with the others waiting
that may sit with it and house bots for the remaining seats: players of the built-in engines in
ARENA_HOUSE_LADDER (random, noisy-greedy-65, -45, -25, -15, greedy, search-fast, search: the noisy
rungs are greedy with that share of random moves, so that neighbouring rungs are about 100 to 150 Elo
apart) with no owner. The house bots the anchor has met least come first, then the nearest in rating.

House bots have no arena entry and are shared: one house bot may sit at several tables at once.
That breaks no rule: its decisions are played per seat in each match, and each result rates it in
commit order (the ratings lock its rating row), like any other player. A bot that is itself a
house bot (a built-in engine without an owner) waits for real opponents.

Placement: a bot still placing (fewer than ARENA_BOT_PLACEMENT_GAMES rated games, or a new version
still provisional) is seated with house bots alone, at once, without waiting: the rung rated
nearest below its rating and the one nearest above (at a table with one house seat, the side it has
met less), then the next nearest. A game tells most between players near even odds, and while the
bot's rating is unsure that is still where the rungs tell most on average over where it may truly lie:
rungs one or half a deviation either side of it placed newcomers worse in simulated arenas with six
rungs (bench/rating_systems.py --spread 1 and 0.5 against 0: a mean error after 10 games of 0.110 and
0.099 of the ladder's span against 0.089; docs/ratings.md). Ties go to the rung it has met least, then
the lower id, so the choice is deterministic.

The choice is only as good as the rungs' own ratings, so it is made among the settled rungs (current
deviation, grown with idle days, at most SETTLED_DEVIATION; an unrated rung is not settled) whenever
enough of the free rungs are settled to fill the table, else among all free rungs. A rung added to the
ladder, or every rung of a fresh database, is unsettled: it gets its games as any other anchor's least
met rung, or at once from `manage.py settle_house_ladder`, which plays the ladder's rungs against those
one and two steps away until each is settled and their ratings are in ladder order. A settled rung is
also pinned in a placing bot's games (ratings.pinning): they rate the bot against it and leave the
rung's own rating as it is, so placing bots do not move the rungs that place them.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.conf import settings
from django.utils import timezone

from arena.models import Player
from common.renamed_settings import deprecation, old_names
from games.part_du_chef.bots import is_bot_name
from matchmaking.pairing import Meetings, Waiting, pair
from ratings.elo import INITIAL_DEVIATION, INITIAL_RATING
from ratings.models import Rating, current_deviation
from ratings.pinning import SETTLED_DEVIATION

log = logging.getLogger(__name__)
_warned: set[str] = set()


def setting(name: str) -> Any:
    """A setting of the house family; a settings module still assigning an old name is honoured
    (and told once per process to rename it; `manage.py check` says so too)."""
    for old in old_names(name):
        if hasattr(settings, old):
            if old not in _warned:
                _warned.add(old)
                log.warning("%s", deprecation(old))
            return getattr(settings, old)
    return getattr(settings, name)


def ladder() -> list[str]:
    return [name for name in setting("ARENA_HOUSE_LADDER") if is_bot_name(name)]


def patience(people: bool) -> float:
    """Seconds a member of the pool waits without a full table before house bots fill the seats."""
    return float(setting("ARENA_HOUSE_AFTER_SECONDS_PEOPLE" if people else "ARENA_HOUSE_AFTER_SECONDS_BOTS"))


def ladder_players() -> list[Player]:
    """The ladder's own players (no copies), weakest first as the ladder lists them: what the lobby shows."""
    engines = ladder()
    own = Player.objects.filter(kind=Player.Kind.BOT, owner=None, name__in=engines)
    players = {player.name: player for player in own if player.builtin == player.name}
    return [players[name] for name in engines if name in players]


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
            if bot.is_house_bot and bot.builtin == name and bot not in bots:
                bots.append(bot)
        number += 1
    return bots


def is_placing(waiting: Waiting, games: int, provisional_left: int) -> bool:
    """Whether this bot is still being placed on the ladder (a house bot or a person never is)."""
    if waiting.entry.player.is_house_bot or waiting.entry.player.is_person:
        return False
    return games < int(settings.ARENA_BOT_PLACEMENT_GAMES) or provisional_left > 0


@dataclass
class HouseBots:
    """The ladder's players for one pool's tables, with their ratings (read once per pool and tick)."""

    players: list[Player]
    ratings: dict[int, float] = field(default_factory=dict)
    # Per rated rung: its deviation at its last rated game and that game's time (grown when read).
    deviations: dict[int, tuple[float, datetime | None]] = field(default_factory=dict)

    @classmethod
    def load(cls, game: str, size: int) -> HouseBots:
        players = house_players(size - 1)
        rows = Rating.objects.filter(game=game, player_id__in=[bot.id for bot in players]).values_list(
            "player_id", "rating", "deviation", "rated_at"
        )
        ratings: dict[int, float] = {}
        deviations: dict[int, tuple[float, datetime | None]] = {}
        for player_id, rating, deviation, rated_at in rows:
            ratings[player_id] = rating
            deviations[player_id] = (deviation, rated_at)
        return cls(players, ratings, deviations)

    def deviation(self, bot: Player, now: datetime) -> float:
        """The rung's current deviation at `now` (an unrated rung has the initial one)."""
        deviation, rated_at = self.deviations.get(bot.id, (INITIAL_DEVIATION, None))
        return current_deviation(deviation, rated_at, now)

    def settled(self, bot: Player, now: datetime) -> bool:
        return self.deviation(bot, now) <= SETTLED_DEVIATION

    def __bool__(self) -> bool:
        return bool(self.players)

    @property
    def ids(self) -> list[int]:
        return [bot.id for bot in self.players]

    def choose(
        self,
        anchor: Waiting,
        members: Sequence[Waiting],
        meetings: Meetings,
        count: int,
        placing: bool = False,
        now: datetime | None = None,
    ) -> list[Player]:
        """`count` house bots for the anchor's table. A bot still `placing` meets the rung rated nearest
        below its rating and the nearest above, then the next nearest, among the rungs settled at `now`
        when at least `count` of the free ones are; any other anchor the rungs it has met least, then
        the nearest in rating. Ties go to the rung met least, then the lower id."""
        seated = {member.entry.player_id for member in members}
        free = [bot for bot in self.players if bot.id not in seated]

        def met(bot: Player) -> int:
            return meetings.get(pair(anchor.entry.player_id, bot.id), 0)

        def rating(bot: Player) -> float:
            return self.ratings.get(bot.id, INITIAL_RATING)

        def apart(bot: Player, target: float) -> float:
            return abs(rating(bot) - target)

        if not placing:
            free.sort(key=lambda bot: (met(bot), apart(bot, anchor.rating), bot.id))
            return free[:count]

        # An unsettled rung's rating may be a step or more off: choosing by it would place the bot
        # by a guess. Left out when the settled rungs can fill the table, so that a bot placing while
        # the ladder settles still gets its games.
        if now is None:
            now = timezone.now()
        settled = [bot for bot in free if self.settled(bot, now)]
        if len(settled) >= count:
            free = settled

        def below(bot: Player) -> bool:
            return rating(bot) < anchor.rating

        met_below = sum(met(bot) for bot in self.players if below(bot))
        met_above = sum(met(bot) for bot in self.players if not below(bot))
        # A table with one house seat takes the side the anchor has met less (below on a tie), so that
        # a bot placed at tables of two meets the rungs below and above it in turn.
        sides = [True, False] if met_below <= met_above else [False, True]
        chosen: list[Player] = []
        for seat in range(count):
            if not free:
                break
            # One rung from each side first (either side may be empty beyond the ladder's ends).
            side = [bot for bot in free if below(bot) == sides[seat]] if seat < len(sides) else []
            bot = min(side or free, key=lambda bot: (apart(bot, anchor.rating), met(bot), bot.id))
            chosen.append(bot)
            free.remove(bot)
        return chosen
