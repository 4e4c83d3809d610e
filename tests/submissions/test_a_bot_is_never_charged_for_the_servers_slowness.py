"""A bot is never charged for the server's own slowness: its start clock begins once its sandbox runs and
"start" is written to it; a sandbox the server is too slow to start gives the match back, unplayed, with
its attempt, and nobody forfeits. A bot slow on its own clock still forfeits, and its reason is kept on
the match's seat, in the API and on the pages, for matches and comparisons alike."""

from __future__ import annotations

import html
import re
from typing import Any

from django.test import Client
from django.utils import timezone

from arena.matches import create_match
from arena.models import Match, MatchSeat, Player
from results.tasks import play_match
from submissions import actions, bundles, comparison_deals
from submissions.models import BotComparison, BotSeat, BotVersion, ComparisonDeal, SubmittedBot
from submissions.rules import arena_refusal
from tests.submitted_bots import SANDBOX_BOTS, STARTER_KITS

KIT = (STARTER_KITS / "python" / "bot.py").read_bytes()


def _arena_match(bot: SubmittedBot, seed: int = 11) -> Match:
    greedy = Player.objects.get(name="greedy")
    return create_match(game="part-du-chef", kind="arena", player_ids=[bot.pk, greedy.pk], seed=seed)


def test_a_sandbox_start_slower_than_the_servers_limit_gives_the_match_back_and_charges_the_bot_nothing(
    submit, settings
):
    bot = submit("patient-chef", KIT)
    assert bot.versions.get(number=1).status == "active"
    match = _arena_match(bot)
    # The server takes 800 ms to start any sandbox (a drill's delay, once the slot is held), past its own
    # limit of 300 ms for that part: the game cannot begin, and that is the server's doing.
    settings.ARENA_SANDBOX_START_DELAY_MS = 800
    settings.ARENA_SANDBOX_START_MS = 300

    assert play_match.run(match.id) == "server busy"

    match.refresh_from_db()
    assert (match.status, match.attempt, match.error) == ("queued", 0, "")  # no attempt used up
    assert match.lease_expires_at is not None  # the sweep sends it again should its message be lost
    seats = MatchSeat.objects.filter(match=match)
    assert not any(seat.forfeited for seat in seats) and all(seat.forfeit_reason == "" for seat in seats)
    assert not BotSeat.objects.filter(match=match).exists()  # nothing was played, so nothing is logged
    assert arena_refusal(bot.player) is None

    # The server is quick again: the same match is played normally, at its first attempt.
    # (the slow starts may still hold slots a moment: the server's limit is back to its default too)
    settings.ARENA_SANDBOX_START_DELAY_MS, settings.ARENA_SANDBOX_START_MS = 0, 20_000
    assert play_match.run(match.id) == "finished"
    match.refresh_from_db()
    assert (match.status, match.attempt) == ("finished", 1)
    played = BotSeat.objects.get(match=match, seat=0)
    assert not played.forfeited and all(move["status"] == "ok" for move in played.moves)
    assert not MatchSeat.objects.filter(match=match, forfeited=True).exists()


def test_a_validation_the_server_is_too_slow_to_start_goes_back_to_pending_with_its_attempt(submit, settings):
    bot = submit("queued-chef", KIT, validate=False)
    version = bot.versions.get(number=1)
    settings.ARENA_SANDBOX_START_DELAY_MS = 800
    settings.ARENA_SANDBOX_START_MS = 300

    assert actions.run_validation(version.id) == "server busy"

    version.refresh_from_db()
    assert (version.status, version.attempt, version.reason) == ("pending", 0, "")  # not rejected, nothing used up
    unplayed = Match.objects.get(seats__player_id=bot.pk)
    assert unplayed.status == "failed" and unplayed.error.startswith("not played: the server was too busy")
    assert not BotSeat.objects.filter(version=version, forfeited=True).exists()

    # (the slow starts may still hold slots a moment: the server's limit is back to its default too)
    settings.ARENA_SANDBOX_START_DELAY_MS, settings.ARENA_SANDBOX_START_MS = 0, 20_000
    assert actions.run_validation(version.id) == "active"


def test_a_slow_sandbox_start_within_the_servers_limit_leaves_the_bot_its_whole_start_limit(submit, settings):
    bot = submit("unhurried-chef", KIT)
    match = _arena_match(bot, seed=12)
    # Starting the sandbox takes longer than the bot's whole start limit; the bot's clock only starts
    # once "start" is written to its running process, so it is still on time.
    settings.ARENA_SANDBOX_START_DELAY_MS = 700
    settings.ARENA_BOT_START_MS = 600

    assert play_match.run(match.id) == "finished"

    seat = BotSeat.objects.get(match__pk=match.pk, seat=0)
    assert not seat.forfeited, seat.forfeit_reason
    assert all(move["status"] == "ok" for move in seat.moves)


