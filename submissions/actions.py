"""State changes of submitted bots and their versions; each runs in one transaction.

A version moves pending -> validating (claimed with a conditional UPDATE bumping `attempt`) ->
active or rejected; an active version becomes retired when a newer one is activated or the bot
is retired. Validation plays real friendly matches against the built-in bots in the sandbox.
"""

from __future__ import annotations

import logging
import time
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from arena.dispatch import send_on_commit
from arena.errors import RequestError
from arena.leases import Lease
from arena.matches import resolve_game
from arena.models import ArenaEntry, Match, Player
from arena.names import name_refusal
from arena.seeds import draw_seed
from botclient.http import PrivateEndpoint, UnsafeEndpoint, check_endpoint, parse_endpoint, resolve_checked
from common.task_names import TaskName
from ratings.ledger import reset_provisional
from results.batches import run_match
from sandbox import BundleRejected, SandboxBusy, SandboxUnavailable
from sandbox.build import BuildFailed
from sandbox.languages import ACCEPTED
from submissions import bundles
from submissions.matches import create_pinned_match
from submissions.models import BotSeat, BotVersion, SubmittedBot
from submissions.seats import get_sandbox

log = logging.getLogger(__name__)

VALIDATION_LEASE_SECONDS = 600.0
VALIDATION_MAX_ATTEMPTS = 3
# Validation tables: the built-in opponents of each game, the seat the turn starts from (validation_table), the
# options.
VALIDATION_TABLES: tuple[tuple[tuple[str, ...], int, dict[str, Any]], ...] = (
    (("greedy",), 0, {}),
    (("random", "greedy"), 1, {"marianne": True}),
    (("greedy", "search", "random"), 3, {}),
)
LOG_STDERR_CHARS = 4096

VALIDATION_LEASE = Lease(
    model=BotVersion,
    queued=BotVersion.Status.PENDING,
    running=BotVersion.Status.VALIDATING,
    lease_seconds=lambda: VALIDATION_LEASE_SECONDS,
    max_attempts=lambda: VALIDATION_MAX_ATTEMPTS,
)


# -- submitting ---------------------------------------------------------------------------------


def _source(upload: tuple[str, bytes] | None, endpoint: str | None) -> dict[str, Any]:
    if (upload is None) == (not endpoint):
        raise RequestError(f"send either a file ({ACCEPTED}) or an endpoint URL")
    if upload is not None:
        try:
            checked = bundles.check_upload(*upload)
        except BundleRejected as exc:
            raise RequestError(f"upload refused: {exc}") from None
        return {
            "source": BotVersion.Source.UPLOAD,
            "filename": checked.filename,
            "bundle": checked.data,
            "bundle_sha256": checked.sha256,
            "bundle_size": len(checked.data),
        }
    assert endpoint is not None
    try:
        check_endpoint(endpoint, allow_private=bool(settings.ARENA_BOT_ALLOW_PRIVATE_URLS))
    except UnsafeEndpoint as exc:
        raise RequestError(f"endpoint refused: {exc}{_local_hint(exc)}") from None
    return {"source": BotVersion.Source.ENDPOINT, "endpoint": endpoint}


def _local_hint(exc: UnsafeEndpoint) -> str:
    if not isinstance(exc, PrivateEndpoint):
        return ""
    return " (on your own machine, start the server with ARENA_BOT_ALLOW_PRIVATE_URLS=1 to allow such addresses)"


# A validation given back because the server was too busy to start the bot is sent again this much later.
BUSY_RETRY_SECONDS = 5.0


def dispatch_validation(version_id: int, *, after_s: float = 0.0) -> None:
    eta = timezone.now() + timedelta(seconds=after_s) if after_s > 0 else None
    send_on_commit(TaskName.VALIDATE_VERSION, (version_id,), eta=eta)


def give_back_validation(version_id: int, attempt: int) -> None:
    """The server was too busy to play the validation (its sandbox): back to pending with its attempt, later."""
    with transaction.atomic():
        for again in VALIDATION_LEASE.unclaim([(version_id, attempt)], resend={version_id}):
            dispatch_validation(again, after_s=BUSY_RETRY_SECONDS)


