"""While PostgreSQL is away, the server `make run` starts answers 503 with Retry-After (JSON under /api/, a short
page elsewhere), never 500; once it is back the server recovers by itself, and a match created with an
Idempotency-Key, retried all through the outage, exists exactly once.

The database going away is a TCP proxy of the test's own between the server and PostgreSQL that resets
every connection and refuses new ones (tests/served.py): the machine's PostgreSQL is never stopped.
"""

from __future__ import annotations

import os
import time
import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from rest_framework.authtoken.models import Token

from arena.models import Match, Player
from tests.served import Answer, CuttableProxy, call, make_run_server, wait_for_the_servers_sessions_to_end
from tests.support import Workers, wait_until

pytestmark = pytest.mark.system

OUTAGE_SECONDS = float(os.environ.get("ARENA_TEST_OUTAGE_SECONDS", "10"))


def _unavailable(answer: Answer) -> bool:
    return answer.status == 503 and int(answer.headers.get("retry-after", "0")) > 0


def test_while_the_database_is_away_the_site_answers_503_and_a_retried_post_creates_one_match(
    _real_services: str, transactional_db: None
) -> None:
    user = User.objects.create_user("organiser", password="a-long-passphrase")
    token = Token.objects.create(user=user).key
    bots = list(Player.objects.filter(kind=Player.Kind.BOT).order_by("id").values_list("id", flat=True)[:2])
    auth = {"Authorization": f"Token {token}"}
    settings = connection.settings_dict
    proxy = CuttableProxy(str(settings["HOST"]), int(settings["PORT"]))
    proxy.start()
    environment = Workers(_real_services).environment(
        LOG_LEVEL="ERROR",
        DATABASE_URL=f"postgres://{settings['USER']}@127.0.0.1:{proxy.port}/{settings['NAME']}",
        ARENA_DB_POOL_MAX_SIZE="2",
        ARENA_DB_POOL_TIMEOUT="3",
        ARENA_DB_CONNECT_TIMEOUT="2",
        ARENA_OUTAGE_RETRY_AFTER="4",
    )
    key = str(uuid.uuid4())
    body = {"game": "part-du-chef", "kind": "friendly", "players": bots}
    try:
        with make_run_server(environment) as base:

            def create() -> Answer:
                headers = {**auth, "Idempotency-Key": key}
                return call(base, "/api/matches/", method="POST", body=body, headers=headers)

            assert call(base, "/api/matches/", headers=auth).status == 200
            proxy.cut()
            away_until = time.monotonic() + OUTAGE_SECONDS
            seen: list[tuple[str, int]] = []
            api = page = creating = None
            while time.monotonic() < away_until:
                api = call(base, "/api/matches/", headers=auth)
                page = call(base, "/leaderboard/part-du-chef/", headers={"Accept-Language": "fr"})
                creating = create()
                seen += [("GET /api/matches/", api.status), ("GET page", page.status), ("POST", creating.status)]
            assert api is not None and page is not None and creating is not None
            assert {status for _, status in seen} == {503}, seen
            assert _unavailable(api) and _unavailable(page) and _unavailable(creating)
            assert api.headers["retry-after"] == "4"
            assert api.json() == {
                "detail": "the database is unavailable for a moment; nothing was applied: retry after 4 seconds",
                "code": "database_unavailable",
            }
            assert creating.json()["code"] == "database_unavailable"  # type: ignore[index]
            assert page.headers["content-type"].startswith("text/html")
            assert "La cuisine est fermée pour un instant" in page.body.decode()

            proxy.restore()
            after: list[int] = []

            def created() -> bool:
                answer = create()
                after.append(answer.status)
                return answer.status == 201

            wait_until(created, 120, "the retried POST to be applied once the database is back", str(after))
            assert set(after) <= {201, 503}, after  # never 500, even while the pool reconnects
            # Sent again, it is replayed, never applied twice; the other server process may still be
            # reconnecting (503, retried as the client would).
            replays: list[Any] = []

            def replayed() -> bool:
                answer = create()
                replays.append(answer)
                return answer.status != 503

            wait_until(replayed, 120, "the POST sent again to be answered", str([a.status for a in replays]))
            assert replays[-1].status == 201 and replays[-1].headers.get("idempotent-replayed") == "true"
            # Each server process's pool reconnects by itself (after its own backoff): every answer is 200 again.
            recovering: list[int] = []

            def recovered() -> bool:
                answers = [call(base, "/api/matches/", headers=auth).status for _ in range(4)]
                answers += [call(base, "/leaderboard/part-du-chef/").status for _ in range(4)]
                recovering.extend(answers)
                return set(answers) == {200}

            wait_until(recovered, 120, "every server process to answer again", str(recovering))
            assert set(recovering) <= {200, 503}, recovering
        assert Match.objects.filter(seats__player_id=bots[0]).distinct().count() == 1
    finally:
        proxy.stop()
        wait_for_the_servers_sessions_to_end()
