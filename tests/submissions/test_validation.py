"""Validation: friendly games against the built-in bots in the sandbox decide active or rejected."""

from __future__ import annotations

import importlib.util
import json
import threading
from collections.abc import Iterator
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.utils import timezone

from arena.models import Match
from submissions import actions
from submissions.models import BotSeat, BotVersion
from tests.submitted_bots import HOSTILE, STARTER_KITS, kit_zip

CRASH_ON_THIRD_MOVE = (HOSTILE / "kit_crash_mid_game.py").read_text()


def _version(bot) -> BotVersion:
    return BotVersion.objects.get(bot=bot, number=1)


def test_the_python_starter_kit_is_validated_and_becomes_active(submit):
    bot = submit("kit-py", (STARTER_KITS / "python" / "bot.py").read_bytes(), filename="bot.py")
    version = _version(bot)
    assert (version.status, version.reason) == ("active", "")
    assert version.activated_at is not None
    assert [game["forfeited"] for game in version.log] == [False, False]
    assert all(game["status"] == "finished" and game["decisions"] > 5 for game in version.log)
    matches = Match.objects.filter(pk__in=[game["match"] for game in version.log])
    assert {(m.kind, m.rated, m.status) for m in matches} == {("friendly", False, "finished")}
    assert [len(m.record["players"]) for m in matches.order_by("id")] == [2, 3]
    seats = BotSeat.objects.filter(version=version)
    assert seats.count() == 2 and all(seat.pinned and seat.played and not seat.forfeited for seat in seats)
    assert all(move["status"] == "ok" for seat in seats for move in seat.moves)


def test_the_javascript_starter_kit_is_validated_and_becomes_active(submit):
    bot = submit("kit-js", (STARTER_KITS / "javascript" / "bot.js").read_bytes(), filename="bot.js")
    version = _version(bot)
    assert version.status == "active", version.reason
    # Each game's log holds what the kit wrote during it (what it writes after "end" belongs to no game: its
    # process may already be waiting for the next one, with more_games).
    assert [game["stderr"].splitlines()[0] for game in version.log] == [
        f"seat {seat} of {len(opponents) + 1}"
        for opponents, seat, _ in (actions.validation_table(index, bot.pk, 1) for index in range(2))
    ]


def test_a_bot_crashing_mid_game_is_rejected_with_the_reason_and_its_log(submit, client_for):
    bot = submit("crasher", kit_zip(CRASH_ON_THIRD_MOVE), filename="crasher.zip")
    version = _version(bot)
    assert version.status == "rejected"
    seat = actions.validation_table(0, bot.pk, 1)[1]
    assert version.reason.startswith(
        f"validation game 1 (against greedy, seat {seat}): crash: the bot exited (exit code 1)"
    )
    assert len(version.log) == 1 and version.log[0]["forfeited"] is True
    assert "giving up in the middle of the game" in version.log[0]["stderr"]
    owner_view = client_for("alice").get(f"/api/bots/{bot.pk}/versions/1/").json()
    assert owner_view["status"] == "rejected" and "giving up" in owner_view["log"][0]["stderr"]
    seat_log = client_for("alice").get(f"/api/bots/{bot.pk}/matches/").json()["results"][0]
    assert [move["status"] for move in seat_log["moves"]] == ["ok", "ok", "crash"]
    assert client_for("bob").get(f"/api/bots/{bot.pk}/versions/1/").status_code == 404
    assert client_for("alice").get(f"/api/bots/{bot.pk}/").json()["status"] == "rejected"


def test_where_the_sandbox_cannot_start_uploads_are_rejected_never_run_bare(submit, settings):
    settings.ARENA_SANDBOX_BWRAP = "/nonexistent/bwrap"
    bot = submit("no-sandbox", (STARTER_KITS / "python" / "bot.py").read_bytes())
    version = _version(bot)
    assert version.status == "rejected"
    assert version.reason.startswith("the sandbox cannot start on this server")
    assert "bubblewrap not found at /nonexistent/bwrap" in version.reason
    assert not BotSeat.objects.filter(version=version).exists()  # no game was even created


