"""The placement benchmark reads its newcomers from the ledger afterwards, whatever order matches played in.

A newcomer's k-th game is its k-th ledger row; its true level then is the house bot of its engine after
the same match if it sat at the table (whichever row the commit wrote first), else its latest row before,
else its rating at the end of the warm-up.
"""

from __future__ import annotations

import pytest

from arena.models import Match, MatchSeat, Player
from bench.arena_placement import Newcomer, read_arena
from ratings.models import RatingChange


def _match(*players: Player) -> Match:
    match = Match.objects.create(game="part-du-chef", kind="arena", rated=True, seed=1, status="finished")
    for seat, player in enumerate(players):
        MatchSeat.objects.create(match=match, seat=seat, player=player, rank=seat + 1)
    return match


def _row(match: Match, player: Player, after: float, deviation: float) -> None:
    RatingChange.objects.create(
        match=match,
        player=player,
        game="part-du-chef",
        before=1500.0,
        after=after,
        games_before=0,
        deviation_after=deviation,
        rule=2,
    )


@pytest.mark.django_db
def test_a_newcomer_is_read_at_its_kth_ledger_row_against_its_house_bot_at_that_moment() -> None:
    greedy, random = Player.objects.get(name="greedy"), Player.objects.get(name="random")
    bot = Player.objects.create(name="bench-greedy-0", kind="bot", builtin="greedy")
    first, elsewhere, together, last = _match(bot, random), _match(greedy, random), _match(bot, greedy), _match(bot)
    _row(first, bot, 1400.0, 200.0)  # the house bot has no row yet: its rating after the warm-up, 1600
    _row(elsewhere, greedy, 1620.0, 80.0)
    _row(together, bot, 1500.0, 100.0)  # the house bot at the same table, its row written after this one
    _row(together, greedy, 1610.0, 80.0)
    _row(last, bot, 1900.0, 50.0)  # its latest row before: 1610

    newcomer = Newcomer(bot.id, bot.name, "greedy", 0)
    arena, opponents = read_arena([newcomer], ["greedy"], {"greedy": greedy.id}, {greedy.id: 1600.0}, (1, 2, 3))

    readings = arena.readings["greedy"]
    assert [reading.error for n in (1, 2, 3) for reading in readings[n]] == [200.0, 110.0, 290.0]
    # Covered: the house bot's level within rating ± 1.96 deviation (392, 196, 98 points).
    assert [reading.covered for n in (1, 2, 3) for reading in readings[n]] == [True, True, False]
    assert opponents == {"greedy": ["random"]}
