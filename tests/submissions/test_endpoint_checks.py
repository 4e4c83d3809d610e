"""Hosted bot URLs are checked when the bot or version is created, with the HTTP client's own SSRF check."""

from __future__ import annotations

import pytest

from botclient.http import Unresolvable, UnsafeEndpoint, check_endpoint
from submissions.models import BotVersion, SubmittedBot


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("http://127.0.0.1:8000/bot", "127.0.0.1 is a loopback address"),
        ("http://localhost:6379/", "is a loopback address"),
        ("http://10.1.2.3/bot", "10.1.2.3 is a private address"),
        ("http://169.254.169.254/latest/meta-data/", "169.254.169.254 is a link-local address"),
        ("http://[::ffff:192.168.0.1]/", "192.168.0.1 is a private address"),
        ("http://100.64.0.9/", "shared (carrier-grade NAT) address"),
        ("gopher://bots.example.org/", "only http and https"),
    ],
)
def test_a_new_bot_on_a_refused_url_answers_400_naming_the_reason_and_stores_nothing(client_for, url, reason):
    response = client_for("alice").post("/api/bots/", {"name": "hosted", "endpoint": url}, format="json")
    assert response.status_code == 400, response.json()
    assert reason in str(response.json())
    assert "endpoint refused" in str(response.json())
    assert not SubmittedBot.objects.exists()


def test_a_new_version_on_a_private_url_answers_400_and_the_bot_keeps_its_versions(client_for):
    alice = client_for("alice")
    created = alice.post("/api/bots/", {"name": "hosted", "endpoint": "https://bots.example.org/v1"}, format="json")
    assert created.status_code == 201, created.json()
    bot_id = created.json()["id"]
    refused = alice.post(f"/api/bots/{bot_id}/versions/", {"endpoint": "http://192.168.1.20:8080/"}, format="json")
    assert refused.status_code == 400, refused.json()
    assert "192.168.1.20 is a private address" in str(refused.json())
    assert BotVersion.objects.filter(bot_id=bot_id).count() == 1


def test_private_urls_are_accepted_where_the_settings_allow_them(client_for, settings):
    settings.ARENA_BOT_ALLOW_PRIVATE_URLS = True
    response = client_for("alice").post(
        "/api/bots/", {"name": "lan", "endpoint": "http://127.0.0.1:8000/bot"}, format="json"
    )
    assert response.status_code == 201, response.json()
    assert response.json()["latest_version"]["endpoint"] == "http://127.0.0.1:8000/bot"


def test_a_name_that_does_not_resolve_yet_is_accepted_and_each_match_checks_again():
    def no_answer(host: str, port: int) -> list[str]:
        raise Unresolvable(f"cannot resolve {host!r}: Name or service not known")

    endpoint = check_endpoint("https://bots.example.org/chef", allow_private=False, resolver=no_answer)
    assert (endpoint.host, endpoint.port, endpoint.path) == ("bots.example.org", 443, "/chef")


def test_a_name_that_resolves_to_a_private_address_is_refused_at_creation():
    with pytest.raises(UnsafeEndpoint, match="bots.internal -> 10.0.0.7 is a private address"):
        check_endpoint("https://bots.internal/", allow_private=False, resolver=lambda host, port: ["10.0.0.7"])
