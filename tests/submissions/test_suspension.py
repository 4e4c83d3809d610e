"""Arena entries of submitted bots, and suspension after too many forfeits, lifted by a new version."""

from __future__ import annotations

from arena.matches import create_match
from arena.models import ArenaEntry, Match, Player
from results.tasks import play_match
from submissions import actions as submissions
from submissions.models import BotVersion, SubmittedBot
from submissions.rules import forfeit_threshold
from tests.submitted_bots import SANDBOX_BOTS, STARTER_KITS

KIT = (STARTER_KITS / "python" / "bot.py").read_bytes()


def _enter(api, bot_id: int):
    return api.post("/api/arena/entries/", {"player": bot_id, "game": "part-du-chef", "table_size": 2}, format="json")


def _arena_match(bot_id: int, seed: int) -> Match:
    greedy = Player.objects.get(name="greedy")
    match = create_match(game="part-du-chef", kind="arena", player_ids=[bot_id, greedy.pk], seed=seed)
    assert play_match.run(match.id) == "finished"
    return match


def test_only_active_versions_of_ones_own_bots_enter_the_arena(submit, client_for):
    pending = submit("waiting", KIT, validate=False)
    rejected = submit("broken", (SANDBOX_BOTS / "garbage_json.py").read_bytes())
    active = submit("ready", KIT)
    alice, bob = client_for("alice"), client_for("bob")
    assert BotVersion.objects.get(bot=rejected).status == "rejected"
    refused = _enter(alice, pending.pk)
    assert refused.status_code == 400 and "no active version (version 1 is pending)" in refused.json()["detail"]
    refused = _enter(alice, rejected.pk)
    assert refused.status_code == 400 and "version 1 is rejected" in refused.json()["detail"]
    assert _enter(bob, active.pk).status_code == 400  # not bob's bot: answered as unknown
    assert _enter(alice, active.pk).status_code == 201
    assert ArenaEntry.objects.filter(player_id=active.pk, active=True).count() == 1


def test_a_bot_forfeiting_too_often_is_suspended_and_a_new_version_lifts_it(submit, client_for, settings):
    settings.ARENA_BOT_SUSPEND_WINDOW = 4
    settings.ARENA_BOT_SUSPEND_RATIO = 0.5
    assert forfeit_threshold() == 2
    alice = client_for("alice")
    bot = submit("flaky", KIT)
    assert _enter(alice, bot.pk).status_code == 201
    # A new bundle for the same version, as if the bot had turned bad after validation.
    bad = (SANDBOX_BOTS / "illegal_move.py").read_bytes()
    BotVersion.objects.filter(bot=bot).update(bundle=bad, bundle_sha256="0" * 63 + "1", filename="bad.py")
    _arena_match(bot.pk, seed=1)
    bot.refresh_from_db()
    assert bot.suspended_at is None  # one forfeit in the window: not yet
    _arena_match(bot.pk, seed=2)
    bot.refresh_from_db()
    assert bot.suspended_at is not None
    assert bot.suspension_reason.startswith("version 1 forfeited 2 of its last 2 arena matches (the limit is 2 of 4)")
    assert "illegal: " in bot.suspension_reason
    assert not ArenaEntry.objects.filter(player_id=bot.pk, active=True).exists()
    shown = alice.get(f"/api/bots/{bot.pk}/").json()
    assert shown["status"] == "suspended" and shown["suspension_reason"] == bot.suspension_reason
    refused = _enter(alice, bot.pk)
    assert refused.status_code == 400 and "suspended from the arena" in refused.json()["detail"]
    # Friendly matches are not the arena's business: a suspended bot still plays them.
    random = Player.objects.get(name="random")
    friendly = create_match(game="part-du-chef", kind="friendly", player_ids=[bot.pk, random.pk])
    assert play_match.run(friendly.id) == "finished"

    version = submissions.add_version(SubmittedBot.objects.get(pk=bot.pk), upload=("bot.py", KIT))
    assert submissions.run_validation(version.id) == "active"
    bot.refresh_from_db()
    assert (bot.suspended_at, bot.suspension_reason) == (None, "")
    assert list(BotVersion.objects.filter(bot=bot).values_list("number", "status")) == [(1, "retired"), (2, "active")]
    assert _enter(alice, bot.pk).status_code == 201
    # The new version starts with a clean record: its own forfeits only would count.
    _arena_match(bot.pk, seed=3)
    bot.refresh_from_db()
    assert bot.suspended_at is None


def test_forfeits_outside_the_window_do_not_count(submit, settings):
    settings.ARENA_BOT_SUSPEND_WINDOW = 3
    settings.ARENA_BOT_SUSPEND_RATIO = 0.5  # 2 forfeits among the last 3
    bot = submit("recovering", KIT)
    good = BotVersion.objects.get(bot=bot)
    good_bundle, good_sha = bytes(good.bundle), good.bundle_sha256
    bad = (SANDBOX_BOTS / "garbage_json.py").read_bytes()
    BotVersion.objects.filter(bot=bot).update(bundle=bad, bundle_sha256="0" * 63 + "2", filename="bad.py")
    _arena_match(bot.pk, seed=4)
    BotVersion.objects.filter(bot=bot).update(bundle=good_bundle, bundle_sha256=good_sha, filename="bot.py")
    for seed in (5, 6, 7):
        _arena_match(bot.pk, seed=seed)
    BotVersion.objects.filter(bot=bot).update(bundle=bad, bundle_sha256="0" * 63 + "2", filename="bad.py")
    _arena_match(bot.pk, seed=8)
    bot.refresh_from_db()
    assert bot.suspended_at is None  # 1 forfeit in the last 3; the older one slid out of the window