def create_bot(
    *,
    owner: Any,
    name: str,
    game: str,
    description: str = "",
    upload: tuple[str, bytes] | None = None,
    endpoint: str | None = None,
) -> SubmittedBot:
    spec = resolve_game(game)
    refusal = name_refusal(name)
    if refusal is not None:
        raise RequestError(refusal)
    source = _source(upload, endpoint)
    try:
        with transaction.atomic():
            player = Player.objects.create(name=name, kind=Player.Kind.BOT, owner=owner)
            bot = SubmittedBot.objects.create(player=player, game=spec.key, description=description)
            deadline = VALIDATION_LEASE.resend_deadline()
            version = BotVersion.objects.create(bot=bot, number=1, lease_expires_at=deadline, **source)
            dispatch_validation(version.id)
    except IntegrityError:
        raise RequestError(f"a player named {name!r} already exists; choose another name") from None
    return bot


def add_version(
    bot: SubmittedBot, *, upload: tuple[str, bytes] | None = None, endpoint: str | None = None
) -> BotVersion:
    source = _source(upload, endpoint)
    with transaction.atomic():
        locked = SubmittedBot.objects.select_for_update().get(pk=bot.pk)
        if locked.retired_at is not None:
            raise RequestError(f"bot {bot.pk} is retired; submit a new bot instead")
        last = BotVersion.objects.filter(bot=locked).order_by("-number").values_list("number", flat=True).first()
        version = BotVersion.objects.create(
            bot=locked, number=(last or 0) + 1, lease_expires_at=VALIDATION_LEASE.resend_deadline(), **source
        )
        dispatch_validation(version.id)
    return version


def retire_bot(bot: SubmittedBot) -> SubmittedBot:
    """The bot stops playing: versions retired, arena entries closed. Its history stays."""
    with transaction.atomic():
        locked = SubmittedBot.objects.select_for_update().get(pk=bot.pk)
        if locked.retired_at is None:
            locked.retired_at = timezone.now()
            locked.save(update_fields=["retired_at"])
            BotVersion.objects.filter(
                bot=locked,
                status__in=[BotVersion.Status.PENDING, BotVersion.Status.VALIDATING, BotVersion.Status.ACTIVE],
            ).update(status=BotVersion.Status.RETIRED, reason="the bot was retired by its owner", lease_expires_at=None)
            ArenaEntry.objects.filter(player_id=locked.pk, active=True).update(active=False)
    return locked


# -- validation ---------------------------------------------------------------------------------


def claim_validation(version_id: int) -> int | None:
    attempt, exhausted = VALIDATION_LEASE.claim(version_id)
    if exhausted is not None:
        _finish(version_id, exhausted, accepted=False, reason="validation did not finish after 3 attempts", log=None)
    return attempt


def _finish(version_id: int, attempt: int, *, accepted: bool, reason: str, log: list[Any] | None) -> bool:
    now = timezone.now()
    with transaction.atomic():
        version = (
            BotVersion.objects.select_for_update().select_related("bot").defer("bundle").filter(pk=version_id).first()
        )
        if version is None or version.attempt != attempt:
            return False
        if version.status not in (BotVersion.Status.VALIDATING, BotVersion.Status.PENDING):
            return False
        bot = SubmittedBot.objects.select_for_update().get(pk=version.bot_id)
        fields = ["status", "reason", "validated_at", "lease_expires_at"]
        if log is not None:
            version.log = log
            fields.append("log")
        version.validated_at = now
        version.lease_expires_at = None
        newer_active = BotVersion.objects.filter(
            bot=bot, status=BotVersion.Status.ACTIVE, number__gt=version.number
        ).first()
        if not accepted:
            version.status, version.reason = BotVersion.Status.REJECTED, reason
        elif bot.retired_at is not None:
            version.status, version.reason = BotVersion.Status.RETIRED, "validated, but the bot was retired meanwhile"
        elif newer_active is not None:
            version.status = BotVersion.Status.RETIRED
            version.reason = f"validated, but version {newer_active.number} was activated first"
        else:
            played_before = BotVersion.objects.filter(bot=bot, activated_at__isnull=False).exists()
            BotVersion.objects.filter(bot=bot, status=BotVersion.Status.ACTIVE).update(
                status=BotVersion.Status.RETIRED, reason=f"replaced by version {version.number}"
            )
            version.status, version.reason, version.activated_at = BotVersion.Status.ACTIVE, "", now
            fields.append("activated_at")
            if bot.suspended_at is not None:
                bot.suspended_at, bot.suspension_reason = None, ""
                bot.save(update_fields=["suspended_at", "suspension_reason"])
            if played_before:
                # Same rating, but uncertain again: it moves fast and is placed against the house ladder.
                reset_provisional(bot.player)
        version.save(update_fields=fields)
    return True


