"""Playing one game with external bots under the failure policy (pure Python, no database).

A seat is either a built-in bot (``act(Observation) -> Action``) or a
``BotSession``.  A session that fails to start, times out, crashes, answers
something invalid or an illegal action forfeits: from that decision on the
built-in ``greedy`` bot plays the seat, and the seat is reported as a
forfeiter.  Every session decision is logged with its latency and status.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from games.part_du_chef import IllegalAction, InvalidAction, State, action_from_json
from games.part_du_chef.bots import get_bot
from games.part_du_chef.seating import Pace

from .protocol import BotFailure
from .session import BotSession

ILLEGAL = "illegal"
REPLACEMENT_BOT = "greedy"


class BuiltinBot(Protocol):
    def act(self, observation: Any) -> Any: ...


@dataclass
class MoveLog:
    seat: int
    turn: int
    status: str
    latency_ms: float
    error: str | None = None
    stderr: str = ""
    answer: str | None = None  # the raw reply, kept for an invalid or illegal decision only
    # A failure before "ready": no turn of the game, and its start-up time is no decision's latency.
    at_start: bool = False

    @property
    def when(self) -> str:
        return "at start" if self.at_start else f"turn {self.turn}"

    def to_json(self) -> dict[str, Any]:
        entry: dict[str, Any] = {
            "seat": self.seat,
            "turn": None if self.at_start else self.turn,
            "status": self.status,
            "latency_ms": None if self.at_start else round(self.latency_ms, 3),
            "error": self.error,
            "stderr": self.stderr,
        }
        if self.at_start:
            entry["at"] = "start"
            entry["start_ms"] = round(self.latency_ms, 3)
        if self.answer is not None:
            entry["answer"] = self.answer
        return entry


@dataclass
class MatchPlay:
    state: State
    forfeited: list[bool]
    forfeit_reasons: list[str | None]
    moves: list[MoveLog] = field(default_factory=list)
    # Per applied action: whether the replacement bot decided it (the seat had forfeited).
    stand_in: list[bool] = field(default_factory=list)


def play_with_sessions(
    state: State,
    seats: Sequence[BuiltinBot | BotSession],
    options: dict[str, Any] | None = None,
    *,
    replacement_seed: int = 0,
    pace: Pace | None = None,
) -> MatchPlay:
    """Play ``state`` to its end; sessions are started here and always closed.

    ``pace`` (botclient.lockstep) is called before each decision and before the final scores are
    sent: the tables of one duplicate deal wait there for each other.
    """
    players = len(seats)
    if players != state.players:
        raise ValueError(f"{players} seats for a game of {state.players}")
    acting: list[Any] = list(seats)
    play = MatchPlay(state, [False] * players, [None] * players)

    def forfeit(seat: int, status: str, reason: str | None) -> None:
        play.forfeited[seat] = True
        play.forfeit_reasons[seat] = f"{status}: {reason}" if reason else status
        session = acting[seat]
        if isinstance(session, BotSession):
            session.close()
        acting[seat] = get_bot(REPLACEMENT_BOT, seed=replacement_seed + seat)

    try:
        for seat, bot in enumerate(seats):
            if isinstance(bot, BotSession):
                try:
                    bot.start(seat, players, dict(options or {}), deal=state.seed)
                except BotFailure as exc:
                    r = exc.result
                    play.moves.append(
                        MoveLog(seat, state.turn, r.status, r.latency_ms, r.error, r.stderr_tail, at_start=True)
                    )
                    forfeit(seat, r.status, r.error)
        while not state.is_over:
            to_act = state.to_act
            assert to_act is not None
            seat = to_act
            if pace is not None:
                pace(state)
            observation = state.observation(seat)
            bot = acting[seat]
            if not isinstance(bot, BotSession):
                state.apply(bot.act(observation))
                play.stand_in.append(play.forfeited[seat])
                continue
            result = bot.act(observation.to_json())
            log = MoveLog(seat, state.turn, result.status, result.latency_ms, result.error, result.stderr_tail)
            play.moves.append(log)
            if result.ok:
                try:
                    state.apply(action_from_json(result.action), seat)
                    play.stand_in.append(False)
                    continue
                except (InvalidAction, IllegalAction) as exc:
                    # A malformed action and an illegal one alike: the seat forfeits, logged as illegal.
                    log.status, log.error = ILLEGAL, str(exc)
            log.answer = result.answer
            forfeit(seat, log.status, log.error)
            state.apply(acting[seat].act(observation))
            play.stand_in.append(True)
        if pace is not None:
            pace(state)
        scores = [score.to_json() for score in state.scores()]
        ranks = list(state.ranks())
        for bot in acting:
            if isinstance(bot, BotSession):
                bot.end(scores, ranks)
    finally:
        for bot in list(seats) + acting:
            if isinstance(bot, BotSession):
                bot.close()
    return play
