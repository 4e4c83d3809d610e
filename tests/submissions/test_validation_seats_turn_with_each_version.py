"""Fair seats in validation: the bot's seat at each validation table turns by one place per version."""

from __future__ import annotations

import doctest

from submissions import actions
from submissions.models import BotSeat
from tests.submitted_bots import STARTER_KITS

KIT = (STARTER_KITS / "python" / "bot.py").read_bytes()


def test_over_its_versions_a_bot_sits_in_every_seat_of_each_validation_table() -> None:
    result = doctest.testmod(actions)
    assert result.attempted > 0 and result.failed == 0
    for index, width in enumerate((2, 3, 4)):
        seats = [actions.validation_table(index, number)[1] for number in range(1, width + 1)]
        assert sorted(seats) == list(range(width))
    # More games than tables (ARENA_BOT_VALIDATION_GAMES above 3): the repeats of a table turn too.
    assert [actions.validation_table(index, 1)[1] for index in range(6)] == [0, 1, 3, 1, 2, 0]


def test_a_second_version_is_validated_one_seat_further(submit) -> None:
    bot = submit("kit-seats", KIT, filename="bot.py")
    second = actions.add_version(bot, upload=("bot.py", KIT))
    assert actions.run_validation(second.id) == "active"
    seats = {
        number: list(BotSeat.objects.filter(version__bot=bot, version__number=number).values_list("seat", flat=True))
        for number in (1, 2)
    }
    assert seats == {1: [0, 1], 2: [1, 2]}
