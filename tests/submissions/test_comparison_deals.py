"""A comparison's deals are tasks of their own spread over the workers; progress and verdict as they come in."""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import timezone

from arena.models import Player
from botclient import ServerBusy
from games.part_du_chef.comparison import (
    DealScores,
    Stopping,
    compare,
    play_one_by_one,
    score_deal,
    seatings,
)
from games.part_du_chef.seating import NamedBot
from games.part_du_chef.simulation import make_bot
from submissions import bundles, comparison_deals
from submissions.comparing import (
    ArenaSessions,
    builtin_bot,
    play_deal_in_lockstep,
    result_json,
    version_bot,
    version_label,
)
from submissions.comparison_deals import DEAL_LEASE, record_deal, sweep_deals
from submissions.models import BotComparison, BotVersion, ComparisonDeal, SubmittedBot
from tests.submitted_bots import STARTER_KITS, worker_environment
from tests.support import wait_until


def hosted_bot(user: Any, name: str, statuses: list[str]) -> SubmittedBot:
    """A bot with versions 1.. of these statuses, hosted at an address nobody answers (never played here)."""
    player = Player.objects.create(name=name, kind=Player.Kind.BOT, owner=user)
    bot = SubmittedBot.objects.create(player=player, game="part-du-chef")
    for number, status in enumerate(statuses, start=1):
        BotVersion.objects.create(
            bot=bot,
            number=number,
            source="endpoint",
            endpoint="https://bots.example.org/",
            status=status,
            validated_at=timezone.now(),
        )
    return bot


def comparison_of(bot: SubmittedBot, *, deals: int, opponents: list[str], seed: int) -> BotComparison:
    v1, v2 = bot.versions.order_by("number")
    return BotComparison.objects.create(
        bot=bot,
        version=v2,
        against=v1,
        deals=deals,
        opponents=opponents,
        seed=seed,
        games_total=2 * deals * (len(opponents) + 1),
    )


def test_deals_coming_in_out_of_order_give_the_verdict_of_the_single_task_comparison_on_the_same_seeds(users, settings):
    settings.ARENA_COMPARE_PARALLEL_DEALS = 4
    bot = hosted_bot(users["alice"], "alices-chef", ["retired", "active"])
    row = comparison_of(bot, deals=12, opponents=["random"], seed=40)
    v1, v2 = row.against, row.version
    # The versions' moves, played here by built-in bots under the versions' names: greedy is the better.
    a = NamedBot(version_label(v2), lambda seed: make_bot("greedy", seed))
    b = NamedBot(version_label(v1), lambda seed: make_bot("random", seed))
    against = [builtin_bot("random")]
    single_task = compare(a, b, against, 12, 40, stopping=Stopping(max_deals=12))
    assert single_task.stopped == "better" and single_task.deals < 12  # the rule settled early

    assert comparison_deals.run_compare(row.pk) == "started"
    assert comparison_deals.run_compare(row.pk) == "not claimed"  # a re-delivered start sends nothing more
    assert ComparisonDeal.objects.filter(comparison=row).count() == 4
    seen_done = []
    while BotComparison.objects.get(pk=row.pk).status == BotComparison.Status.RUNNING:
        # Every deal in flight is claimed, then they come in last first: each later deal waits for the earlier.
        queued = list(ComparisonDeal.objects.filter(comparison=row, status="queued").order_by("-number"))
        assert queued, "a running comparison always has a deal on its way"
        for deal in queued:
            attempt, _ = DEAL_LEASE.claim(deal.pk)
            if attempt is None:  # settled meanwhile: the deals still queued were cancelled
                assert ComparisonDeal.objects.get(pk=deal.pk).status == "cancelled"
                continue
            games = play_one_by_one([lineup for bot in (a, b) for lineup in seatings(bot, against)], deal.seed, False)
            record_deal(deal.pk, attempt, score_deal(games, 2, deal.seed))
            seen_done.append(BotComparison.objects.get(pk=row.pk).deals_done)
    done = BotComparison.objects.get(pk=row.pk)
    assert done.status == "finished"
    assert done.result == result_json(single_task)
    assert f"stopped after {single_task.deals} of at most 12 deals" in done.result["verdict"]
    assert seen_done == sorted(seen_done) and seen_done[0] == 1  # progress rises deal by deal
    # Never more than the window in flight: the deals made are the ones that came in and at most the window's rest
    # (deals that came in past the counted ones are kept, as each sent the next while an earlier one was missing).
    assert single_task.deals <= done.deals_done and done.deals_sent <= done.deals_done + 4
    assert not ComparisonDeal.objects.filter(comparison=row, status__in=["queued", "running"]).exists()


