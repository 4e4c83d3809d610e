"""State changes of matches and arena entries. Each runs in one transaction; tasks are sent on commit.

A match moves queued -> running (claimed with a conditional UPDATE that bumps `attempt`, the fencing
token) -> finished, or back to queued after an error, or failed after the last attempt. Only the
holder of the current attempt can commit a result; the result, the seats and the rating changes are
written together in one transaction.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from arena import runner
from arena.models import ArenaEntry, Match, MatchSeat, Player
from arena.placing import RECORD_FIELD, placings, record_verdict
from arena.signals import match_committed
from games.registry import get_game

log = logging.getLogger(__name__)

MAX_SEED = 2**31 - 1


class RequestError(ValueError):
    """A request that cannot be carried out; the message names the problem."""


def resolve_game(game: str) -> Any:
    try:
        return get_game(game)
    except KeyError:
        from games.registry import all_games

        known = ", ".join(spec.key for spec in all_games())
        raise RequestError(f"unknown game {game!r}; available games: {known}") from None


def dispatch_match(match_id: int) -> None:
    """Send the play task once the surrounding transaction commits."""
    from arena.tasks import play_match

    queue = settings.CELERY_TASK_DEFAULT_QUEUE
    transaction.on_commit(lambda: play_match.apply_async((match_id,), queue=queue))


def resend_deadline() -> Any:
    """When a queued match or version not picked up by then is sent to the workers again."""
    return timezone.now() + timedelta(seconds=settings.ARENA_QUEUED_RESEND_SECONDS)


def insert_queued_match(
    *, spec: Any, kind: str, players: Sequence[Player], options: dict[str, Any], seed: int, created_by: Any
) -> Match:
    """The match row and its seats, in the caller's transaction; the caller dispatches it."""
    match = Match.objects.create(
        game=spec.key,
        kind=kind,
        rated=kind in Match.RATED_KINDS,
        options=options,
        seed=seed,
        created_by=created_by,
        lease_expires_at=resend_deadline(),
    )
    MatchSeat.objects.bulk_create([MatchSeat(match=match, seat=seat, player=p) for seat, p in enumerate(players)])
    return match


def create_match(
    *,
    game: str,
    kind: str,
    player_ids: Sequence[int],
    options: dict[str, Any] | None = None,
    seed: int | None = None,
    created_by: Any = None,
) -> Match:
    spec = resolve_game(game)
    if kind not in Match.Kind.values:
        raise RequestError(f"unknown match kind {kind!r}; expected one of {', '.join(Match.Kind.values)}")
    count = len(player_ids)
    if not spec.min_players <= count <= spec.max_players:
        raise RequestError(f"{spec.key} is played by {spec.min_players} to {spec.max_players} players, got {count}")
    seen: set[int] = set()
    for player_id in player_ids:
        if player_id in seen:
            raise RequestError(f"player {player_id} is seated twice")
        seen.add(player_id)
    found = Player.objects.in_bulk(list(player_ids))
    missing = [player_id for player_id in player_ids if player_id not in found]
    if missing:
        raise RequestError(f"unknown player {missing[0]}")
    players = [found[player_id] for player_id in player_ids]
    for player in players:
        try:
            runner.check_playable(player)
        except runner.UnplayablePlayer as exc:
            raise RequestError(str(exc)) from None
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise RequestError("options must be an object")
    try:
        normalised = spec.validate_options(options, count)
    except (ValueError, TypeError) as exc:
        raise RequestError(f"bad options: {exc}") from None
    if seed is None:
        seed = secrets.randbelow(MAX_SEED)
    elif not 0 <= seed <= MAX_SEED:
        raise RequestError(f"seed must be between 0 and {MAX_SEED}")
    with transaction.atomic():
        match = insert_queued_match(
            spec=spec, kind=kind, players=players, options=normalised, seed=seed, created_by=created_by
        )
        dispatch_match(match.id)
    return match