def _preflight(version: BotVersion) -> None:
    """Raise with the reason the version cannot be played at all, before any game."""
    if version.source == BotVersion.Source.ENDPOINT:
        resolve_checked(parse_endpoint(version.endpoint), allow_private=bool(settings.ARENA_BOT_ALLOW_PRIVATE_URLS))
        return
    box = get_sandbox()
    box.check()
    bundles.materialize(version.filename, bytes(version.bundle or b""), version.bundle_sha256, box)


def play_to_end(match_id: int, timeout_s: float) -> str:
    """Play a match in this process (retrying as the match task would); its final status."""
    deadline = time.monotonic() + timeout_s
    while True:
        outcome = run_match(match_id)
        status = Match.objects.values_list("status", flat=True).get(pk=match_id)
        if status in (Match.Status.FINISHED, Match.Status.FAILED):
            return str(status)
        if outcome == "server busy" or time.monotonic() > deadline:
            return str(status)  # given back unplayed: the server was too busy to start a bot
        if status == Match.Status.RUNNING:
            time.sleep(0.2)  # another worker holds it


def _game_log(index: int, match: Match, seat: int) -> dict[str, Any]:
    bot_seat = BotSeat.objects.filter(match=match, seat=seat).first()
    moves = bot_seat.moves if bot_seat else []
    entry: dict[str, Any] = {
        "game": index + 1,
        "match": match.id,
        "players": [s.player.name for s in match.seats.select_related("player").order_by("seat")],
        "seat": seat,
        "status": match.status,
        "forfeited": bool(bot_seat and bot_seat.forfeited),
        "reason": (bot_seat.forfeit_reason if bot_seat else "") or match.error or None,
        "decisions": len(moves),
        "max_latency_ms": max((m["latency_ms"] for m in moves if m.get("latency_ms") is not None), default=None),
        "stderr": (bot_seat.stderr if bot_seat else "")[-LOG_STDERR_CHARS:],
    }
    # The bot's own words for the decision that failed it: what it actually answered, capped.
    answers = [m["answer"] for m in moves if m.get("answer") is not None]
    if answers:
        entry["answer"] = answers[-1]
    return entry


def validation_table(index: int, bot_id: int, version_number: int) -> tuple[tuple[str, ...], int, dict[str, Any]]:
    """Validation game `index` of a bot's version: the built-in opponents, the bot's seat, the options.

    Fair seats: the bot's seat at a table turns by one place per version of the bot (and per repeat of
    the table when more games than tables are played), so over its validation games it sits in every
    seat alike, and is not always the first chef. The turn starts from the bot's id, so that the first
    versions of different bots are spread over the seats too, rather than all sitting where the table
    says; the same bot and version always sit in the same seats.

    Bot 6, versions 1 to 3, then the first versions of bots 6 to 8, at the first two tables:

    >>> [validation_table(0, 6, number)[1] for number in (1, 2, 3)]
    [0, 1, 0]
    >>> [validation_table(1, 6, number)[1] for number in (1, 2, 3)]
    [1, 2, 0]
    >>> [validation_table(1, bot, 1)[1] for bot in (6, 7, 8)]
    [1, 2, 0]
    """
    opponents, seat, options = VALIDATION_TABLES[index % len(VALIDATION_TABLES)]
    turn = bot_id + version_number - 1 + index // len(VALIDATION_TABLES)
    return opponents, (seat + turn) % (len(opponents) + 1), options


