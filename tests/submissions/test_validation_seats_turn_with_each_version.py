"""Fair seats in validation: the bot's seat at each validation table turns by one place per version, from a
place that depends on the bot, so that the first versions of different bots do not all sit alike."""

from __future__ import annotations

import doctest

from submissions import actions
from submissions.models import BotSeat
from tests.submitted_bots import STARTER_KITS

KIT = (STARTER_KITS / "python" / "bot.py").read_bytes()
WIDTHS = [len(opponents) + 1 for opponents, _, _ in actions.VALIDATION_TABLES]


def _seat(index: int, bot_id: int, number: int) -> int:
    return actions.validation_table(index, bot_id, number)[1]


def test_over_its_versions_a_bot_sits_in_every_seat_of_each_validation_table() -> None:
    result = doctest.testmod(actions)
    assert result.attempted > 0 and result.failed == 0
    for bot_id in (1, 2, 7, 1234):
        for index, width in enumerate(WIDTHS):
            seats = [_seat(index, bot_id, number) for number in range(1, width + 1)]
            assert sorted(seats) == list(range(width)), (bot_id, index)
            # One version to the next: one seat further.
            assert [(seat + 1) % width for seat in seats[:-1]] == seats[1:]


def test_the_repeats_of_a_table_sit_one_seat_further_than_its_first_game() -> None:
    # More games than tables (ARENA_BOT_VALIDATION_GAMES above 3): the repeats of a table turn too.
    tables = len(actions.VALIDATION_TABLES)
    for bot_id in (1, 2, 7):
        first = [_seat(index, bot_id, 1) for index in range(tables)]
        again = [_seat(tables + index, bot_id, 1) for index in range(tables)]
        assert again == [(seat + 1) % width for seat, width in zip(first, WIDTHS, strict=True)]


def test_the_first_versions_of_different_bots_are_spread_over_every_seat() -> None:
    bot_ids = range(1, 13)  # bots created one after another
    for index, width in enumerate(WIDTHS):
        seats = [_seat(index, bot_id, 1) for bot_id in bot_ids]
        assert sorted(set(seats)) == list(range(width)), index
        assert all(seats.count(seat) == len(bot_ids) // width for seat in range(width))
    # So two bots in a row never have their first versions validated in the same seats.
    assert all(
        [_seat(index, bot_id, 1) for index in range(len(WIDTHS))]
        != [_seat(index, bot_id + 1, 1) for index in range(len(WIDTHS))]
        for bot_id in bot_ids
    )


def test_a_second_version_is_validated_one_seat_further(submit) -> None:
    bot = submit("kit-seats", KIT, filename="bot.py")
    second = actions.add_version(bot, upload=("bot.py", KIT))
    assert actions.run_validation(second.id) == "active"
    seats = {
        number: list(
            BotSeat.objects.filter(version__bot=bot, version__number=number)
            .order_by("match_id")
            .values_list("seat", flat=True)
        )
        for number in (1, 2)
    }
    assert seats == {number: [_seat(index, bot.pk, number) for index in range(2)] for number in (1, 2)}
    assert seats[2] == [(seat + 1) % width for seat, width in zip(seats[1], WIDTHS, strict=False)]