def claim_match(match_id: int) -> int | None:
    """Take the match for one attempt. Returns the attempt number, or None if not ours to play."""
    now = timezone.now()
    row = Match.objects.filter(pk=match_id).values("status", "attempt", "lease_expires_at").first()
    if row is None:
        return None
    status, attempt, lease = row["status"], row["attempt"], row["lease_expires_at"]
    stuck = status == Match.Status.RUNNING and lease is not None and lease < now
    if status != Match.Status.QUEUED and not stuck:
        return None
    if attempt >= settings.ARENA_MATCH_MAX_ATTEMPTS:
        give_up(match_id, attempt, "the last attempt did not finish before its lease expired")
        return None
    claimable = Q(status=Match.Status.QUEUED) | Q(status=Match.Status.RUNNING, lease_expires_at__lt=now)
    won = (
        Match.objects.filter(claimable, pk=match_id, attempt=attempt).update(
            status=Match.Status.RUNNING,
            attempt=attempt + 1,
            started_at=now,
            lease_expires_at=now + timedelta(seconds=settings.ARENA_MATCH_LEASE_SECONDS),
        )
        == 1
    )
    return attempt + 1 if won else None


def give_up(match_id: int, attempt: int, reason: str) -> bool:
    failed = Match.objects.filter(
        pk=match_id, attempt=attempt, status__in=[Match.Status.RUNNING, Match.Status.QUEUED]
    ).update(
        status=Match.Status.FAILED,
        lease_expires_at=None,
        error=f"failed after {attempt} attempts: {reason}",
        finished_at=timezone.now(),
    )
    return failed == 1


def release_after_error(match_id: int, attempt: int, reason: str) -> None:
    """An attempt raised: retry it later, or fail the match after the last attempt."""
    if attempt >= settings.ARENA_MATCH_MAX_ATTEMPTS:
        give_up(match_id, attempt, reason)
        return
    with transaction.atomic():
        released = Match.objects.filter(pk=match_id, attempt=attempt, status=Match.Status.RUNNING).update(
            status=Match.Status.QUEUED,
            lease_expires_at=resend_deadline(),
            error=f"attempt {attempt}: {reason}",
        )
        if released:
            dispatch_match(match_id)


def commit_result(match_id: int, attempt: int, played: runner.PlayedGame) -> bool:
    """Write the result, seats and rating changes at once. False if the attempt lost the match."""
    from ratings.ledger import rate_match

    try:
        with transaction.atomic():
            match = Match.objects.select_for_update().get(pk=match_id)
            if match.status != Match.Status.RUNNING or match.attempt != attempt:
                return False
            seats = list(match.seats.select_related("player").order_by("seat"))
            placed = placings(played.totals, played.forfeited)
            record = dict(played.record)
            record[RECORD_FIELD] = record_verdict(
                played.totals, played.forfeited, played.stand_in, len(record.get("actions") or [])
            )
            changes = None
            if match.rated:
                changes = rate_match(match, [seat.player for seat in seats], played.totals, played.forfeited)
            for index, seat in enumerate(seats):
                seat.score = played.totals[index]
                seat.rank = placed[index]
                seat.forfeited = played.forfeited[index]
                if changes is not None:
                    seat.rating_before = changes[index].before
                    seat.rating_after = changes[index].after
            MatchSeat.objects.bulk_update(seats, ["score", "rank", "forfeited", "rating_before", "rating_after"])
            match.status = Match.Status.FINISHED
            match.record = record
            match.lease_expires_at = None
            match.error = ""
            # Taken after the rating rows are locked: per player, finished_at follows commit order.
            match.finished_at = timezone.now()
            match.save(update_fields=["status", "record", "lease_expires_at", "error", "finished_at"])
            match_committed.send(sender=Match, match=match, seats=seats, played=played)
    except IntegrityError:
        log.warning("match %s was already rated; attempt %s discarded", match_id, attempt)
        return False
    return True


