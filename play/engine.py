"""Interactive matches: people and bots at one table, one decision at a time.

The game of an interactive match lives in a LiveGame row as its record so far. Every change locks
that row, rebuilds the state by replaying the record, checks the decision's turn number, applies the
action and saves the record again, all in one transaction; the next decision is then handed to a
Celery task (a bot's move, or the turn clock of a person). A finished game is committed through
`results.commit.commit_result`, the same path as every other match, so it is rated exactly once.

Each decision records who took it (`LiveGame.decided_by`), and each action publishes what happened
on commit (`play.events`): a decision and its cause, a resignation, a table formed or over.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from arena import runner
from arena.dispatch import send_on_commit
from arena.errors import GameOver, NotSeated, PlayError, StaleTurn
from arena.matches import create_match
from arena.models import Match, MatchSeat, Player
from botclient import ServerBusy
from common.task_names import TaskName
from games.part_du_chef import State, action_from_json, replay
from games.part_du_chef.bots import get_bot
from games.registry import get_game
from play import botseats, events
from play.models import LiveGame
from results.commit import commit_result

log = logging.getLogger(__name__)


# The house engine that plays a decision for a person whose clock ran out, or who left.
STAND_IN = "greedy"


def create_live_match(
    *,
    game: str,
    kind: str,
    players: Sequence[Player],
    options: dict[str, Any] | None = None,
    seed: int | None = None,
    created_by: Any = None,
    turn_seconds: int | None = None,
    bank_seconds: int = 0,
) -> Match:
    """A running interactive match, through the match core's one create path; call inside the caller's
    transaction or on its own. The server draws the seed; `seed` is a deal the service fixes itself
    (tests, benchmarks), never one taken from a request. `turn_seconds` and `bank_seconds` are a
    friendly table's clock (play.clocks); a ranked table keeps the documented one."""
    with transaction.atomic():
        match = create_match(
            game=game,
            kind=kind,
            players=players,
            options=options,
            created_by=created_by,
            live=True,
            service_seed=seed,
        )
        count = len(players)
        # Submitted bots play the version they had when the table was formed, whatever comes later.
        banks = botseats.pin_versions(match.id, players)
        state = get_game(match.game).new_state(count, match.seed, match.options)
        # People's banks (a friendly table's clock) sit beside the submitted bots' own.
        banks = [
            bank if not player.is_person else 1000.0 * bank_seconds for bank, player in zip(banks, players, strict=True)
        ]
        live = LiveGame(
            match=match,
            record={},
            timeouts=[0] * count,
            out=[False] * count,
            bank_ms=banks,
            turn_seconds=turn_seconds,
        )
        _save(live, match, list(players), state, match.started_at or timezone.now(), decided_by=None)
        events.publish_on_commit(
            events.TableFormed(match.id, tuple(player.id for player in players), events.accounts_of(players))
        )
    return match


def _extra(match: Match) -> dict[str, Any]:
    return {"match": match.id}


def load_state(live: LiveGame) -> State:
    return replay(live.record, allow_unfinished=True)


def _save(
    live: LiveGame, match: Match, players: list[Player], state: State, now: datetime, decided_by: str | None
) -> None:
    """Store the state after a decision (None: the deal) and who took it; hand the next decision to
    whoever takes it, and publish what happened on commit."""
    live.record = state.to_record([player.name for player in players], _extra(match))
    live.turn = state.turn
    live.to_act = state.to_act
    live.deadline = None
    if decided_by is not None:
        live.decided_by = [*live.decided_by, decided_by]
        events.publish_on_commit(events.TurnTaken(match.id, live.turn, state.is_over, decided_by))
    if state.is_over:
        live.save()
        _finish(live, match, players, state)
        events.publish_on_commit(events.TableOver(match.id, events.accounts_of(players)))
        return
    seat = state.to_act
    assert seat is not None
    person_to_act = players[seat].is_person and not live.out[seat]
    if person_to_act:
        # The decision's seconds, then the person's bank (zero but at friendly tables with one).
        live.deadline = now + timedelta(seconds=turn_seconds(live) + live.bank_ms[seat] / 1000.0)
    live.save()
    dispatch_turn(match.id, live.turn, live.deadline)
    if person_to_act:
        # The person whose turn it is hears it on every page (a notice, or the browser's notification).
        events.send_on_commit(
            events.player_channel(players[seat].id), {"type": "your-turn", "match": match.id, "turn": live.turn}
        )


def turn_seconds(live: LiveGame) -> float:
    """Seconds a person has for one decision at this table, before any bank."""
    return float(live.turn_seconds if live.turn_seconds is not None else settings.ARENA_TURN_SECONDS)


def _spend_bank(live: LiveGame, seat: int, now: datetime) -> None:
    """A person answered: the time past the decision's seconds comes out of their bank."""
    if live.deadline is None or live.bank_ms[seat] <= 0:
        return
    left_ms = max(0.0, (live.deadline - now).total_seconds() * 1000.0)
    live.bank_ms[seat] = min(float(live.bank_ms[seat]), left_ms)


