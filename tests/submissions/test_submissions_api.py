"""/api/bots/: submitting bots and versions, owner-only access (404 for others), read-only fields."""

from __future__ import annotations

from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from arena.models import Player
from submissions.models import BotVersion, SubmittedBot
from tests.submitted_bots import STARTER_KITS, zipped

KIT = (STARTER_KITS / "python" / "bot.py").read_bytes()


def _upload(name: str, data: bytes) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="application/octet-stream")


def test_a_signed_in_user_uploads_a_bot_and_gets_a_pending_first_version(
    client_for, django_capture_on_commit_callbacks
):
    alice = client_for("alice")
    with django_capture_on_commit_callbacks() as callbacks:
        response = alice.post("/api/bots/", {"name": "chef-alice", "file": _upload("bot.py", KIT)}, format="multipart")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["name"], body["game"], body["owner"], body["status"]) == (
        "chef-alice",
        "part-du-chef",
        "alice",
        "pending",
    )
    assert body["latest_version"]["number"] == 1 and body["latest_version"]["source"] == "upload"
    assert body["active_version"] is None and body["rating"] is None
    assert len(callbacks) == 1  # the validation task is sent once the upload is committed
    player = Player.objects.get(pk=body["id"])
    assert (player.kind, player.owner.username, player.builtin) == ("bot", "alice", "")
    version = BotVersion.objects.get(bot_id=player.id)
    assert bytes(version.bundle) == KIT and version.bundle_size == len(KIT) and len(version.bundle_sha256) == 64


def test_an_endpoint_bot_is_accepted_as_json(client_for):
    response = client_for("alice").post(
        "/api/bots/", {"name": "hosted", "endpoint": "https://bots.example.org/chef"}, format="json"
    )
    assert response.status_code == 201, response.json()
    assert response.json()["latest_version"]["endpoint"] == "https://bots.example.org/chef"


def test_bad_submissions_answer_400_naming_the_problem_and_store_nothing(client_for, settings):
    alice = client_for("alice")
    settings.ARENA_BOT_UPLOAD_MAX_BYTES = 10_000
    cases = [
        ({"name": "b1"}, "either a file"),
        ({"name": "b2", "file": _upload("bot.py", KIT), "endpoint": "https://x.example"}, "either a file"),
        ({"name": "b3", "file": _upload("bot.py", b"   \n")}, "empty"),
        ({"name": "b4", "file": _upload("bot.py", b"\xff\xfe\x00x")}, "UTF-8"),
        ({"name": "b5", "file": _upload("bot.py", b"#" * 10_001)}, "limit is 10000"),
        ({"name": "b6", "file": _upload("bot.exe", b"MZ\x90\x00")}, "'bot.exe' is not a bot program"),
        ({"name": "b7", "file": _upload("bot.zip", zipped({"bot.py": "print(1)"}))}, "main.py"),
        ({"name": "b8", "file": _upload("bomb.zip", zipped({"main.py": "x", "z.bin": b"\0" * 4_000_000}))}, "zip bomb"),
        ({"name": "b9", "endpoint": "ftp://bots.example.org/"}, "only http and https"),
        ({"name": "b10", "endpoint": "http://user:pw@bots.example.org/"}, "user name or password"),
        ({"name": "random", "file": _upload("bot.py", KIT)}, "already exists"),
        ({"name": "../etc", "file": _upload("bot.py", KIT)}, "name"),
    ]
    for data, message in cases:
        response = alice.post("/api/bots/", data, format="multipart")
        assert response.status_code == 400, (data, response.json())
        assert message in str(response.json()), (message, response.json())
    assert SubmittedBot.objects.count() == 0
    assert not Player.objects.filter(owner__username="alice").exists()


