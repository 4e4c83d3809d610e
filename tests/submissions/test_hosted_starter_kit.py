"""The hosted-bot starter kit on a developer's own machine: refused with the variable that allows it, then
validated once the server allows private addresses."""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Iterator

import pytest

from submissions import actions
from submissions.models import BotVersion
from tests.submitted_bots import STARTER_KITS

# Builds, sandboxed bots or a server of their own: processes beside the test run.
pytestmark = pytest.mark.system


@pytest.fixture
def hosted_kit() -> Iterator[str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, str(STARTER_KITS / "hosted" / "server.py"), "--port", str(port)],
        stderr=subprocess.PIPE,
    )
    try:
        assert server.stderr is not None
        assert server.stderr.readline().decode().startswith(f"hosted bot at http://127.0.0.1:{port}/")
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.kill()
        server.wait()


def test_a_local_url_is_refused_naming_the_setting_then_the_hosted_kit_is_validated_where_it_is_allowed(
    client_for, settings, hosted_kit
):
    alice = client_for("alice")
    refused = alice.post("/api/bots/", {"name": "hosted-kit", "endpoint": hosted_kit}, format="json")
    assert refused.status_code == 400
    assert "start the server with ARENA_BOT_ALLOW_PRIVATE_URLS=1" in refused.json()["detail"]

    settings.ARENA_BOT_ALLOW_PRIVATE_URLS = True
    created = alice.post("/api/bots/", {"name": "hosted-kit", "endpoint": hosted_kit}, format="json")
    assert created.status_code == 201, created.json()
    version = BotVersion.objects.get(bot_id=created.json()["id"], number=1)
    assert actions.run_validation(version.id) == "active"
    version.refresh_from_db()
    assert [game["forfeited"] for game in version.log] == [False, False]