class _HostedKit(BaseHTTPRequestHandler):
    """A hosted bot: the Python starter kit's policy answering POSTed protocol messages."""

    protocol_version = "HTTP/1.1"

    def log_message(self, *args: object) -> None:
        pass

    def do_POST(self) -> None:  # noqa: N802 - http.server's naming
        spec = importlib.util.spec_from_file_location("kit", STARTER_KITS / "python" / "bot.py")
        kit = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(kit)
        message = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if message["type"] == "start":
            reply = {"type": "ready"}
        elif message["type"] == "act":
            obs = message["observation"]
            reply = kit.choose_cut(obs) if obs["phase"] == "cut" else kit.choose_take(obs)
        else:
            reply = {}
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@pytest.fixture
def hosted() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _HostedKit)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/bot"
    server.shutdown()


def test_a_hosted_bot_is_validated_over_http_where_private_addresses_are_allowed(submit, hosted, settings):
    settings.ARENA_BOT_ALLOW_PRIVATE_URLS = True
    bot = submit("hosted-kit", endpoint=hosted)
    version = _version(bot)
    assert version.status == "active", version.reason
    assert all(not game["forfeited"] for game in version.log)


def test_a_hosted_bot_whose_address_became_private_is_refused_at_validation(submit, hosted, settings):
    # Created while private addresses were allowed (creation refuses them otherwise): every match checks again.
    settings.ARENA_BOT_ALLOW_PRIVATE_URLS = True
    bot = submit("hosted-private", endpoint=hosted, validate=False)
    settings.ARENA_BOT_ALLOW_PRIVATE_URLS = False
    actions.run_validation(_version(bot).id)
    version = _version(bot)
    assert version.status == "rejected"
    assert "127.0.0.1 is a loopback address" in version.reason


def test_validation_is_claimed_once_however_often_the_task_runs(submit):
    bot = submit("twice", (STARTER_KITS / "python" / "bot.py").read_bytes())
    version = _version(bot)
    assert actions.run_validation(version.id) == "not claimed"
    version.refresh_from_db()
    assert (version.status, version.attempt) == ("active", 1)
    assert BotSeat.objects.filter(version=version).count() == 2


def test_a_lost_validation_message_is_sent_again_and_a_dead_workers_validation_is_taken_over(
    submit, django_capture_on_commit_callbacks
):
    lost = submit("lost", (STARTER_KITS / "python" / "bot.py").read_bytes(), validate=False)
    BotVersion.objects.filter(bot=lost).update(lease_expires_at=timezone.now() - timedelta(seconds=1))
    with django_capture_on_commit_callbacks() as sent:
        assert actions.sweep_validations() == {"resent": 1}
        assert actions.sweep_validations() == {"resent": 0}  # the deadline moved on
    assert len(sent) == 1

    # A worker claimed this one and died: once its lease is over the next run takes it over.
    version = _version(lost)
    assert actions.claim_validation(version.id) == 1
    assert actions.run_validation(version.id) == "not claimed"  # the lease still holds
    BotVersion.objects.filter(pk=version.id).update(lease_expires_at=timezone.now() - timedelta(seconds=1))
    assert actions.run_validation(version.id) == "active"
    version.refresh_from_db()
    assert (version.status, version.attempt) == ("active", 2)


def test_a_dead_workers_validation_is_sent_again_once_however_often_the_sweeper_runs(
    submit, django_capture_on_commit_callbacks
):
    bot = submit("orphan", (STARTER_KITS / "python" / "bot.py").read_bytes(), validate=False)
    version = _version(bot)
    assert actions.claim_validation(version.id) == 1
    BotVersion.objects.filter(pk=version.id).update(lease_expires_at=timezone.now() - timedelta(seconds=1))
    with django_capture_on_commit_callbacks() as sent:
        assert actions.sweep_validations() == {"resent": 1}
        assert actions.sweep_validations() == {"resent": 0}
    assert len(sent) == 1
    version.refresh_from_db()
    assert (version.status, version.attempt) == ("pending", 1)
    assert actions.run_validation(version.id) == "active"
    version.refresh_from_db()
    assert version.attempt == 2