def test_other_users_get_404_for_every_bot_endpoint_and_see_none_in_their_list(client_for, submit):
    bot = submit("secret-chef", KIT, validate=False)
    bob = client_for("bob")
    base = f"/api/bots/{bot.pk}/"
    assert bob.get("/api/bots/").json()["results"] == []
    for method, url, data in [
        ("get", base, None),
        ("patch", base, {"name": "stolen"}),
        ("get", base + "versions/", None),
        ("get", base + "versions/1/", None),
        ("post", base + "versions/", {"endpoint": "https://evil.example/"}),
        ("post", base + "retire/", None),
        ("get", base + "matches/", None),
    ]:
        response = getattr(bob, method)(url, data, format="json")
        assert response.status_code == 404, (method, url, response.status_code)
    bot.refresh_from_db()
    assert bot.player.name == "secret-chef" and bot.retired_at is None
    assert BotVersion.objects.filter(bot=bot).count() == 1
    assert client_for("alice").get(base).status_code == 200


def test_owner_rating_and_status_are_read_only(client_for, submit):
    bot = submit("steady", KIT, validate=False)
    alice = client_for("alice")
    response = alice.patch(
        f"/api/bots/{bot.pk}/",
        {
            "name": "steady-2",
            "description": "cuts evenly",
            "owner": "bob",
            "rating": 3000,
            "status": "active",
            "game": "chess",
            "suspended_at": None,
            "active_version": 7,
        },
        format="json",
    )
    assert response.status_code == 200, response.json()
    body = response.json()
    assert (body["name"], body["description"]) == ("steady-2", "cuts evenly")
    assert (body["owner"], body["status"], body["rating"], body["game"]) == ("alice", "pending", None, "part-du-chef")
    assert BotVersion.objects.get(bot=bot).status == "pending"
    for bad in ("../etc", "a", "x" * 65, "with space"):
        refused = alice.patch(f"/api/bots/{bot.pk}/", {"name": bad}, format="json")
        assert refused.status_code == 400 and "name" in refused.json(), bad
    taken = alice.patch(f"/api/bots/{bot.pk}/", {"name": "greedy"}, format="json")
    assert taken.status_code == 400 and "already exists" in taken.json()["detail"]
    assert alice.get(f"/api/bots/{bot.pk}/").json()["name"] == "steady-2"


def test_each_upload_is_a_new_version_and_old_versions_keep_their_history(client_for, submit):
    bot = submit("versions", KIT, validate=False)
    alice = client_for("alice")
    second = alice.post(
        f"/api/bots/{bot.pk}/versions/", {"file": _upload("v2.zip", zipped({"main.py": KIT}))}, format="multipart"
    )
    third = alice.post(f"/api/bots/{bot.pk}/versions/", {"endpoint": "https://bots.example.org/v3"}, format="json")
    assert (second.status_code, third.status_code) == (201, 201)
    listed = alice.get(f"/api/bots/{bot.pk}/versions/").json()
    assert [(v["number"], v["source"], v["filename"]) for v in listed] == [
        (1, "upload", "main.py"),
        (2, "upload", "v2.zip"),
        (3, "endpoint", ""),
    ]
    detail = alice.get(f"/api/bots/{bot.pk}/versions/1/").json()
    assert detail["status"] == "pending" and detail["log"] == []
    assert alice.get(f"/api/bots/{bot.pk}/versions/9/").status_code == 404


def test_retiring_closes_the_bot_and_refuses_new_versions(client_for, submit):
    bot = submit("retiree", KIT, validate=False)
    alice = client_for("alice")
    response = alice.post(f"/api/bots/{bot.pk}/retire/")
    assert response.status_code == 200 and response.json()["status"] == "retired"
    assert BotVersion.objects.get(bot=bot).status == "retired"
    refused = alice.post(f"/api/bots/{bot.pk}/versions/", {"endpoint": "https://bots.example.org/"}, format="json")
    assert refused.status_code == 400 and "retired" in refused.json()["detail"]


def test_signing_in_is_required_to_submit(db):
    response = APIClient().post("/api/bots/", {"name": "anon", "endpoint": "https://bots.example.org/"}, format="json")
    assert response.status_code in (401, 403)