def dispatch_turn(match_id: int, turn: int, deadline: datetime | None) -> None:
    """On commit: a bot's move at once, or the turn clock of a person at its deadline."""
    send_on_commit(TaskName.PLAY_TURN, (match_id, turn), eta=deadline)


def _finish(live: LiveGame, match: Match, players: list[Player], state: State) -> None:
    totals = tuple(int(score.total) for score in state.scores())
    forfeited = tuple(bool(flag) for flag in live.out)
    # A person is out after too many timeouts, or because they left; a bot's reason is in its seat log.
    reasons = tuple(
        (
            f"timeout: the clock ran out {live.timeouts[seat]} times"
            if live.timeouts[seat] >= settings.ARENA_MAX_TIMEOUTS
            else "left the table"
        )
        if out and player.is_person
        else None
        for seat, (out, player) in enumerate(zip(forfeited, players, strict=True))
    )
    played = runner.PlayedGame(
        record=live.record,
        totals=totals,
        forfeited=forfeited,
        seat_logs=botseats.seat_logs(match.id),
        stand_in=live.stand_in,
        forfeit_reasons=reasons,
    )
    if not commit_result(match.id, match.attempt, played):
        raise PlayError.coded("not_committed", match=match.id)


def _lock(match_id: int) -> tuple[LiveGame, Match, list[Player]]:
    live = LiveGame.objects.select_for_update(of=("self",)).select_related("match").filter(pk=match_id).first()
    if live is None:
        raise NotSeated.coded("not_a_table", match=match_id)
    players = [seat.player for seat in MatchSeat.objects.filter(match_id=match_id).select_related("player")]
    return live, live.match, players


def seat_of(players: Sequence[Player], player: Player) -> int | None:
    for seat, seated in enumerate(players):
        if seated.id == player.id:
            return seat
    return None


def submit_action(match_id: int, player: Player, turn: object, action: object) -> LiveGame:
    """Apply a person's decision. `turn` must be the decision's number: a repeat is refused."""
    if isinstance(turn, bool) or not isinstance(turn, int):
        raise PlayError.coded("turn_not_integer")
    parsed = action_from_json(action)  # InvalidAction names a malformed shape
    with transaction.atomic():
        live, match, players = _lock(match_id)
        seat = seat_of(players, player)
        if seat is None:
            raise NotSeated.coded("not_seated", match=match_id)
        if live.to_act is None or match.status != Match.Status.RUNNING:
            raise GameOver.coded("game_over")
        if turn < live.turn:
            raise StaleTurn.coded("turn_played", turn=turn, now=live.turn)
        if turn > live.turn:
            raise PlayError.coded("turn_not_come", turn=turn, now=live.turn)
        if live.out[seat]:
            raise PlayError.coded("seat_left")
        state = load_state(live)
        state.apply(parsed, seat=seat)
        now = timezone.now()
        _spend_bank(live, seat, now)
        _save(live, match, players, state, now, LiveGame.DecidedBy.SEAT)
    return live


def play_turn(match_id: int, turn: int, now: datetime | None = None) -> str:
    """The decision `turn` taken by the house: a bot's own move, a person's expired clock, a forfeiter.

    Idempotent: does nothing unless the game still waits for exactly that decision, and for a person
    still in the game, unless their deadline has passed.
    """
    now = now or timezone.now()
    if _submitted_bot_to_act(match_id, turn):
        return _play_submitted(match_id, turn, now)
    with transaction.atomic():
        live, match, players = _lock(match_id)
        if live.to_act is None or live.turn != turn or match.status != Match.Status.RUNNING:
            return "stale"
        seat = live.to_act
        player = players[seat]
        engine = player.builtin if player.is_builtin else STAND_IN
        # Who decides: a built-in engine plays its own seat; the house plays a person whose clock ran
        # out, and a seat that is out (a person who left or timed out, a bot that forfeited).
        decided_by = LiveGame.DecidedBy.SEAT if player.is_builtin else LiveGame.DecidedBy.LEFT
        if player.is_person and not live.out[seat]:
            if live.deadline is None or live.deadline > now:
                return "not yet"
            decided_by = LiveGame.DecidedBy.CLOCK
            live.timeouts[seat] += 1
            live.bank_ms[seat] = 0.0  # the clock ran past the bank too
            if live.timeouts[seat] >= settings.ARENA_MAX_TIMEOUTS:
                live.out[seat] = True
        state = load_state(live)
        bot = get_bot(engine, seed=runner.seat_seed(match.seed, seat) + turn)
        state.apply(bot.act(state.observation(seat)), seat=seat)
        _save(live, match, players, state, now, decided_by)
    return "played"