def run_match(match_id: int) -> str:
    """Claim, play and commit one match. Safe to call any number of times, even concurrently."""
    attempt = claim_match(match_id)
    if attempt is None:
        return "not claimed"
    match = Match.objects.get(pk=match_id)
    players = [seat.player for seat in match.seats.select_related("player").order_by("seat")]
    try:
        played = runner.play(
            match.game,
            players,
            match.seed,
            match.options,
            move_delay=settings.ARENA_BOT_MOVE_DELAY_SECONDS,
            match_id=match_id,
        )
    except Exception as exc:  # any failure of the game or a bot: retried, then failed
        log.exception("match %s attempt %s failed", match_id, attempt)
        release_after_error(match_id, attempt, f"{type(exc).__name__}: {exc}")
        return "error"
    return "finished" if commit_result(match_id, attempt, played) else "lost lease"


def sweep_stuck_matches() -> dict[str, int]:
    """Retry matches whose worker died (lease expired) and re-send queued ones never picked up."""
    now = timezone.now()
    retried = failed = resent = 0
    stuck = Match.objects.filter(status=Match.Status.RUNNING, lease_expires_at__lt=now)
    for match_id, attempt in stuck.values_list("id", "attempt"):
        if attempt >= settings.ARENA_MATCH_MAX_ATTEMPTS:
            if give_up(match_id, attempt, "the last attempt did not finish before its lease expired"):
                failed += 1
        else:
            with transaction.atomic():
                requeued = Match.objects.filter(
                    pk=match_id, status=Match.Status.RUNNING, attempt=attempt, lease_expires_at__lt=now
                ).update(
                    status=Match.Status.QUEUED,
                    lease_expires_at=resend_deadline(),
                    error=f"attempt {attempt}: the worker stopped before its lease expired",
                )
                if requeued:
                    dispatch_match(match_id)
                    retried += 1
    waiting = Match.objects.filter(status=Match.Status.QUEUED, lease_expires_at__lt=now)
    for match_id in waiting.values_list("id", flat=True):
        # Bump the deadline first so one lost message is re-sent once per interval, not per sweep.
        if Match.objects.filter(pk=match_id, status=Match.Status.QUEUED, lease_expires_at__lt=now).update(
            lease_expires_at=resend_deadline()
        ):
            dispatch_match(match_id)
            resent += 1
    return {"retried": retried, "failed": failed, "resent": resent}


def enter_arena(*, player_id: int, game: str, table_size: int, entered_by: Any) -> ArenaEntry:
    spec = resolve_game(game)
    if not spec.min_players <= table_size <= spec.max_players:
        raise RequestError(
            f"{spec.key} tables seat {spec.min_players} to {spec.max_players} players, got table_size {table_size}"
        )
    player = Player.objects.filter(pk=player_id).first()
    # entered_by None: the service itself (house bots entered by an operator's command).
    allowed = entered_by is None or entered_by.is_staff or (player is not None and player.owner_id == entered_by.id)
    if player is None or not allowed:
        raise RequestError(f"unknown player {player_id}")
    try:
        runner.check_playable(player)
    except runner.UnplayablePlayer as exc:
        raise RequestError(str(exc)) from None
    from arena.submissions.rules import arena_refusal

    refusal = arena_refusal(player)
    if refusal:
        raise RequestError(refusal)
    with transaction.atomic():
        existing = ArenaEntry.objects.filter(player=player, game=spec.key, table_size=table_size, active=True).first()
        if existing is not None:
            return existing
        return ArenaEntry.objects.create(
            player=player,
            game=spec.key,
            table_size=table_size,
            entered_by=entered_by,
            waiting_since=timezone.now(),
        )


def leave_arena(entry: ArenaEntry) -> None:
    with transaction.atomic():
        ArenaEntry.objects.filter(pk=entry.pk).update(active=False)
