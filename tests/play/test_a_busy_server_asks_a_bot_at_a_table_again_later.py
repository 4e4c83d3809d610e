"""A submitted bot at a table with people is never charged for the server's slowness: a decision whose
sandbox the server cannot start in time (ARENA_SANDBOX_START_MS) is not taken, the bot is not out, and the
decision is asked again later; once the server keeps up, the bot plays it."""

from __future__ import annotations

import pytest

from arena.models import Match, Player
from arena.people import person_of
from play.engine import create_live_match, play_turn
from play.models import LiveGame
from submissions.models import BotSeat, BotVersion
from tests.submitted_bots import STARTER_KITS

pytestmark = pytest.mark.usefixtures("bot_settings")


def test_a_decision_the_server_is_too_slow_to_start_is_asked_again_and_the_bot_is_not_charged(submit, users, settings):
    bot = submit("kit-at-a-slow-table", (STARTER_KITS / "python" / "bot.py").read_bytes(), filename="bot.py")
    assert BotVersion.objects.get(bot=bot, number=1).status == "active"
    players = [Player.objects.get(pk=bot.pk), person_of(users["bob"])]
    match = create_live_match(game="part-du-chef", kind=Match.Kind.FRIENDLY, players=players, seed=3)
    game = LiveGame.objects.get(pk=match.id)
    assert game.to_act == 0  # the bot's decision first
    settings.ARENA_SANDBOX_START_DELAY_MS = 700
    settings.ARENA_SANDBOX_START_MS = 200

    assert play_turn(match.id, game.turn) == "server busy"

    after = LiveGame.objects.get(pk=match.id)
    assert (after.turn, after.to_act, after.out) == (game.turn, 0, [False, False])  # nothing decided for it
    assert after.bank_ms == game.bank_ms
    pin = BotSeat.objects.get(match=match, seat=0)
    assert (pin.moves, pin.forfeited, pin.forfeit_reason) == ([], False, "")

    # The server keeps up again: the decision, asked again, is the bot's own.
    # (the slow starts may still hold slots a moment: the server's limit is back to its default too)
    settings.ARENA_SANDBOX_START_DELAY_MS, settings.ARENA_SANDBOX_START_MS = 0, 20_000
    assert play_turn(match.id, game.turn) == "played"
    pin.refresh_from_db()
    assert [move["status"] for move in pin.moves] == ["ok"] and not pin.forfeited
    assert LiveGame.objects.get(pk=match.id).turn == game.turn + 1