def _submitted_bot_to_act(match_id: int, turn: int) -> bool:
    """Whether decision `turn` is a submitted bot's own (it is not out); read without a lock."""
    live = LiveGame.objects.select_related("match").filter(pk=match_id).first()
    if live is None or live.to_act is None or live.turn != turn or live.match.status != Match.Status.RUNNING:
        return False
    if live.out[live.to_act]:
        return False
    player = MatchSeat.objects.select_related("player").get(match_id=match_id, seat=live.to_act).player
    return player.is_submitted_bot


# A submitted bot's decision the server was too busy to start is asked again this much later.
BUSY_RETRY_SECONDS = 2.0


def _play_submitted(match_id: int, turn: int, now: datetime) -> str:
    """A submitted bot's decision: asked outside any transaction, then applied under the table's lock.

    On a timeout, crash, invalid reply or illegal action the seat forfeits and the house `greedy`
    plays this decision and every later one of that seat. A duplicate task that asked the bot too
    finds the turn taken and changes nothing.
    """
    live = LiveGame.objects.select_related("match").get(pk=match_id)
    seat = live.to_act
    if seat is None or live.turn != turn:
        return "stale"  # taken between the two reads
    state = load_state(live)
    try:
        decision = botseats.ask(
            botseats.pinned_version(match_id, seat), state, seat, live.match.options, live.bank_ms[seat]
        )
    except ServerBusy as exc:
        # The server could not start the bot in time: the bot is not charged, the decision is asked
        # again a little later (the table waits; its sweep sends it again if this message is lost).
        log.warning("match %s turn %s: the server is busy, the bot is asked again later: %s", match_id, turn, exc)
        dispatch_turn(match_id, turn, timezone.now() + timedelta(seconds=BUSY_RETRY_SECONDS))
        return "server busy"
    with transaction.atomic():
        live, match, players = _lock(match_id)
        if live.to_act != seat or live.turn != turn or match.status != Match.Status.RUNNING or live.out[seat]:
            return "stale"
        state = load_state(live)
        move, applied = botseats.judge(decision, state, seat, turn)
        live.bank_ms[seat] = decision.bank_ms
        if not applied:
            live.out[seat] = True
            state = load_state(live)  # untouched by a refused action
            stand_in = get_bot(STAND_IN, seed=runner.seat_seed(match.seed, seat) + turn)
            state.apply(stand_in.act(state.observation(seat)), seat=seat)
        botseats.record_move(match_id, move, decision.stderr, forfeited=not applied)
        _save(live, match, players, state, now, LiveGame.DecidedBy.SEAT if applied else LiveGame.DecidedBy.FORFEIT)
    return "played" if applied else "forfeited"


def resign(match_id: int, player: Player) -> LiveGame:
    """The person leaves: they forfeit, and the house plays their seat to the end."""
    with transaction.atomic():
        live, match, players = _lock(match_id)
        seat = seat_of(players, player)
        if seat is None:
            raise NotSeated.coded("not_seated", match=match_id)
        if live.to_act is None or match.status != Match.Status.RUNNING:
            raise GameOver.coded("game_over")
        if live.out[seat]:
            return live
        live.out[seat] = True
        if live.to_act == seat:
            live.deadline = None
            dispatch_turn(match.id, live.turn, None)
        live.save(update_fields=["out", "deadline", "updated_at"])
        events.publish_on_commit(events.Resigned(match.id, live.turn))
    return live


def sweep(now: datetime | None = None, bot_grace_seconds: float = 10.0) -> dict[str, int]:
    """Backup for lost clock or bot messages: re-send the decisions that should have been taken."""
    now = now or timezone.now()
    # A submitted bot may take its start limit and its whole time bank over one decision: that is
    # not a lost message, and sending it again would start the bot a second time.
    policy_ms = settings.ARENA_BOT_START_MS + settings.ARENA_BOT_MOVE_MS + settings.ARENA_BOT_BANK_MS
    grace = max(bot_grace_seconds, policy_ms / 1000)
    expired = LiveGame.objects.filter(deadline__lt=now).values_list("match_id", "turn")
    stalled = LiveGame.objects.filter(
        deadline__isnull=True,
        to_act__isnull=False,
        updated_at__lt=now - timedelta(seconds=grace),
    ).values_list("match_id", "turn")
    sent = 0
    for match_id, turn in [*expired, *stalled]:
        dispatch_turn(match_id, turn, None)
        sent += 1
    return {"sent": sent}


@dataclass(frozen=True)
class TableState:
    live: LiveGame
    players: list[Player]
    seat: int | None
    state: State


def table_state(match_id: int, player: Player | None) -> TableState:
    live = LiveGame.objects.select_related("match").filter(pk=match_id).first()
    if live is None:
        raise NotSeated.coded("not_a_table", match=match_id)
    players = [seat.player for seat in MatchSeat.objects.filter(match_id=match_id).select_related("player")]
    seat = seat_of(players, player) if player is not None else None
    return TableState(live, players, seat, load_state(live))