def run_validation(version_id: int) -> str:
    """Claim, play the validation games, then activate or reject. Safe to call any number of times."""
    attempt = claim_validation(version_id)
    if attempt is None:
        return "not claimed"
    version = BotVersion.objects.select_related("bot__player").get(pk=version_id)
    bot = version.bot
    try:
        _preflight(version)
    except SandboxBusy:
        give_back_validation(version_id, attempt)  # the server's slowness is no reason to reject a bot
        return "server busy"
    except SandboxUnavailable as exc:
        reason = (
            f"the sandbox cannot start on this server, so uploaded bots are refused rather than run without it: {exc}"
        )
        _finish(version_id, attempt, accepted=False, reason=reason, log=[{"error": reason}])
        return "rejected"
    except BuildFailed as exc:
        reason = f"{exc}\n{exc.log}" if exc.log else str(exc)
        _finish(
            version_id,
            attempt,
            accepted=False,
            reason=reason[:LOG_STDERR_CHARS],
            log=[{"build": exc.log, "error": str(exc)}],
        )
        return "rejected"
    except BundleRejected as exc:
        reason = f"the upload cannot be prepared: {exc}"
        _finish(version_id, attempt, accepted=False, reason=reason, log=[{"error": reason}])
        return "rejected"
    except UnsafeEndpoint as exc:
        reason = f"the endpoint is refused: {exc}{_local_hint(exc)}"
        _finish(version_id, attempt, accepted=False, reason=reason, log=[{"error": reason}])
        return "rejected"
    builtins = {p.builtin: p for p in Player.objects.filter(builtin__in=["random", "greedy", "search"])}
    games = max(1, int(settings.ARENA_BOT_VALIDATION_GAMES))
    entries: list[dict[str, Any]] = []
    for index in range(games):
        opponents, seat, options = validation_table(index, bot.pk, version.number)
        lineup: list[tuple[Player, BotVersion | None]] = [(builtins[name], None) for name in opponents]
        lineup.insert(seat, (bot.player, version))
        match = create_pinned_match(
            game=bot.game,
            kind=Match.Kind.FRIENDLY,
            seats=lineup,
            options=options,
            seed=draw_seed(),  # drawn, so that no bot can know its validation deals in advance
            created_by=bot.player.owner,
            dispatch=False,
        )
        status = play_to_end(match.id, VALIDATION_LEASE_SECONDS / 2)
        match.refresh_from_db()
        if match.status == Match.Status.QUEUED:
            # Given back unplayed: the server was too busy to start a bot. Not the bot's fault: its
            # validation is given back too and played again later, on matches of its own.
            Match.objects.filter(pk=match.id, status=Match.Status.QUEUED).update(
                status=Match.Status.FAILED,
                error="not played: the server was too busy to start the bot; its validation is played again later",
                finished_at=timezone.now(),
            )
            give_back_validation(version_id, attempt)
            return "server busy"
        entry = _game_log(index, match, seat)
        entries.append(entry)
        if status != Match.Status.FINISHED:
            reason = f"validation game {index + 1} could not be played: {match.error or status}"
            _finish(version_id, attempt, accepted=False, reason=reason, log=entries)
            return "rejected"
        if entry["forfeited"]:
            against = ", ".join(opponents)
            reason = f"validation game {index + 1} (against {against}, seat {seat}): {entry['reason']}"
            _finish(version_id, attempt, accepted=False, reason=reason, log=entries)
            return "rejected"
    _finish(version_id, attempt, accepted=True, reason="", log=entries)
    return "active"


def sweep_validations() -> dict[str, int]:
    """Re-send validations whose message was lost (once per deadline, doubling) or whose worker died."""
    now = timezone.now()
    resent = 0
    for version_id, attempt in VALIDATION_LEASE.expired(now):
        # Back to pending under the same attempt count: the next claim takes it over (or rejects
        # the version after the last attempt), and later sweeps wait for the resend deadline.
        with transaction.atomic():
            if VALIDATION_LEASE.requeue(version_id, attempt, "", only_expired=True):
                dispatch_validation(version_id)
                resent += 1
    for version_id, resends in VALIDATION_LEASE.due_for_resend(now):
        with transaction.atomic():
            if VALIDATION_LEASE.mark_resent(version_id, resends, now):
                dispatch_validation(version_id)
                resent += 1
    if resent:
        log.info("validation sweep: resent %s", resent)
    return {"resent": resent}
