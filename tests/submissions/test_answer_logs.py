"""The owner's log keeps what the bot actually answered when a decision was invalid or illegal (capped)."""

from __future__ import annotations

from botclient.protocol import ANSWER_LOG_BYTES
from submissions.models import BotSeat, BotVersion
from tests.submitted_bots import SANDBOX_BOTS, STARTER_KITS

PROSE = """import json, sys
for line in sys.stdin:
    if json.loads(line)["type"] == "start":
        print(json.dumps({"type": "ready"}), flush=True)
    else:
        print("I cut at " + "zero and six, " * 100, flush=True)
"""


def _first_version(bot) -> BotVersion:
    return BotVersion.objects.get(bot=bot, number=1)


def test_an_illegal_answer_is_in_the_validation_log_and_the_seat_log_word_for_word(submit):
    bot = submit("illegal", (SANDBOX_BOTS / "illegal_move.py").read_bytes())
    version = _first_version(bot)
    assert version.status == "rejected"
    answer = '{"type": "take", "portion": 99, "eat": [], "steals": [], "marianne": null}'
    assert version.log[0]["answer"] == answer
    failed = [m for seat in BotSeat.objects.filter(version=version) for m in seat.moves if m["status"] != "ok"]
    assert failed and failed[0]["status"] == "illegal"
    assert failed[0]["answer"] == answer


def test_an_answer_that_is_not_json_is_in_the_log(submit):
    bot = submit("garbage", (SANDBOX_BOTS / "garbage_json.py").read_bytes())
    version = _first_version(bot)
    assert version.status == "rejected"
    assert "not valid JSON" in version.reason
    assert version.log[0]["answer"] == "{cut: [0, 6],"


def test_a_long_answer_is_kept_to_its_first_500_bytes_with_its_length(submit):
    bot = submit("prose", PROSE.encode())
    version = _first_version(bot)
    assert version.status == "rejected"
    answer = version.log[0]["answer"]
    full = "I cut at " + "zero and six, " * 100
    assert answer == full[:ANSWER_LOG_BYTES] + f"... [{len(full)} bytes in all]"


def test_good_decisions_carry_no_answer_in_the_log(submit):
    bot = submit("kit", (STARTER_KITS / "python" / "bot.py").read_bytes(), filename="bot.py")
    version = _first_version(bot)
    assert version.status == "active"
    moves = [m for seat in BotSeat.objects.filter(version=version) for m in seat.moves]
    assert moves and all("answer" not in m for m in moves)
    assert all("answer" not in game for game in version.log)