def test_a_bot_slow_to_answer_start_after_the_message_is_written_still_forfeits_with_its_reason(
    submit, settings, client_for
):
    bot = submit("drowsy-chef", KIT)
    # As if it had turned slow after its validation: a second to answer "start", against a limit of 400 ms.
    upload = bundles.check_upload("main.py", (SANDBOX_BOTS / "slow_to_ready.py").read_bytes())
    BotVersion.objects.filter(bot=bot, number=1).update(
        bundle=upload.data, bundle_sha256=upload.sha256, bundle_size=len(upload.data)
    )
    settings.ARENA_BOT_START_MS = 400
    match = _arena_match(bot, seed=13)

    assert play_match.run(match.id) == "finished"

    match.refresh_from_db()
    assert (match.status, match.attempt) == ("finished", 1)
    logged = BotSeat.objects.get(match=match, seat=0)
    # On a busy machine the reason also says how long the bot was given back for waiting for a CPU.
    reason = logged.forfeit_reason
    assert logged.forfeited and re.fullmatch(
        r"timeout: no reply within 400 ms( \(and \d+ ms waiting for a busy machine's CPU\))?", reason
    ), reason
    assert logged.moves[0]["at"] == "start" and logged.moves[0]["status"] == "timeout"
    seat = MatchSeat.objects.get(match=match, seat=0)
    assert seat.forfeited and seat.forfeit_reason == reason
    assert not MatchSeat.objects.get(match=match, seat=1).forfeit_reason

    # The reason is shown wherever the forfeit is: the match in the API and on its page.
    api = client_for("bob")
    results = api.get(f"/api/matches/{match.id}/").json()["results"]
    assert [result["forfeit_reason"] for result in results] == [reason, None]
    page = api.get(f"/matches/{match.id}/").content.decode()
    assert html.escape(reason) in page


def _two_versions(user: Any, name: str, second: bytes) -> SubmittedBot:
    """Version 1 the starter kit (retired, validated), version 2 `second` (active), both uploaded."""
    player = Player.objects.create(name=name, kind=Player.Kind.BOT, owner=user)
    bot = SubmittedBot.objects.create(player=player, game="part-du-chef")
    for number, data in ((1, KIT), (2, second)):
        upload = bundles.check_upload("main.py", data)
        BotVersion.objects.create(
            bot=bot,
            number=number,
            source="upload",
            filename=upload.filename,
            bundle=upload.data,
            bundle_sha256=upload.sha256,
            bundle_size=len(upload.data),
            status="retired" if number == 1 else "active",
            validated_at=timezone.now(),
        )
    return bot


def _one_deal_comparison(bot: SubmittedBot, seed: int) -> BotComparison:
    v1, v2 = bot.versions.order_by("number")
    return BotComparison.objects.create(
        bot=bot, version=v2, against=v1, deals=1, opponents=["greedy"], seed=seed, fixed=True, games_total=4
    )


def test_a_comparisons_deal_the_server_is_too_slow_to_start_is_given_back_and_played_later(users, settings):
    bot = _two_versions(users["alice"], "alices-twins", KIT)
    row = _one_deal_comparison(bot, seed=31)
    assert comparison_deals.run_compare(row.pk) == "started"
    deal = ComparisonDeal.objects.get(comparison=row)
    settings.ARENA_SANDBOX_START_DELAY_MS = 800
    settings.ARENA_SANDBOX_START_MS = 300

    assert comparison_deals.play_deal(deal.pk) == "server busy"

    deal.refresh_from_db()
    assert (deal.status, deal.attempt, deal.error) == ("queued", 0, "")  # its attempt kept, nobody charged
    row.refresh_from_db()
    assert (row.status, row.deals_done, row.forfeits) == ("running", 0, [])

    # (the slow starts may still hold slots a moment: the server's limit is back to its default too)
    settings.ARENA_SANDBOX_START_DELAY_MS, settings.ARENA_SANDBOX_START_MS = 0, 20_000
    assert comparison_deals.play_deal(deal.pk) == "recorded"
    row.refresh_from_db()
    deal.refresh_from_db()
    assert (row.status, deal.attempt, row.forfeits) == ("finished", 1, [])
    assert row.result["version"]["forfeits"] == 0 and row.result["against"]["forfeits"] == 0


def test_a_comparisons_forfeit_reasons_are_stored_and_shown_to_its_owner(users, client_for, settings):
    """Version 2 answers garbage from its first move: it forfeits every game of the deal, each with its reason."""
    bot = _two_versions(users["alice"], "alices-pair", (SANDBOX_BOTS / "garbage_json.py").read_bytes())
    row = _one_deal_comparison(bot, seed=21)
    assert comparison_deals.run_compare(row.pk) == "started"
    deal = ComparisonDeal.objects.get(comparison=row)

    assert comparison_deals.play_deal(deal.pk) == "recorded"

    row.refresh_from_db()
    assert row.status == "finished"
    assert row.result["version"]["forfeits"] == 2 and row.result["against"]["forfeits"] == 0
    assert [(f["version"], f["deal"], f["seed"], f["seat"]) for f in row.forfeits] == [(2, 1, 21, 0), (2, 1, 21, 1)]
    assert all(f["reason"].startswith("invalid: reply is not valid JSON") for f in row.forfeits)

    alice = client_for("alice")
    shown: dict[str, Any] = alice.get(f"/api/bots/{bot.pk}/compares/{row.pk}/").json()
    assert shown["forfeits"] == row.forfeits
    assert shown["forfeits"][0]["bot"] == bot.pk
    page = Client()
    page.force_login(users["alice"])
    assert "invalid: reply is not valid JSON" in page.get("/my-bots/").content.decode()
