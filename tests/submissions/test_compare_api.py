"""POST /api/bots/{id}/compare/: friendly games of one version against another, the verdict in words."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import timezone
from rest_framework.throttling import ScopedRateThrottle

from arena.models import Match, Player
from games.part_du_chef.control_variates import BASELINE
from submissions import comparison_deals
from submissions.models import BotComparison, BotVersion, SubmittedBot
from tests.submitted_bots import STARTER_KITS, worker_environment
from tests.support import wait_until


def own_bot(user: Any, name: str, statuses: list[str]) -> SubmittedBot:
    """A bot with versions 1.. of these statuses, hosted (no validation is run for it)."""
    player = Player.objects.create(name=name, kind=Player.Kind.BOT, owner=user)
    bot = SubmittedBot.objects.create(player=player, game="part-du-chef")
    for number, status in enumerate(statuses, start=1):
        BotVersion.objects.create(
            bot=bot,
            number=number,
            source="endpoint",
            endpoint="https://bots.example.org/",
            status=status,
            validated_at=None if status == "pending" else timezone.now(),
        )
    return bot


def test_the_body_is_checked_and_each_problem_is_named(users, client_for):
    alice = client_for("alice")
    mine = own_bot(users["alice"], "alices-chef", ["retired", "rejected", "active"])
    other = own_bot(users["alice"], "alices-other", ["active"])
    bobs = own_bot(users["bob"], "bobs-chef", ["active"])

    def compare(body: dict[str, Any], bot: SubmittedBot = mine) -> Any:
        return alice.post(f"/api/bots/{bot.pk}/compare/", body, format="json")

    answer = compare({"against": {"version": 9}})
    assert answer.status_code == 400 and "has no version 9" in str(answer.json())
    answer = compare({"against": {"version": 2}})
    assert answer.status_code == 400 and "version 2 is rejected" in str(answer.json())
    BotVersion.objects.filter(bot=mine, number=1).update(validated_at=None)  # dropped before its validation
    answer = compare({"against": {"version": 1}})
    assert answer.status_code == 400 and "never validated" in str(answer.json())
    BotVersion.objects.filter(bot=mine, number=1).update(validated_at=timezone.now())
    answer = compare({"against": {"version": 3}})
    assert answer.status_code == 400 and "itself" in str(answer.json())
    answer = compare({"against": {"bot": bobs.pk}})
    assert answer.status_code == 400 and f"you have no bot {bobs.pk}" in str(answer.json())
    answer = compare({"against": {"version": 1}, "deals": 51})
    assert answer.status_code == 400 and "1 to 10 deals" in str(answer.json())
    answer = compare({"against": {"version": 1}, "opponents": ["search"]})
    assert answer.status_code == 400 and "unknown 'search'" in str(answer.json())
    answer = compare({"against": {"version": 1}, "opponents": ["noisy-greedy-100"]})
    assert answer.status_code == 400 and "unknown 'noisy-greedy-100'" in str(answer.json())
    assert "noisy-greedy-P (greedy with P% random moves, P from 1 to 99)" in str(answer.json())
    answer = compare({"against": {}})
    assert answer.status_code == 400 and "either" in str(answer.json())
    assert compare({"against": {"version": 1}}, bot=bobs).status_code == 404
    assert client_for("bob").get(f"/api/bots/{mine.pk}/compares/").status_code == 404
    assert BotComparison.objects.count() == 0

    answer = compare({"against": {"bot": other.pk}, "deals": 3, "opponents": ["greedy", "noisy-greedy-30"]})
    assert answer.status_code == 202, answer.json()
    assert answer.json()["opponents"] == ["greedy", "noisy-greedy-30"]
    body = answer.json()
    assert body["status"] == "queued" and body["version"] == 3
    assert body["against"] == {"bot": other.pk, "version": 1}
    assert body["progress"] == {
        "games_done": 0,
        "games_total": 2 * 3 * 3,
        "deals_done": 0,
        "deals_planned": 3,
        "score_diff": None,
    }
    assert body["fixed"] is False
    listed = alice.get(f"/api/bots/{mine.pk}/compares/").json()
    assert [row["id"] for row in listed["results"]] == [body["id"]]
    assert alice.get(f"/api/bots/{mine.pk}/compares/{body['id']}/").json()["deals"] == 3
    assert client_for("bob").get(f"/api/bots/{mine.pk}/compares/{body['id']}/").status_code == 404


def test_a_worker_compares_the_starter_kit_with_itself_and_finds_no_difference(workers, client_for, users):
    workers.start("compare", concurrency=1, **worker_environment())
    alice = client_for("alice")
    kit = (STARTER_KITS / "python" / "bot.py").read_bytes()
    created = alice.post("/api/bots/", {"name": "alices-kit", "file": SimpleUploadedFile("bot.py", kit)})
    bot_id = created.json()["id"]

    def version_status(number: int) -> str:
        return str(BotVersion.objects.get(bot_id=bot_id, number=number).status)

    wait_until(lambda: version_status(1) == "active", 120, "version 1 to be validated", workers.tail())
    added = alice.post(f"/api/bots/{bot_id}/versions/", {"file": SimpleUploadedFile("bot.py", kit)})
    assert added.status_code == 201
    wait_until(lambda: version_status(2) == "active", 120, "version 2 to be validated", workers.tail())
    matches_before = Match.objects.count()

    asked = alice.post(f"/api/bots/{bot_id}/compare/", {"against": {"version": 1}, "deals": 6}, format="json")
    assert asked.status_code == 202, asked.json()
    cid = asked.json()["id"]

    def shown() -> dict[str, Any]:
        return alice.get(f"/api/bots/{bot_id}/compares/{cid}/").json()

    wait_until(lambda: shown()["status"] in ("finished", "failed"), 180, "the comparison", workers.tail())
    done = shown()
    assert done["status"] == "finished", done["error"]
    # Sequential: identical play on three deals is enough to say "no difference"; at most 6 were asked for.
    # One worker playing one deal at a time: the third deal settles it, the deals still queued are cancelled.
    assert done["progress"]["games_done"] == 12 and done["progress"]["deals_done"] == 3
    result = done["result"]
    diff = result["score_diff"]
    assert diff["n"] == 3 and result["decided"] == "same"
    assert diff["mean"] - diff["ci95"] <= 0 <= diff["mean"] + diff["ci95"]
    # Every deal's luck corrected as `compare` corrects it; greedy opponents are deterministic, and the
    # kit's policy is unknown: nothing to correct, so the corrected difference is the plain one.
    assert result["baseline"] == BASELINE.name and result["corrected_diff"] == diff
    assert result["verdict"].startswith("no difference between alices-kit v2 and alices-kit v1")
    assert "stopped after 3 of at most 6 deals" in result["verdict"]
    seed = BotComparison.objects.get(pk=cid).seed
    assert result["seeds"] == [seed, seed + 1, seed + 2]
    assert result["replay"] == f"part-du-chef compare A B --seeds {seed}..{seed + 2}"
    assert result["version"]["forfeits"] == 0 and result["against"]["forfeits"] == 0
    assert Match.objects.count() == matches_before  # friendly games of their own: nothing rated, no match rows

    # A re-delivered task finds the comparison claimed and changes nothing.
    before = BotComparison.objects.values().get(pk=cid)
    assert comparison_deals.run_compare(cid) == "not claimed"
    assert BotComparison.objects.values().get(pk=cid) == before

    page = Client()
    page.force_login(users["alice"])
    html = page.get("/my-bots/").content.decode()
    assert "Comparisons" in html and "no difference between alices-kit v2 and alices-kit v1" in html


def test_a_retried_request_queues_one_comparison_and_the_bot_compare_throttle_counts_per_user(
    users, client_for, monkeypatch
):
    monkeypatch.setitem(ScopedRateThrottle.THROTTLE_RATES, "bot-compare", "2/hour")
    alice = client_for("alice")
    mine = own_bot(users["alice"], "alices-chef", ["retired", "active"])
    url, body = f"/api/bots/{mine.pk}/compare/", {"against": {"version": 1}, "deals": 1}

    first = alice.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="compare-1")
    again = alice.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="compare-1")
    assert first.status_code == again.status_code == 202
    assert again.json()["id"] == first.json()["id"]
    assert BotComparison.objects.count() == 1

    assert alice.post(url, body, format="json").status_code == 202
    refused = alice.post(url, body, format="json")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert BotComparison.objects.count() == 2
    assert alice.get(f"/api/bots/{mine.pk}/compares/").status_code == 200  # reading is not throttled


def test_a_comparison_whose_worker_died_is_failed_by_the_sweep_once_past_its_time_limit(users):
    bot = own_bot(users["alice"], "alices-chef", ["validated", "active"])
    v1, v2 = bot.versions.order_by("number")
    row = BotComparison.objects.create(bot=bot, version=v2, against=v1, deals=1, seed=1, games_total=2)
    assert comparison_deals.claim(row.pk)
    # Still within the task's hard time limit: it may be playing, and is left alone.
    assert comparison_deals.fail_abandoned() == 0
    later = timezone.now() + timedelta(seconds=comparison_deals.COMPARE_TIME_LIMIT_SECONDS + 61)
    assert comparison_deals.fail_abandoned(now=later) == 1
    row.refresh_from_db()
    assert row.status == BotComparison.Status.FAILED and "worker" in row.error and row.finished_at == later
    assert comparison_deals.run_compare(row.pk) == "not claimed"  # a late re-delivery changes nothing