def test_a_redelivered_deal_task_finds_its_deal_taken_or_done_and_no_deal_counts_twice(users, settings):
    settings.ARENA_COMPARE_PARALLEL_DEALS = 4
    bot = hosted_bot(users["alice"], "alices-chef", ["retired", "active"])
    row = comparison_of(bot, deals=3, opponents=["greedy"], seed=7)
    assert comparison_deals.run_compare(row.pk) == "started"
    first, second, third = ComparisonDeal.objects.filter(comparison=row).order_by("number")
    scores = DealScores(first.seed, 10.0, 8.0, 1.5, 1.5, 0, 0)

    assert DEAL_LEASE.claim(first.pk) == (1, None)
    assert comparison_deals.play_deal(first.pk) == "not claimed"  # delivered again while it plays
    assert record_deal(first.pk, 1, scores) == "recorded"
    assert record_deal(first.pk, 1, scores) == "stale"  # the same result stored twice counts once
    assert comparison_deals.play_deal(first.pk) == "not claimed"  # delivered again once done
    row.refresh_from_db()
    assert (row.deals_done, row.games_done, row.status) == (1, 4, "running")
    assert row.estimate == {"mean": 2.0, "ci95": None, "n": 1}

    # A worker dies holding the second deal: its lease runs out, the sweep sends it again, another
    # attempt plays it, and the first attempt's late result is refused.
    assert DEAL_LEASE.claim(second.pk) == (1, None)
    ComparisonDeal.objects.filter(pk=second.pk).update(lease_expires_at=timezone.now())
    assert sweep_deals() == 1
    assert DEAL_LEASE.claim(second.pk) == (2, None)
    assert record_deal(second.pk, 1, DealScores(second.seed, 9.0, 9.0, 1.5, 1.5, 0, 0)) == "stale"
    assert record_deal(second.pk, 2, DealScores(second.seed, 12.0, 8.0, 1.0, 2.0, 0, 0)) == "recorded"
    row.refresh_from_db()
    assert row.deals_done == 2 and row.estimate["mean"] == 3.0 and row.estimate["n"] == 2

    assert DEAL_LEASE.claim(third.pk) == (1, None)
    assert record_deal(third.pk, 1, DealScores(third.seed, 11.0, 8.0, 1.0, 2.0, 0, 0)) == "recorded"
    row.refresh_from_db()
    assert row.status == "finished" and row.deals_done == 3 and row.games_done == 12
    assert row.result["deals"] == 3 and row.result["seeds"] == [7, 8, 9]
    assert row.result["score_diff"]["mean"] == 3.0


def test_a_deal_that_keeps_failing_is_retried_then_fails_the_comparison_naming_the_deal_and_why(users, settings):
    settings.ARENA_COMPARE_PARALLEL_DEALS = 4
    bot = hosted_bot(users["alice"], "alices-chef", ["retired", "active"])
    row = comparison_of(bot, deals=2, opponents=["no-such-bot"], seed=5)  # written past the request's checks
    comparison_deals.run_compare(row.pk)
    first, second = ComparisonDeal.objects.filter(comparison=row).order_by("number")
    assert comparison_deals.play_deal(first.pk) == "retried"
    first.refresh_from_db()
    assert first.status == "queued" and first.attempt == 1 and "no-such-bot" in first.error
    assert comparison_deals.play_deal(first.pk) == "retried"
    assert comparison_deals.play_deal(first.pk) == "failed"
    row.refresh_from_db()
    assert row.status == "failed"
    assert row.error.startswith("deal 1 (seed 5) failed 3 times; the last: ") and "no-such-bot" in row.error
    assert ComparisonDeal.objects.get(pk=second.pk).status == "cancelled"  # its task will find nothing to play
    assert comparison_deals.play_deal(second.pk) == "not claimed"


# -- with real workers ----------------------------------------------------------------------------


@pytest.fixture
def hosted_kit() -> Iterator[str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, str(STARTER_KITS / "hosted" / "server.py"), "--port", str(port)], stderr=subprocess.PIPE
    )
    try:
        assert server.stderr is not None
        assert server.stderr.readline().decode().startswith(f"hosted bot at http://127.0.0.1:{port}/")
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.kill()
        server.wait()


