"""Submitted bots at a table with people: one protocol session per decision, under the failure policy.

A table's decisions are taken one Celery task at a time, possibly on different workers, so a
submitted bot gets a fresh session (start, act, close) for each of its decisions; protocol v1 sends
the whole observation with every act, so the bot needs nothing from its previous moves. What must
outlive a session is kept in the database: the version pinned when the table was formed and the
seat's move log (BotSeat), and what is left of the per-match time bank (LiveGame.bank_ms).
The session runs outside any transaction, so the table row is not locked while the bot thinks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings

from arena import runner
from arena.errors import UnplayablePlayer
from arena.models import Player
from botclient import BotFailure, MoveResult, StdioBot
from botclient.match import ILLEGAL, MoveLog
from games.part_du_chef import IllegalAction, InvalidAction, State, action_from_json
from submissions.models import BotSeat, BotVersion
from submissions.seats import active_version, open_session, playable_refusal


def pin_versions(match_id: int, players: Sequence[Player]) -> list[float]:
    """Pin each submitted bot's active version to its seat; the time bank each seat starts with."""
    banks = []
    pins = []
    for seat, player in enumerate(players):
        if not player.is_submitted_bot:
            banks.append(0.0)
            continue
        version = active_version(player)
        if version is None:
            raise UnplayablePlayer(playable_refusal(player) or f"bot {player.id} has no playable version")
        pins.append(BotSeat(match_id=match_id, seat=seat, player=player, version=version, pinned=True))
        banks.append(float(settings.ARENA_BOT_BANK_MS))
    BotSeat.objects.bulk_create(pins)
    return banks


@dataclass(frozen=True)
class Decision:
    """What a submitted bot answered for one decision, and the bank left after it."""

    result: MoveResult
    bank_ms: float
    stderr: str


def ask(version: BotVersion, state: State, seat: int, options: dict[str, object], bank_ms: float) -> Decision:
    """Start a session of the pinned version, ask it for this decision, and close it.

    Raises SandboxUnavailable (the bot is not at fault) when the sandbox cannot start, and
    botclient.ServerBusy when the server is too slow to start it (the decision is asked again later).
    """
    session = open_session(version)
    session.budget.bank_ms = max(0.0, float(bank_ms))
    try:
        try:
            session.start(seat, state.players, dict(options), deal=state.seed)
        except BotFailure as exc:
            result = exc.result
        else:
            result = session.act(state.observation(seat).to_json())
    finally:
        session.close()
    stderr = session.stderr_log if isinstance(session, StdioBot) else ""
    return Decision(result, session.budget.bank_ms, stderr)


def judge(decision: Decision, state: State, seat: int, turn: int) -> tuple[MoveLog, bool]:
    """Apply the bot's action to `state` if it is legal; the move's log entry and whether it was applied."""
    result = decision.result
    log = MoveLog(seat, turn, result.status, result.latency_ms, result.error, result.stderr_tail)
    if not result.ok:
        log.answer = result.answer
        return log, False
    try:
        action = action_from_json(result.action)
        state.apply(action, seat=seat)
    except (InvalidAction, IllegalAction) as exc:  # the whole-match policy: both forfeit, logged as illegal
        log.status, log.error, log.answer = ILLEGAL, str(exc), result.answer
        return log, False
    return log, True


def record_move(match_id: int, log: MoveLog, stderr: str, forfeited: bool) -> None:
    """Append the decision to the seat's log, as a whole match logs it; inside the caller's transaction."""
    pin = BotSeat.objects.select_for_update().get(match_id=match_id, seat=log.seat, pinned=True)
    entry = log.to_json()
    entry["stderr"] = entry["stderr"][-runner.MOVE_STDERR_CHARS :]
    pin.moves = [*pin.moves, entry]
    pin.stderr = (pin.stderr + stderr)[-runner.SEAT_STDERR_CHARS :]
    fields = ["moves", "stderr"]
    if forfeited:
        pin.forfeited = True
        pin.forfeit_reason = f"{log.status}: {log.error}" if log.error else log.status
        fields += ["forfeited", "forfeit_reason"]
    pin.save(update_fields=fields)


def seat_logs(match_id: int) -> tuple[runner.SeatLog, ...]:
    """The seats' logs for the result, so the match core records them as for every match."""
    return tuple(
        runner.SeatLog(
            seat=pin.seat,
            version_id=pin.version_id,
            moves=list(pin.moves),
            stderr=pin.stderr,
            forfeit_reason=pin.forfeit_reason if pin.forfeited else None,
        )
        for pin in BotSeat.objects.filter(match_id=match_id, pinned=True).order_by("seat")
    )


def pinned_version(match_id: int, seat: int) -> BotVersion:
    return BotSeat.objects.select_related("version__bot").get(match_id=match_id, seat=seat, pinned=True).version
