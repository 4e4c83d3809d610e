"""A newcomer's journey through the real stack, default settings, nobody else in the arena: sign-up,
one uploaded bot, validation, an arena entry at a 4-player table, and a finished rated arena game
against house bots, with a real Celery worker and real Celery beat sending the matchmaker's ticks."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from arena.builtin import BUILTIN_BOTS
from arena.models import Match, MatchSeat, Player
from tests.submitted_bots import (  # noqa: F401  (fixtures)
    STARTER_KITS,
    _own_state_dir,
    bot_settings,
    client_for,
    submit,
    users,
    worker_environment,
)
from tests.support import ROOT, Workers, wait_until

# Submitted bots here run with the sandbox's short test limits, as in tests/submissions/.
pytestmark = pytest.mark.usefixtures("bot_settings")

LADDER = set(BUILTIN_BOTS)


@pytest.fixture
def beat(workers: Workers, tmp_path: Path) -> Iterator[subprocess.Popen[bytes]]:
    """Celery beat on this run's queues: the matchmaker's tick every ARENA_MATCHMAKING_SECONDS."""
    log = (tmp_path / "beat.log").open("wb")
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "beat",
            f"--schedule={tmp_path / 'beat-schedule'}",
            "--loglevel=WARNING",
        ],
        cwd=ROOT,
        env=workers.environment(**worker_environment()),
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    yield process
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)
    log.close()


def test_a_lone_newcomers_bot_plays_a_rated_arena_game_against_house_bots(workers, beat):
    workers.start("newcomer", concurrency=2, **worker_environment())
    signed_up = APIClient().post(
        "/api/accounts/", {"username": "newcomer", "password": "a-long-pass-phrase-42"}, format="json"
    )
    assert signed_up.status_code == 201, signed_up.json()
    me = APIClient()
    me.credentials(HTTP_AUTHORIZATION=f"Token {signed_up.json()['token']}")

    kit = SimpleUploadedFile("bot.py", (STARTER_KITS / "python" / "bot.py").read_bytes())
    created = me.post("/api/bots/", {"name": "first-chef", "file": kit}, format="multipart")
    assert created.status_code == 201, created.json()
    bot_id = created.json()["id"]

    def status() -> str:
        return str(me.get(f"/api/bots/{bot_id}/").json()["status"])

    wait_until(lambda: status() in ("active", "rejected"), 120, "the upload to be validated", workers.tail())
    assert status() == "active"

    entry = me.post("/api/arena/entries/", {"player": bot_id, "game": "part-du-chef", "table_size": 4}, format="json")
    assert entry.status_code == 201, entry.json()

    def finished_arena_game() -> int | None:
        return (
            MatchSeat.objects.filter(
                player_id=bot_id, match__kind=Match.Kind.ARENA, match__status=Match.Status.FINISHED
            )
            .values_list("match_id", flat=True)
            .first()
        )

    wait_until(lambda: finished_arena_game() is not None, 120, "a finished arena game", workers.tail())
    played = APIClient().get(f"/api/matches/{finished_arena_game()}/").json()
    assert (played["kind"], played["rated"], played["status"]) == ("arena", True, "finished")
    assert len(played["results"]) == 4
    assert all(result["rating_after"] is not None for result in played["results"])
    others = Player.objects.filter(pk__in=[r["player"] for r in played["results"] if r["player"] != bot_id])
    assert len(others) == 3 and all(p.owner_id is None and p.builtin in LADDER for p in others)
