"""A version waiting for validation shows its place in the queue, in the API and on the owners' page."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from arena.models import Player
from submissions.models import BotVersion, SubmittedBot


def pending_bot(owner: User, name: str, status: str = "pending") -> SubmittedBot:
    player = Player.objects.create(name=name, kind="bot", owner=owner)
    bot = SubmittedBot.objects.create(player=player, game="part-du-chef")
    BotVersion.objects.create(bot=bot, number=1, source="upload", filename="bot.py", status=status)
    return bot


def test_a_pending_version_shows_its_place_among_the_versions_waiting_for_validation(db: None) -> None:
    olga, piet = User.objects.create_user("olga"), User.objects.create_user("piet")
    pending_bot(piet, "piet-busy", status="validating")  # being validated: not waiting any more
    pending_bot(piet, "piet-first")
    mine = pending_bot(olga, "olga-second")
    api = APIClient()
    api.force_authenticate(olga)
    versions = api.get(f"/api/bots/{mine.pk}/versions/").json()
    rows = versions["results"] if isinstance(versions, dict) else versions
    assert [(row["status"], row["queue_place"]) for row in rows] == [("pending", 2)]
    assert api.get(f"/api/bots/{mine.pk}/").json()["latest_version"]["queue_place"] == 2

    BotVersion.objects.filter(bot__player__name="piet-first").update(status="active")
    assert api.get(f"/api/bots/{mine.pk}/").json()["latest_version"]["queue_place"] == 1
    page = Client()
    page.force_login(olga)
    assert "place 1 in the validation queue" in page.get("/my-bots/").content.decode()

    BotVersion.objects.filter(bot=mine).update(status="active")
    assert api.get(f"/api/bots/{mine.pk}/").json()["latest_version"]["queue_place"] is None