def kit_versions(user: Any, endpoint: str) -> SubmittedBot:
    """Version 1: the starter kit hosted (HTTP); version 2: the kit uploaded (the sandbox). Validated as written."""
    player = Player.objects.create(name="alices-kit", kind=Player.Kind.BOT, owner=user)
    bot = SubmittedBot.objects.create(player=player, game="part-du-chef")
    BotVersion.objects.create(
        bot=bot, number=1, source="endpoint", endpoint=endpoint, status="retired", validated_at=timezone.now()
    )
    upload = bundles.check_upload("bot.py", (STARTER_KITS / "python" / "bot.py").read_bytes())
    BotVersion.objects.create(
        bot=bot,
        number=2,
        source="upload",
        filename=upload.filename,
        bundle=upload.data,
        bundle_sha256=upload.sha256,
        bundle_size=len(upload.data),
        status="active",
        validated_at=timezone.now(),
    )
    return bot


def test_workers_play_a_comparisons_deals_at_once_and_the_owner_sees_the_progress_rise_to_the_single_task_verdict(
    workers, users, client_for, settings, hosted_kit
):
    # Generous move limits: a move timed out under load would make the two runs differ.
    limits = {"ARENA_BOT_MOVE_MS": "5000", "ARENA_BOT_BANK_MS": "5000"}
    settings.ARENA_BOT_MOVE_MS = settings.ARENA_BOT_BANK_MS = 5000
    settings.ARENA_BOT_ALLOW_PRIVATE_URLS = True
    # Two deals at once in one worker: each deal's 3 uploaded-kit tables take 3 of the tests' 6 sandbox slots.
    environment = {
        **worker_environment(),
        **limits,
        "ARENA_BOT_ALLOW_PRIVATE_URLS": "1",
        "ARENA_COMPARE_PARALLEL_DEALS": "2",
    }
    workers.start("deals", concurrency=2, **environment)
    bot = kit_versions(users["alice"], hosted_kit)
    alice = client_for("alice")
    asked = alice.post(
        f"/api/bots/{bot.pk}/compare/",
        {"against": {"version": 1}, "deals": 6, "opponents": ["greedy", "random"], "fixed": True},
        format="json",
    )
    assert asked.status_code == 202, asked.json()
    assert asked.json()["fixed"] is True
    assert asked.json()["progress"] == {
        "games_done": 0,
        "games_total": 36,
        "deals_done": 0,
        "deals_planned": 6,
        "score_diff": None,
    }
    cid = asked.json()["id"]

    def running_deals() -> int:
        return ComparisonDeal.objects.filter(comparison_id=cid, status="running").count()

    wait_until(lambda: running_deals() >= 2, 120, "two deals played at once by two tasks", workers.tail())

    seen: list[dict[str, Any]] = []

    def shown() -> dict[str, Any]:
        body = alice.get(f"/api/bots/{bot.pk}/compares/{cid}/").json()
        if not seen or seen[-1]["progress"] != body["progress"] or seen[-1]["status"] != body["status"]:
            seen.append(body)
        return body

    wait_until(lambda: shown()["status"] in ("finished", "failed"), 300, "the comparison", workers.tail())
    done = seen[-1]
    assert done["status"] == "finished", done["error"]
    assert done["progress"]["deals_done"] == 6 and done["progress"]["games_done"] == 36
    running = [body["progress"] for body in seen if body["status"] == "running"]
    assert running, "the progress was seen while the comparison ran"
    dealt = [progress["deals_done"] for progress in running]
    assert dealt == sorted(dealt) and dealt[0] < 6
    for progress in running:
        assert progress["games_done"] == 6 * progress["deals_done"]
        assert (progress["score_diff"] or {"n": 0})["n"] == progress["deals_done"]
    deals = ComparisonDeal.objects.filter(comparison_id=cid).order_by("number")
    # A deal given back because the server was busy keeps its attempt: each was played once and counted once.
    assert [(deal.number, deal.status, deal.attempt) for deal in deals] == [(n, "finished", 1) for n in range(6)]

    # The same comparison played by the single-task code, here, on the same seeds: the same result. A deal
    # the server is too busy to start (the workers' sandboxes and these share the machine) is played again,
    # as a worker gives it back: the server's slowness is never a version's forfeit.
    row = BotComparison.objects.select_related("version__bot__player", "against__bot__player").get(pk=cid)
    resolver = ArenaSessions()

    def play_deal_until_started(lineups: Any, seed: int, marianne: bool) -> Any:
        for _ in range(20):
            try:
                return play_deal_in_lockstep(lineups, seed, marianne)
            except ServerBusy:
                continue
        raise AssertionError(f"the server stayed too busy to start deal {seed}")

    single_task = compare(
        version_bot(row.version, resolver),
        version_bot(row.against, resolver),
        [builtin_bot("greedy"), builtin_bot("random")],
        6,
        row.seed,
        play_deal=play_deal_until_started,
    )
    assert done["result"] == result_json(single_task)
    assert done["result"]["version"]["forfeits"] == 0 and done["result"]["against"]["forfeits"] == 0
    assert done["forfeits"] == []
