"""Who may sit where: the one answer to "may this player sit here?", from hooks each kind of seat registers.

The match core knows only built-in bots. The feature apps register their kinds in `AppConfig.ready()`:
people (play), submitted bots (submissions). House bots are built-in bots. What kind of player one is,
the player answers itself (`Player.is_person`, `is_builtin`, `is_submitted_bot`); a kind registers only
what is pluggable: why one may not sit at a given kind of match (or None), and for matches the service
plays by itself, what plays the seat.

Where a player may sit:
- MATCH: a match the service plays in one go (bot matches, validation and tournament games);
- TABLE: a match played decision by decision, with people;
- ARENA: the ranked arena's waiting pool.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

from arena.errors import UnplayablePlayer
from arena.models import Player
from games.part_du_chef.bots import get_bot


class Where(StrEnum):
    MATCH = "match"
    TABLE = "table"
    ARENA = "arena"


class SeatBot(Protocol):
    def act(self, observation: Any) -> Any: ...


# (player, seat seed, match id or None, seat) -> what acts for the seat in a service-played match.
BotFactory = Callable[[Player, int, "int | None", int], Any]


@dataclass(frozen=True)
class SeatKind:
    name: str
    answers_for: Callable[[Player], bool]
    # (player, where, the version pinned to the seat or None) -> why not, or None.
    refusal: Callable[[Player, Where, Any], str | None]
    bot: BotFactory | None = None
    # (player, the account asking to seat it in a friendly match or table) -> why it may not, or None.
    challenge: Callable[[Player, Any], str | None] | None = None


_kinds: dict[str, SeatKind] = {}


def register(kind: SeatKind) -> None:
    """Add (or replace, on a second ready()) a kind of seat; the first kind that answers wins."""
    _kinds[kind.name] = kind


def kind_of(player: Player) -> SeatKind | None:
    for kind in _kinds.values():
        if kind.answers_for(player):
            return kind
    return None


def refusal(player: Player, where: Where, pin: Any = None) -> str | None:
    """Why `player` may not sit at `where` now, or None. The one message for every path.

    `pin`: what the seat is pinned to (a submitted bot's version for validation and tournament
    games); the kind that registered it understands it, the core passes it through.
    """
    kind = kind_of(player)
    if kind is None:
        return f"bot {player.id} ({player.name}) has no playable version"
    return kind.refusal(player, where, pin)


def check(player: Player, where: Where, pin: Any = None) -> None:
    reason = refusal(player, where, pin)
    if reason is not None:
        raise UnplayablePlayer(reason)


def challenge_refusal(player: Player, challenger: Any) -> str | None:
    """Why the account `challenger` may not seat `player` (its owner's choice), or None."""
    kind = kind_of(player)
    if kind is None or kind.challenge is None:
        return None
    return kind.challenge(player, challenger)


def bot_for(player: Player, seed: int, *, match_id: int | None, seat: int) -> Any:
    """What plays this seat in a match the service plays by itself (the kind checks the seat's pin)."""
    kind = kind_of(player)
    if kind is None or kind.bot is None:
        raise UnplayablePlayer(refusal(player, Where.MATCH) or f"player {player.id} cannot play here")
    return kind.bot(player, seed, match_id, seat)


register(
    SeatKind(
        name="built-in bot",
        answers_for=lambda player: player.is_builtin,
        refusal=lambda player, where, pin: None,
        bot=lambda player, seed, match_id, seat: get_bot(player.builtin, seed=seed),
    )
)
