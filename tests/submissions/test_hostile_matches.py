"""Hostile submitted bots in real arena matches: contained, forfeited, replaced by greedy.

Each bot plays a rated arena match through the match task against a built-in bot. The ones that
break the protocol forfeit with the right status, `greedy` finishes their game, and the ratings
place them below their opponent; the ones that try to get out (read, write, connect) find every
door closed and play on. Afterwards no process of the sandbox's slot uids is left (checked by the
autouse fixture), and the worker goes on playing.
"""

from __future__ import annotations

import io
import json
import os
import struct
import zipfile
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from arena.matches import create_match
from arena.models import Match, MatchSeat, Player
from games.part_du_chef import replay
from results.tasks import play_match
from submissions.models import BotSeat, BotVersion, SubmittedBot
from tests.hostile_outcomes import HOSTILE_OUTCOMES
from tests.submitted_bots import (
    HOSTILE,
    ROOT,
    SANDBOX_BOTS,
    STARTER_KITS,
    kit_zip,
    sandboxed_processes,
    worker_environment,
)
from tests.support import wait_until


def _activate(bot: SubmittedBot) -> BotVersion:
    """As if the version had passed validation and turned hostile afterwards."""
    version = BotVersion.objects.get(bot=bot, number=1)
    version.status, version.activated_at = BotVersion.Status.ACTIVE, timezone.now()
    version.save(update_fields=["status", "activated_at"])
    return version


def _arena_match(bot: SubmittedBot, seed: int = 5) -> Match:
    greedy = Player.objects.get(name="greedy")
    match = create_match(game="part-du-chef", kind="arena", player_ids=[bot.pk, greedy.pk], seed=seed)
    assert play_match.run(match.id) == "finished"
    match.refresh_from_db()
    return match


def _seat_decisions(match: Match, seat: int) -> int:
    return sum(1 for action in match.record["actions"] if action["seat"] == seat)


def _assert_forfeited_and_replaced(match: Match, status: str) -> BotSeat:
    assert match.status == "finished" and match.attempt == 1
    bot_seat = BotSeat.objects.get(match=match, seat=0)
    assert bot_seat.forfeited and bot_seat.forfeit_reason.startswith(f"{status}: ")
    assert bot_seat.moves[-1]["status"] == status
    assert all(move["status"] == "ok" for move in bot_seat.moves[:-1])
    # Greedy played the seat from the failed decision on: the game is complete and replays.
    assert _seat_decisions(match, 0) > sum(1 for move in bot_seat.moves if move["status"] == "ok")
    replay(match.record)
    seats = {seat.seat: seat for seat in MatchSeat.objects.filter(match=match)}
    assert seats[0].forfeited and not seats[1].forfeited
    assert seats[0].rating_after < seats[0].rating_before < seats[1].rating_after
    return bot_seat


@pytest.mark.parametrize(("name", "status", "hint"), HOSTILE_OUTCOMES)
def test_a_hostile_bot_forfeits_with_the_right_status_and_greedy_finishes_its_game(
    submit, settings, name, status, hint
):
    if name == "memory_hog":
        settings.ARENA_BOT_BANK_MS = 10_000  # time to reach the memory limit rather than the clock
    bot = submit(name.replace("_", "-"), (SANDBOX_BOTS / f"{name}.py").read_bytes(), validate=False)
    _activate(bot)
    bot_seat = _assert_forfeited_and_replaced(_arena_match(bot), status)
    last = bot_seat.moves[-1]
    assert hint in (last["error"] or "") + last["stderr"] + bot_seat.stderr, last


def test_a_bot_crashing_mid_game_forfeits_after_its_good_moves(submit):
    bot = submit(
        "crash-mid-game", kit_zip((HOSTILE / "kit_crash_mid_game.py").read_text()), filename="c.zip", validate=False
    )
    _activate(bot)
    bot_seat = _assert_forfeited_and_replaced(_arena_match(bot), "crash")
    assert [move["status"] for move in bot_seat.moves] == ["ok", "ok", "crash"]
    assert "giving up in the middle of the game" in bot_seat.moves[-1]["stderr"]
    assert "exit code 1" in bot_seat.moves[-1]["error"]


def _playing_attacker(submit, name: str, source: str) -> tuple[Match, BotSeat]:
    """An attacker that otherwise plays well passes validation, then plays an arena match."""
    bot = submit(name, kit_zip(source), filename=f"{name}.zip")
    assert BotVersion.objects.get(bot=bot).status == "active"
    match = _arena_match(bot)
    bot_seat = BotSeat.objects.get(match=match, seat=0)
    assert match.status == "finished" and not bot_seat.forfeited
    assert {move["status"] for move in bot_seat.moves} == {"ok"}
    return match, bot_seat


def test_a_bot_cannot_read_the_settings_the_shadow_file_or_the_workers_environment(submit, monkeypatch):
    monkeypatch.setenv("ARENA_SECRET_FOR_TEST", "do-not-leak")
    paths = [
        str(ROOT / "config" / "settings.py"),
        str(ROOT / "manage.py"),
        "/etc/shadow",
        "/etc/passwd",
        "/root/.bashrc",
        f"/proc/{os.getpid()}/environ",
    ]
    assert Path(paths[0]).is_file()
    source = (HOSTILE / "kit_read_outside.py").read_text().replace("__PATHS__", json.dumps(paths))
    _, bot_seat = _playing_attacker(submit, "reader", source)
    log = bot_seat.stderr
    assert "LEAKED" not in log and "do-not-leak" not in log and "SECRET" not in log
    for path in paths:
        assert f"read {path}: refused" in log, path
    assert "DATABASE_URL" not in log and "REDIS_URL" not in log


