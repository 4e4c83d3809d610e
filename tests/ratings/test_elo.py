"""Multiplayer Elo with deviations: the documented examples, and the properties the arena relies on."""

from __future__ import annotations

import doctest
import itertools
from pathlib import Path

import pytest

from ratings import elo
from ratings.elo import (
    INITIAL_DEVIATION,
    MIN_DEVIATION,
    fixed_k_ratings,
    idle,
    interval,
    is_provisional,
    k_factor,
    rate_game,
)

NEW = (1500.0, INITIAL_DEVIATION)


def test_the_documented_examples_hold() -> None:
    result = doctest.testmod(elo)
    assert result.attempted >= 15
    assert result.failed == 0


def test_two_equal_newcomers_move_by_the_same_amount_and_gain_the_same_certainty() -> None:
    (winner, d1), (loser, d2) = rate_game([NEW, NEW], [70, 42])
    assert winner - 1500.0 == pytest.approx(1500.0 - loser)
    assert winner > 1500.0 > loser
    assert d1 == d2 < INITIAL_DEVIATION


def test_a_new_player_moves_fast_and_a_settled_one_slowly() -> None:
    opponent = (1500.0, 60.0)
    moves = []
    for deviation in (350.0, 200.0, 100.0, 50.0):
        (after, _), _ = rate_game([(1500.0, deviation), opponent], [10, 5])
        moves.append(after - 1500.0)
    assert moves == sorted(moves, reverse=True) and moves[-1] > 0
    assert moves[0] > 10 * moves[-1]


def test_the_deviation_narrows_with_every_game_down_to_its_floor() -> None:
    player, opponent = NEW, (1500.0, 60.0)
    deviations = [player[1]]
    for game in range(300):
        player, opponent = rate_game([player, opponent], [10, 5] if game % 2 else [5, 10])
        deviations.append(player[1])
    assert all(b <= a for a, b in itertools.pairwise(deviations))
    assert deviations[10] < 0.4 * deviations[0]
    assert deviations[-1] == MIN_DEVIATION


def test_a_few_games_against_settled_players_end_the_provisional_rating() -> None:
    player = NEW
    provisional = []
    for game in range(12):
        player, _ = rate_game([player, (1500.0, MIN_DEVIATION)], [10, 5] if game % 2 else [5, 10])
        provisional.append(is_provisional(player[1]))
    assert provisional[:3] == [True] * 3 and provisional[-1] is False


def test_the_deviation_grows_with_idle_time_up_to_a_newcomers() -> None:
    grown = [idle(MIN_DEVIATION, days) for days in (0.0, 1.0, 30.0, 365.0, 10_000.0)]
    assert grown[0] == MIN_DEVIATION
    assert all(b > a for a, b in itertools.pairwise(grown[:-1]))
    assert grown[-1] == INITIAL_DEVIATION
    assert idle(INITIAL_DEVIATION, 50.0) == INITIAL_DEVIATION


def test_the_interval_holds_the_rating_and_widens_with_the_deviation() -> None:
    narrow, wide = interval(1600.0, 50.0), interval(1600.0, 200.0)
    assert narrow[0] < 1600.0 < narrow[1]
    assert wide[0] < narrow[0] and narrow[1] < wide[1]
    assert narrow[1] - narrow[0] == pytest.approx(2 * 1.959964 * 50.0, abs=1e-3)


def test_all_tied_players_keep_their_ratings() -> None:
    after = rate_game([NEW, (1500.0, 80.0), (1500.0, 200.0), NEW], [33, 33, 33, 33])
    assert [rating for rating, _ in after] == [1500.0] * 4


def test_the_result_does_not_depend_on_the_seat_order() -> None:
    forward = rate_game([(1500.0, 300.0), (1600.0, 80.0), (1400.0, 150.0)], [3, 2, 1])
    backward = rate_game([(1400.0, 150.0), (1600.0, 80.0), (1500.0, 300.0)], [1, 2, 3])
    assert forward == backward[::-1]


def test_a_forfeiter_ranks_last_and_nobody_drops_below_the_floor() -> None:
    (a, _), (b, _), (c, _) = rate_game([NEW, NEW, NEW], [50, 40, 5], forfeited=[True, True, False])
    assert c > a > b  # below every player that did not forfeit; between forfeiters, the totals
    (low, _), _ = rate_game([(105.0, 350.0), (300.0, 350.0)], [1, 9])
    assert low == elo.RATING_FLOOR


def test_it_refuses_malformed_games() -> None:
    with pytest.raises(ValueError, match="at least 2"):
        rate_game([NEW], [3])
    with pytest.raises(ValueError, match="one entry per player"):
        rate_game([NEW, NEW], [3])
    with pytest.raises(ValueError, match="unknown rating rule 3"):
        rate_game([NEW, NEW], [3, 2], rule=3)


def test_a_margin_moves_ratings_in_proportion_and_never_against_the_order() -> None:
    moves = [rate_game([NEW, NEW, NEW], [20 + lead, 20, 10])[0][0] - 1500.0 for lead in (0, 1, 10, 40, 200)]
    assert moves[0] < moves[1] < moves[2] < moves[3] < moves[4]
    # The order is half the score: a win by one point is worth more than a tie, and a rout at most what a
    # win was worth by the order alone.
    assert rate_game([NEW, NEW], [21, 20])[0][0] - 1500.0 > 0.5 * (
        rate_game([NEW, NEW], [21, 20], rule=1)[0][0] - 1500.0
    )
    assert moves[4] == pytest.approx(rate_game([NEW, NEW, NEW], [220, 20, 10], rule=1)[0][0] - 1500.0)
    # Equal totals are an even score whatever the rule; forfeits and totals of rule 1 ignore the margin.
    assert [rating for rating, _ in rate_game([NEW, NEW], [30, 30])] == [1500.0, 1500.0]
    assert rate_game([NEW, NEW], [90, 10], forfeited=[True, False]) == rate_game(
        [NEW, NEW], [11, 10], forfeited=[True, False]
    )
    assert rate_game([NEW, NEW], [90, 10], rule=1) == rate_game([NEW, NEW], [11, 10], rule=1)


def test_rows_written_before_deviations_replay_with_the_fixed_k_formula() -> None:
    assert [k_factor(n) for n in (0, 9, 10, 19, 20, 10_000)] == [96.0, 96.0, 64.0, 64.0, 32.0, 32.0]
    assert fixed_k_ratings([1500.0, 1500.0], [70, 42], [0, 0]) == [1548.0, 1452.0]
    with pytest.raises(ValueError, match="negative"):
        k_factor(-1)


def _pairs(cell: str) -> list[tuple[float, float]]:
    return [(float(r), float(d)) for r, d in (part.split(" ± ") for part in cell.split(", "))]


def test_the_worked_examples_of_the_documentation_hold() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "ratings.md").read_text()
    table = text.split("## Worked examples", 1)[1].split("\n\n", 2)[1]
    rows = [line.strip("|").split(" | ") for line in table.splitlines()[2:]]
    assert {int(rule) for _, rule, *_ in rows} == set(elo.RULES) and len(rows) >= 16
    for case, rule, before, totals, after in rows:
        forfeited = [True, False] if case.strip().startswith("forfeit") else None
        result = rate_game(_pairs(before), [float(t) for t in totals.split(", ")], forfeited, rule=int(rule))
        assert [(round(r, 2), round(d, 2)) for r, d in result] == _pairs(after.strip()), case
