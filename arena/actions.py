"""The match core: every kind of match created, claimed, committed and placed here, in one transaction each.

A match moves queued -> running (claimed through `arena.leases`, the fencing token `attempt`
bumped) -> finished, or back to queued after an error, or failed after the last attempt. Only the
holder of the current attempt can commit a result. Tables with people are created running
(attempt 1, no lease) and committed through the same `commit_result`.

The result commit writes the seats with their placing (`games.part_du_chef.placing`) and sends `match_committed`
inside its transaction: the ratings and the tournaments react there, so results and ratings commit
together or not at all. This module imports none of the features built on it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, replace
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from arena import runner
from arena.broker import waiting_messages
from arena.dispatch import send_on_commit
from arena.errors import RequestError
from arena.leases import Lease
from arena.models import ArenaEntry, Match, MatchSeat, Player
from arena.rows import update_rows
from arena.seats import Where, check, is_person
from arena.seeds import MAX_SEED, draw_seed
from arena.signals import batch_hooks, match_committed
from games.part_du_chef.placing import RECORD_FIELD, placings, record_verdict
from games.registry import GameSpec, all_games, get_game

log = logging.getLogger(__name__)

PLAY_TASK = "arena.play_match"

MATCH_LEASE = Lease(
    model=Match,
    queued=Match.Status.QUEUED,
    running=Match.Status.RUNNING,
    lease_seconds=lambda: float(settings.ARENA_MATCH_LEASE_SECONDS),
    max_attempts=lambda: int(settings.ARENA_MATCH_MAX_ATTEMPTS),
    started_field="started_at",
    error_field="error",
)


def resolve_game(game: str) -> GameSpec:
    try:
        return get_game(game)
    except KeyError:
        known = ", ".join(spec.key for spec in all_games())
        raise RequestError(f"unknown game {game!r}; available games: {known}") from None


def dispatch_match(match_id: int) -> None:
    """Send the play task once the surrounding transaction commits."""
    send_on_commit(PLAY_TASK, (match_id,))


# -- creating -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Seating:
    """A checked line-up: the game, the players in seat order, normalised options and the seed."""

    spec: GameSpec
    players: list[Player]
    options: dict[str, Any]
    seed: int


def check_seating(
    *,
    game: str,
    players: Sequence[Player],
    options: object = None,
    seed: object = None,
    where: Where = Where.MATCH,
    pins: Mapping[int, Any] | None = None,
) -> Seating:
    """The one validation of every match: game, seat count, a player seated twice, who may sit, options, seed.

    A creator may give a seed only where every seat is a bot (a reproducible experiment); a match
    with a person always gets a seed drawn here, so nobody can know the deal in advance.
    """
    spec = resolve_game(game)
    count = len(players)
    check_count(spec, count)
    seen: set[int] = set()
    for player in players:
        if player.id in seen:
            raise RequestError(f"player {player.id} is seated twice")
        seen.add(player.id)
    people = [player for player in players if is_person(player)]
    if seed is not None and people:
        raise RequestError(
            f"a seed may be given only when every seat is a bot; player {people[0].id} ({people[0].name}) "
            "is a person, so the server draws the seed"
        )
    for seat, player in enumerate(players):
        check(player, where, (pins or {}).get(seat))
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise RequestError("options must be an object")
    try:
        normalised = spec.validate_options(options, count)
    except (ValueError, TypeError) as exc:
        raise RequestError(f"bad options: {exc}") from None
    if seed is None:
        seed = draw_seed()
    elif isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise RequestError(f"seed must be an integer between 0 and {MAX_SEED}")
    return Seating(spec=spec, players=list(players), options=normalised, seed=seed)


def check_count(spec: GameSpec, count: int) -> None:
    if not spec.min_players <= count <= spec.max_players:
        raise RequestError(f"{spec.key} is played by {spec.min_players} to {spec.max_players} players, got {count}")


def players_by_id(game: str, player_ids: Sequence[int]) -> list[Player]:
    """The players in the given order; a bad count, a repeated or an unknown id named, in that order."""
    check_count(resolve_game(game), len(player_ids))
    seen: set[int] = set()
    for player_id in player_ids:
        if player_id in seen:
            raise RequestError(f"player {player_id} is seated twice")
        seen.add(player_id)
    found = Player.objects.in_bulk(list(player_ids))
    missing = [player_id for player_id in player_ids if player_id not in found]
    if missing:
        raise RequestError(f"unknown player {missing[0]}")
    return [found[player_id] for player_id in player_ids]


def create_match(
    *,
    game: str,
    kind: str,
    player_ids: Sequence[int] | None = None,
    players: Sequence[Player] | None = None,
    options: object = None,
    seed: object = None,
    created_by: Any = None,
    live: bool = False,
    dispatch: bool = True,
    service_seed: int | None = None,
    pins: Mapping[int, Any] | None = None,
) -> Match:
    """The one create path of every kind of match, inside the caller's transaction when there is one.

    `live`: a table played decision by decision (people may sit; running from the start with no
    lease, so the bot-match sweeper never touches it). Otherwise a queued match the service plays,
    its play task sent on commit unless `dispatch` is False (the caller plays it in-process).
    `seed` comes from the creator (refused where a person sits); `service_seed` is one the service
    itself fixes (a known deal for tests and benchmarks), never taken from a request.
    """
    if kind not in Match.Kind.values:
        raise RequestError(f"unknown match kind {kind!r}; expected one of {', '.join(Match.Kind.values)}")
    if players is None:
        players = players_by_id(game, player_ids or [])
    seating = check_seating(
        game=game,
        players=players,
        options=options,
        seed=seed,
        where=Where.TABLE if live else Where.MATCH,
        pins=pins,
    )
    if service_seed is not None:
        seating = replace(seating, seed=service_seed)
    now = timezone.now()
    with transaction.atomic():
        match = Match.objects.create(
            game=seating.spec.key,
            kind=kind,
            rated=kind in Match.RATED_KINDS,
            options=seating.options,
            seed=seating.seed,
            created_by=created_by,
            status=Match.Status.RUNNING if live else Match.Status.QUEUED,
            attempt=1 if live else 0,
            started_at=now if live else None,
            lease_expires_at=None if live else MATCH_LEASE.resend_deadline(),
        )
        MatchSeat.objects.bulk_create(
            [MatchSeat(match=match, seat=seat, player=player) for seat, player in enumerate(seating.players)]
        )
        if dispatch and not live:
            dispatch_match(match.id)
    return match


# -- claiming -----------------------------------------------------------------------------------


def claim_match(match_id: int) -> int | None:
    """Take the match for one attempt. Returns the attempt number, or None if not ours to play."""
    attempt, exhausted = MATCH_LEASE.claim(match_id)
    if exhausted is not None:
        give_up(match_id, exhausted, "the last attempt did not finish before its lease expired")
    return attempt


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
        if MATCH_LEASE.requeue(match_id, attempt, f"attempt {attempt}: {reason}"):
            dispatch_match(match_id)


# -- committing ---------------------------------------------------------------------------------


@dataclass
class Finished:
    """A match played under one attempt, waiting to be committed (seats in seat order)."""

    match: Match
    attempt: int
    seats: list[MatchSeat]
    played: runner.PlayedGame


def commit_result(match_id: int, attempt: int, played: runner.PlayedGame) -> bool:
    """Write the result, the seats' placings and (through match_committed) the ratings at once.

    False if the attempt lost the match, or the match was already rated.
    """
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return False
    seats = list(match.seats.select_related("player").order_by("seat"))
    return match_id in commit_results([Finished(match, attempt, seats, played)])


def commit_results(batch: Sequence[Finished]) -> set[int]:
    """Commit several played matches in one transaction; the ids committed.

    Each match is committed only by the holder of its current attempt (checked with the match rows
    locked). The batch hooks (`arena.signals`) take their locks for the whole batch first, so
    batches sharing players queue up rather than deadlock; then each match's receivers run in batch
    order, which is the commit order its players see. If the batch cannot commit as a whole (a match
    already rated), each match is committed alone so that the others still count.
    """
    if not batch:
        return set()
    try:
        return _commit_together(batch)
    except IntegrityError:
        if len(batch) == 1:
            log.warning("match %s was already rated; attempt %s discarded", batch[0].match.pk, batch[0].attempt)
            return set()
    committed: set[int] = set()
    for item in batch:
        committed |= commit_results([item])
    return committed


def _commit_together(batch: Sequence[Finished]) -> set[int]:
    with transaction.atomic():
        rows = (
            Match.objects.select_for_update()
            .filter(pk__in=[item.match.pk for item in batch])
            .order_by("pk")
            .values_list("pk", "attempt", "status")
        )
        current = {pk: (attempt, status) for pk, attempt, status in rows}
        ours = [item for item in batch if current.get(item.match.pk) == (item.attempt, Match.Status.RUNNING)]
        if not ours:
            return set()
        for item in ours:
            match, played = item.match, item.played
            placed = placings(played.totals, played.forfeited)
            record = dict(played.record)
            record[RECORD_FIELD] = record_verdict(
                played.totals, played.forfeited, played.stand_in, len(record.get("actions") or [])
            )
            for index, seat in enumerate(item.seats):
                seat.score = played.totals[index]
                seat.rank = placed[index]
                seat.forfeited = played.forfeited[index]
            match.status = Match.Status.FINISHED
            match.attempt = item.attempt
            match.record = record
            match.lease_expires_at = None
            match.error = ""
            match.finished_at = timezone.now()
        # Written before the receivers run: they may read the match as finished, and its placings.
        update_rows(
            Match, [item.match for item in ours], ["status", "record", "lease_expires_at", "error", "finished_at"]
        )
        update_rows(MatchSeat, [seat for item in ours for seat in item.seats], ["score", "rank", "forfeited"])
        with ExitStack() as hooks:
            for hook in batch_hooks():
                hooks.enter_context(hook([(item.match, item.seats) for item in ours]))
            for item in ours:
                # Receivers (ratings, tournaments, submitted bots) write in this same transaction;
                # they may set the seats' rating fields, written below.
                match_committed.send(sender=Match, match=item.match, seats=item.seats, played=item.played)
                # Taken once the hooks locked the rating rows: per player, it follows commit order.
                item.match.finished_at = timezone.now()
        update_rows(Match, [item.match for item in ours], ["finished_at"])
        rated = [seat for item in ours if item.match.rated for seat in item.seats]
        update_rows(MatchSeat, rated, ["rating_before", "rating_after"])
    return {item.match.pk for item in ours}


def run_match(match_id: int) -> str:
    """Claim, play and commit one match. Safe to call any number of times, even concurrently."""
    return run_matches(match_id, extra=0)


# The other matches a task may claim with its own: only those where every seat is a built-in bot,
# whose games take milliseconds (a submitted bot's can take minutes; its own task plays it), and
# only when its own match is one of those too (else they would wait behind it).
_NOT_BUILTIN_SEAT = (
    "SELECT 1 FROM arena_matchseat seat JOIN arena_player player ON player.id = seat.player_id"
    " WHERE seat.match_id = {match} AND player.builtin = ''"
)
BUILTIN_ONLY = (
    f"NOT EXISTS ({_NOT_BUILTIN_SEAT.format(match='candidate.id')})"
    f" AND NOT EXISTS ({_NOT_BUILTIN_SEAT.format(match='%(pk)s')})"
)


def run_matches(match_id: int, extra: int | None = None) -> str:
    """Claim match_id and up to `extra` other queued built-in bot matches, play them, commit them at once.

    Claiming, reading and committing are one statement or one transaction for the whole batch
    instead of one per match. The other matches are played only while the batch is young
    (ARENA_CLAIM_BATCH_SECONDS, at most a quarter of the lease); the rest are given back unplayed
    and their tasks sent again. Returns
    what became of match_id, as `run_match` does. Safe to call any number of times, concurrently.
    """
    if extra is None:
        extra = int(settings.ARENA_CLAIM_BATCH) - 1
    claimed, exhausted = MATCH_LEASE.claim_batch(match_id, extra, BUILTIN_ONLY)
    if exhausted is not None:
        give_up(match_id, exhausted, "the last attempt did not finish before its lease expired")
    if not claimed:
        return "not claimed"
    attempts = dict(claimed)
    matches = Match.objects.in_bulk(list(attempts))
    seats: dict[int, list[MatchSeat]] = {}
    for seat in MatchSeat.objects.filter(match_id__in=list(attempts)).select_related("player").order_by("seat"):
        seats.setdefault(seat.match_id, []).append(seat)
    # A batch's results wait for its last game: they are held back at most about this long.
    budget = time.monotonic() + min(float(settings.ARENA_CLAIM_BATCH_SECONDS), MATCH_LEASE.lease_seconds() / 4)
    # The task's own match first: it is the one its message asked for.
    order = sorted(attempts, key=lambda pk: (pk != match_id, pk))
    outcome: dict[int, str] = {}
    batch: list[Finished] = []
    for index, pk in enumerate(order):
        if index > 0 and time.monotonic() > budget:
            with transaction.atomic():
                for later in order[index:]:
                    if MATCH_LEASE.unclaim(later, attempts[later]):
                        dispatch_match(later)
            break
        match = matches[pk]
        try:
            played = runner.play(
                match.game,
                [seat.player for seat in seats[pk]],
                match.seed,
                match.options,
                move_delay=settings.ARENA_BOT_MOVE_DELAY_SECONDS,
                match_id=pk,
            )
        except Exception as exc:  # any failure of the game or a bot: retried, then failed
            log.exception("match %s attempt %s failed", pk, attempts[pk])
            release_after_error(pk, attempts[pk], f"{type(exc).__name__}: {exc}")
            outcome[pk] = "error"
            continue
        batch.append(Finished(match, attempts[pk], seats[pk], played))
    committed = commit_results(batch)
    for item in batch:
        outcome[item.match.pk] = "finished" if item.match.pk in committed else "lost lease"
    return outcome.get(match_id, "not claimed")


# -- sweeping -----------------------------------------------------------------------------------


def sweep_stuck_matches() -> dict[str, int]:
    """Retry matches whose worker died (lease expired); re-send queued ones whose message may be lost.

    A queued match is re-sent at most once per deadline, the deadline doubling with each resend.
    While the broker still holds as many waiting messages as there are queued matches, none is
    lost: the matches just wait their turn in a backlog, and nothing is re-sent.
    """
    now = timezone.now()
    retried = failed = resent = deferred = 0
    for match_id, attempt in MATCH_LEASE.expired(now):
        if attempt >= settings.ARENA_MATCH_MAX_ATTEMPTS:
            if give_up(match_id, attempt, "the last attempt did not finish before its lease expired"):
                failed += 1
            continue
        reason = f"attempt {attempt}: the worker stopped before its lease expired"
        with transaction.atomic():
            if MATCH_LEASE.requeue(match_id, attempt, reason, only_expired=True):
                dispatch_match(match_id)
                retried += 1
    due = MATCH_LEASE.due_for_resend(now)
    if due:
        queued = Match.objects.filter(status=Match.Status.QUEUED).count()
        backlog = waiting_messages(settings.CELERY_TASK_DEFAULT_QUEUE)
        # At most this many queued matches can be without a message in the broker.
        missing = max(0, queued - backlog)
        for index, (match_id, resends) in enumerate(due):
            if index >= missing:
                deferred += 1
                continue
            with transaction.atomic():
                if MATCH_LEASE.mark_resent(match_id, resends, now):
                    dispatch_match(match_id)
                    resent += 1
    counts = {"retried": retried, "failed": failed, "resent": resent, "deferred": deferred}
    if any(counts.values()):
        log.info("match sweep: %s", ", ".join(f"{key} {value}" for key, value in counts.items()))
    return counts


# -- the arena ----------------------------------------------------------------------------------


def enter_arena(*, player_id: int, game: str, table_size: int, entered_by: Any) -> ArenaEntry:
    spec = resolve_game(game)
    if not spec.min_players <= table_size <= spec.max_players:
        raise RequestError(
            f"{spec.key} tables seat {spec.min_players} to {spec.max_players} players, got table_size {table_size}"
        )
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        raise RequestError(f"no player {player_id}")
    # entered_by None: the service itself (house bots entered by an operator's command).
    allowed = entered_by is None or entered_by.is_staff or player.owner_id == entered_by.id
    if not allowed:
        if player.owner_id is None and player.builtin:
            raise RequestError(
                f"player {player_id} ({player.name}) is a built-in bot: it joins the bots' arena by itself, "
                "as a house bot, whenever a bot waits for opponents"
            )
        raise RequestError(f"player {player_id} ({player.name}) belongs to another account; enter your own bots")
    # The arena plays bot matches: who may sit there, and who may wait in its pool.
    check(player, Where.MATCH)
    check(player, Where.ARENA)
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