def test_a_bot_can_write_only_to_its_private_tmp(submit, tmp_path):
    host_target = tmp_path / "planted-by-bot"
    targets = [
        "/bot/planted.py",
        "/usr/planted",
        "/etc/planted",
        "/planted",
        str(host_target),
        str(ROOT / "planted-by-bot"),
        "/tmp/planted",
    ]
    source = (HOSTILE / "kit_write_outside.py").read_text().replace("__TARGETS__", json.dumps(targets))
    _, bot_seat = _playing_attacker(submit, "writer", source)
    log = bot_seat.stderr
    for target in targets[:-1]:
        assert f"write {target}: refused" in log, target
    assert "write /tmp/planted: WROTE" in log  # its own tmpfs, gone with it
    assert not host_target.exists() and not (ROOT / "planted-by-bot").exists() and not Path("/tmp/planted").exists()


def test_a_bot_cannot_reach_redis_postgresql_or_the_internet(submit):
    _, bot_seat = _playing_attacker(submit, "networker", (HOSTILE / "kit_network.py").read_text())
    log = bot_seat.stderr
    assert "CONNECTED" not in log
    for name in ("redis", "postgresql", "internet", "loopback6"):
        assert f"connect {name}: refused" in log, name


def _bomb(entries: dict[str, bytes | str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in entries.items():
            zf.writestr(name, data)
    return buffer.getvalue()


def test_a_zip_bomb_upload_is_refused_before_anything_is_decompressed(client_for):
    bomb = _bomb({"main.py": "print(1)\n", "payload.bin": b"\0" * (64 * 1024 * 1024)})
    assert len(bomb) < 200_000
    response = client_for("alice").post(
        "/api/bots/", {"name": "bomber", "file": SimpleUploadedFile("bomb.zip", bomb)}, format="multipart"
    )
    assert response.status_code == 400 and "zip bomb refused" in response.json()["detail"]
    assert not SubmittedBot.objects.exists()


def test_a_zip_bomb_hiding_its_size_is_stopped_by_the_sandboxed_unpacker(submit):
    raw = bytearray(_bomb({"main.py": "import kit\n", "data.bin": b"\0" * (4 * 1024 * 1024)}))
    with zipfile.ZipFile(io.BytesIO(bytes(raw))) as zf:
        info = zf.getinfo("data.bin")
    struct.pack_into("<I", raw, info.header_offset + 22, 1000)  # local header: uncompressed size
    central = raw.find(b"PK\x01\x02")
    while raw[central + 46 : central + 46 + 8] != b"data.bin":
        central = raw.find(b"PK\x01\x02", central + 4)
    struct.pack_into("<I", raw, central + 24, 1000)  # central directory: uncompressed size
    bot = submit("liar", bytes(raw), filename="liar.zip")  # the directory alone looks harmless
    version = BotVersion.objects.get(bot=bot)
    assert version.status == "rejected"
    assert version.reason.startswith("the upload cannot be prepared: cannot unpack the zip")
    assert sandboxed_processes() == {}


def test_after_a_hostile_match_the_same_worker_plays_a_clean_one(submit):
    hog = submit("hog", (SANDBOX_BOTS / "memory_hog.py").read_bytes(), validate=False)
    _activate(hog)
    _arena_match(hog)
    kit = submit("kit-after", (STARTER_KITS / "python" / "bot.py").read_bytes())
    clean = _arena_match(kit, seed=6)
    assert not BotSeat.objects.get(match=clean, seat=0).forfeited


def test_a_real_worker_survives_hostile_matches_and_plays_on(workers, submit):
    bomb = submit("bomb-w", (SANDBOX_BOTS / "fork_bomb.py").read_bytes(), validate=False)
    hog = submit("hog-w", (SANDBOX_BOTS / "memory_hog.py").read_bytes(), validate=False)
    for bot in (bomb, hog):
        _activate(bot)
    kit = submit("kit-w", (STARTER_KITS / "python" / "bot.py").read_bytes())
    worker = workers.start("hostile", **{**worker_environment(), "ARENA_BOT_BANK_MS": "3000"})
    greedy = Player.objects.get(name="greedy")
    matches = [
        create_match(game="part-du-chef", kind="arena", player_ids=[bot.pk, greedy.pk], seed=9)
        for bot in (bomb, hog, kit)
    ]

    def done() -> bool:
        return Match.objects.filter(pk__in=[m.pk for m in matches], status="finished").count() == 3

    wait_until(done, 90, "the worker to play the three matches", workers.tail())
    assert worker.poll() is None  # the worker is still up
    assert list(Match.objects.filter(pk__in=[m.pk for m in matches]).values_list("attempt", flat=True)) == [1, 1, 1]
    reasons = [BotSeat.objects.get(match=match, seat=0).forfeit_reason.split(":")[0] for match in matches]
    assert reasons == ["timeout", "crash", ""]
