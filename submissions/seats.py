"""Seating submitted bots: which version plays a seat, and the session that plays it.

Uploaded versions run in the sandbox (never bare: if it cannot start, SandboxUnavailable goes up
and the match is retried, then failed, with that message; if the server is only slow to start it,
past ARENA_SANDBOX_START_MS, the session raises ServerBusy and the game is given back, nobody
charged); hosted versions are called over HTTP.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from django.conf import settings

from arena.errors import UnplayablePlayer
from arena.models import Player
from arena.seats import SeatKind, Where
from botclient import BotSession, HttpBot, SandboxedBot
from botclient.session import SessionLimits
from sandbox import Sandbox, SandboxConfig
from submissions import bundles
from submissions.models import BotSeat, BotVersion, SubmittedBot
from submissions.rules import arena_refusal

_sandboxes: dict[tuple[object, ...], Sandbox] = {}
_lock = threading.Lock()


def get_sandbox() -> Sandbox:
    """The sandbox configured by the settings (one per configuration, so checks run once)."""
    key = (
        settings.ARENA_SANDBOX_STATE_DIR,
        settings.ARENA_SANDBOX_BASE_UID,
        settings.ARENA_SANDBOX_SLOTS,
        settings.ARENA_SANDBOX_BWRAP,
        settings.ARENA_SANDBOX_START_DELAY_MS,
    )
    with _lock:
        box = _sandboxes.get(key)
        if box is None:
            box = Sandbox(
                SandboxConfig(
                    state_dir=Path(settings.ARENA_SANDBOX_STATE_DIR),
                    base_uid=int(settings.ARENA_SANDBOX_BASE_UID),
                    slots=int(settings.ARENA_SANDBOX_SLOTS),
                    bwrap=settings.ARENA_SANDBOX_BWRAP,
                    start_delay_s=int(settings.ARENA_SANDBOX_START_DELAY_MS) / 1000,
                )
            )
            _sandboxes[key] = box
        return box


def close_kept_processes() -> None:
    """Stop the bots' processes kept in this process for a next game (sandbox.kept), in every sandbox it
    made: their slots and work folders go back as the process ends (a worker child's shutdown)."""
    with _lock:
        boxes = list(_sandboxes.values())
    for box in boxes:
        box.kept.close_all()


def active_version(player: Player) -> BotVersion | None:
    return (
        BotVersion.objects.filter(bot_id=player.id, status=BotVersion.Status.ACTIVE, bot__retired_at__isnull=True)
        .defer("bundle", "log")
        .first()
    )


def playable_refusal(player: Player) -> str | None:
    """Why this submitted bot cannot be seated now, or None."""
    version = active_version(player)
    if version is not None:
        return None
    latest = BotVersion.objects.filter(bot_id=player.id).only("number", "status", "bot__retired_at").last()
    if latest is None:
        return f"bot {player.id} ({player.name}) has no playable version"
    if latest.status == BotVersion.Status.RETIRED:
        return f"bot {player.id} ({player.name}) is retired"
    return f"bot {player.id} ({player.name}) has no active version (version {latest.number} is {latest.status})"


def open_session(version: BotVersion) -> BotSession:
    """A protocol v1 session for this version, with the failure-policy limits from the settings."""
    limits: SessionLimits = {
        "move_ms": int(settings.ARENA_BOT_MOVE_MS),
        "bank_ms": int(settings.ARENA_BOT_BANK_MS),
        "start_ms": int(settings.ARENA_BOT_START_MS),
        "launch_ms": int(settings.ARENA_SANDBOX_START_MS),
        "game": version.bot.game,
    }
    session: BotSession
    if version.source == BotVersion.Source.ENDPOINT:
        session = HttpBot(version.endpoint, allow_private=bool(settings.ARENA_BOT_ALLOW_PRIVATE_URLS), **limits)
    else:
        box = get_sandbox()
        box.check()  # before anything of the upload is touched
        files = bundles.prepared(version.bundle_sha256)  # the bundle is read only the first time on a machine
        if files is None:
            data = version.bundle
            if data is None:
                data = BotVersion.objects.values_list("bundle", flat=True).get(pk=version.pk)
            assert data is not None  # an upload keeps its bundle (it is saved with it)
            files = bundles.materialize(version.filename, bytes(data), version.bundle_sha256, box)
        session = SandboxedBot(files, sandbox=box, reuse_key=("version", version.id), **limits)
    session.version_id = version.id
    return session


def session_for(player: Player, *, match_id: int | None, seat: int) -> BotSession:
    version = None
    if match_id is not None:
        pin = BotSeat.objects.filter(match_id=match_id, seat=seat, pinned=True).select_related("version__bot").first()
        if pin is not None:
            version = pin.version
    if version is None:
        version = active_version(player)
    if version is None:
        raise UnplayablePlayer(playable_refusal(player) or f"bot {player.id} has no playable version")
    if version.bot_id != player.id:
        raise UnplayablePlayer(f"version {version.id} does not belong to bot {player.id}")
    return open_session(version)


def refusal(player: Player, where: Where, pin: Any = None) -> str | None:
    """Why this submitted bot may not sit at `where` now (registered as its seat kind's hook)."""
    if isinstance(pin, BotVersion):
        # A validation or tournament game plays the pinned version, active or still pending.
        if pin.bot_id != player.id:
            return f"version {pin.id} does not belong to bot {player.id}"
        if SubmittedBot.objects.filter(pk=player.id, retired_at__isnull=False).exists():
            return f"bot {player.id} ({player.name}) is retired"
        return None
    if where == Where.TABLE and not SubmittedBot.objects.filter(pk=player.id).exists():
        return f"bot {player.id} ({player.name}) cannot play at a table with people"
    reason = playable_refusal(player)
    if reason is None and where in (Where.TABLE, Where.ARENA):
        reason = arena_refusal(player)
    return reason


def challenge_refusal(player: Player, challenger: Any) -> str | None:
    """Why `challenger` may not seat this bot in a friendly match or table: its owner's choice."""
    chosen = SubmittedBot.objects.filter(pk=player.id).values_list("challengers", flat=True).first()
    if chosen == SubmittedBot.Challengers.OWNER and player.owner_id != getattr(challenger, "pk", None):
        return (
            f"bot {player.id} ({player.name}) plays friendly games for its owner only "
            "(its owner chose challengers=owner); choose another bot"
        )
    return None


SUBMITTED_BOT = SeatKind(
    name="submitted bot",
    answers_for=lambda player: player.is_submitted_bot,
    refusal=refusal,
    bot=lambda player, seed, match_id, seat: session_for(player, match_id=match_id, seat=seat),
    challenge=challenge_refusal,
)
