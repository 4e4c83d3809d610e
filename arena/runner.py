"""Playing a match's game with the bots seated at it, outside any database transaction.

Every seat's player is resolved to something that acts through the seat kinds registered in
`arena.seats` (built-in engines here, submitted bots by submissions).
"""

from __future__ import annotations

import hashlib
import hmac
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings

from arena import seats
from arena.models import Player
from arena.seats import SeatBot
from botclient import BotSession, StdioBot
from botclient.match import play_with_sessions
from games.part_du_chef.bots.search import SearchBot
from games.part_du_chef.recording import record_of
from games.part_du_chef.seating import Pace
from games.registry import get_game


def seat_bots(players: Sequence[Player], seed: int, *, match_id: int | None = None) -> list[SeatBot | BotSession]:
    """What plays each seat, from the seat kinds' registered hooks (`arena.seats`), each with its seat's seed."""
    return [
        seats.bot_for(player, seat_seed(seed, seat), match_id=match_id, seat=seat)
        for seat, player in enumerate(players)
    ]


def seat_seed(match_seed: int, seat: int) -> int:
    """Each seat's bot gets its own reproducible seed derived from the match seed, keyed with the
    server's secret key: a built-in bot's choices follow from its seed, so with a public formula one
    could search the match seeds for the one that explains a bot's moves, and so read the deal."""
    key = str(settings.SECRET_KEY).encode()
    digest = hmac.new(key, f"seat-seed:{match_seed}:{seat}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@dataclass(frozen=True)
class SeatLog:
    """How a submitted bot's seat went: its version, every decision, what it wrote to stderr."""

    seat: int
    version_id: int | None
    moves: list[dict[str, Any]]
    stderr: str
    forfeit_reason: str | None


@dataclass(frozen=True)
class PlayedGame:
    record: dict[str, Any]
    totals: tuple[int, ...]
    forfeited: tuple[bool, ...]
    seat_logs: tuple[SeatLog, ...] = ()
    # Per action of the record: True where the stand-in decided for a seat that forfeited.
    stand_in: tuple[bool, ...] | None = None
    # Per seat, why it forfeited (None: it did not, or no reason is known).
    forfeit_reasons: tuple[str | None, ...] = ()


def play(
    game: str,
    players: Sequence[Player],
    seed: int,
    options: dict[str, Any],
    *,
    move_delay: float = 0.0,
    match_id: int | None = None,
    pace: Pace | None = None,
    bots: Sequence[SeatBot | BotSession] | None = None,
    deadline: float | None = None,
    derived: bool = True,
) -> PlayedGame:
    """Play the match's game to its end with its seats' bots.

    `derived=False`: the record is written without the fields that follow from its seed and actions
    (`games.part_du_chef.record.DERIVED_FIELDS`), for the finisher, which stores it without them
    (`arena.packed`) and writes them again on read.

    `pace` holds the game back where the tables of one duplicate deal wait for each other
    (botclient.lockstep): before each decision and before the final scores. `bots`: the seats'
    bots made beforehand (`seat_bots`), where the game is played on a thread of its own.
    `deadline` (time.monotonic()): when the game must be over; built-in search bots think within it
    (an even share of the time left per decision), so a slow machine never makes a match fail.
    """
    spec = get_game(game)
    if bots is None:
        bots = seat_bots(players, seed, match_id=match_id)
    if deadline is not None:
        for bot in bots:
            if isinstance(bot, SearchBot):
                bot.deadline = deadline
    state = spec.new_state(len(players), seed, options)
    engines: list[SeatBot] = [bot for bot in bots if not isinstance(bot, BotSession)]
    if len(engines) < len(bots):
        return _play_with_sessions(state, players, bots, seed, options, pace, derived)
    while not state.is_over:
        seat = state.to_act
        assert seat is not None  # a game that is not over has a seat to act
        if pace is not None:
            pace(state)
        if move_delay > 0:
            time.sleep(move_delay)
        action = engines[seat].act(state.observation(seat))
        state.apply(action)
    record = _record(state, players, derived)
    scores = state.scores()
    return PlayedGame(
        record=record,
        totals=tuple(int(score.total) for score in scores),
        forfeited=tuple(False for _ in players),
    )


def _record(state: Any, players: Sequence[Player], derived: bool) -> dict[str, Any]:
    # The rules package's own writer (what `State.to_record` calls), with its `derived` choice: the
    # compiled state keeps the signature its build was stamped with.
    return record_of(state, [player.name for player in players], derived=derived)


# Per decision, what a bot wrote to stderr is kept up to this many characters in the match log.
MOVE_STDERR_CHARS = 1024
SEAT_STDERR_CHARS = 16 * 1024


def _play_with_sessions(
    state: Any,
    players: Sequence[Player],
    bots: Sequence[SeatBot | BotSession],
    seed: int,
    options: dict[str, Any],
    pace: Pace | None,
    derived: bool,
) -> PlayedGame:
    """Submitted bots under the failure policy: a failing seat forfeits and `greedy` plays it on."""
    played = play_with_sessions(state, bots, options, replacement_seed=seat_seed(seed, len(players)), pace=pace)
    logs = []
    for seat, bot in enumerate(bots):
        if not isinstance(bot, BotSession):
            continue
        moves = []
        for move in played.moves:
            if move.seat == seat:
                entry = move.to_json()
                entry["stderr"] = entry["stderr"][-MOVE_STDERR_CHARS:]
                moves.append(entry)
        stderr = bot.stderr_log if isinstance(bot, StdioBot) else ""
        logs.append(
            SeatLog(
                seat=seat,
                version_id=getattr(bot, "version_id", None),
                moves=moves,
                stderr=stderr[-SEAT_STDERR_CHARS:],
                forfeit_reason=played.forfeit_reasons[seat],
            )
        )
    record = _record(state, players, derived)
    return PlayedGame(
        record=record,
        totals=tuple(int(score.total) for score in state.scores()),
        forfeited=tuple(played.forfeited),
        seat_logs=tuple(logs),
        stand_in=tuple(played.stand_in),
        forfeit_reasons=tuple(played.forfeit_reasons),
    )
