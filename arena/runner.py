"""Playing a match's game with the bots seated at it, outside any database transaction.

Every seat's player is resolved to something that acts through `bot_for_player`, the one place
where other kinds of players (submitted bots, people at a table) plug in.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from arena.models import Player
from games.part_du_chef.bots import BOT_NAMES, get_bot
from games.registry import get_game


class SeatBot(Protocol):
    def act(self, observation: Any) -> Any: ...


class UnplayablePlayer(ValueError):
    """This player cannot be seated in a match played by the service."""


def check_playable(player: Player) -> None:
    if player.kind != Player.Kind.BOT:
        raise UnplayablePlayer(
            f"player {player.id} ({player.name}) is a person; only bots can be seated in matches played by the service"
        )
    if player.builtin not in BOT_NAMES:
        raise UnplayablePlayer(f"bot {player.id} ({player.name}) has no playable version")


def bot_for_player(player: Player, seed: int) -> SeatBot:
    check_playable(player)
    bot: SeatBot = get_bot(player.builtin, seed=seed)
    return bot


def seat_seed(match_seed: int, seat: int) -> int:
    """Each seat's bot gets its own reproducible seed derived from the match seed."""
    return (match_seed * 1_000_003 + 7919 * (seat + 1)) % (2**63)


@dataclass(frozen=True)
class PlayedGame:
    record: dict[str, Any]
    totals: tuple[int, ...]
    ranks: tuple[int, ...]
    forfeited: tuple[bool, ...]


def play(
    game: str,
    players: Sequence[Player],
    seed: int,
    options: dict[str, Any],
    *,
    move_delay: float = 0.0,
) -> PlayedGame:
    spec = get_game(game)
    bots = [bot_for_player(player, seat_seed(seed, seat)) for seat, player in enumerate(players)]
    state = spec.new_state(len(players), seed, options)
    while not state.is_over:
        seat = state.to_act
        if move_delay > 0:
            time.sleep(move_delay)
        action = bots[seat].act(state.observation(seat))
        state.apply(action)
    record = state.to_record([player.name for player in players])
    scores = state.scores()
    return PlayedGame(
        record=record,
        totals=tuple(int(score.total) for score in scores),
        ranks=tuple(int(rank) for rank in state.ranks()),
        forfeited=tuple(False for _ in players),
    )
