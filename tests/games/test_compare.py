"""compare: duplicate deals, the bot in every seat, paired differences with 95% intervals (built-in bots)."""

from __future__ import annotations

import pytest

from games.part_du_chef import cli
from games.part_du_chef.comparison import Stopping, compare, seatings
from games.part_du_chef.seating import play_lineup, resolve_bot


def _bot(name: str):
    return resolve_bot(name, [])


def test_every_seat_holds_the_bot_once_with_the_opponents_in_their_order():
    lineups = seatings(_bot("search"), [_bot("greedy"), _bot("random")])
    assert [[b.label for b in lineup] for lineup in lineups] == [
        ["search", "greedy", "random"],
        ["greedy", "search", "random"],
        ["greedy", "random", "search"],
    ]


@pytest.mark.system
def test_a_deal_is_played_the_same_by_both_sides_so_a_bot_against_itself_differs_by_exactly_zero():
    result = compare(_bot("random"), _bot("random"), [_bot("greedy")], deals=6, seed=3)
    assert result.score_diff.mean == 0 and result.score_diff.half_width == 0
    assert result.placing_diff.mean == 0
    assert "no significant difference" in result.verdict()


@pytest.mark.system
def test_greedy_against_random_is_a_significant_difference_in_greedys_favour():
    result = compare(_bot("greedy"), _bot("random"), [_bot("random")], deals=8, seed=1)
    assert result.score_diff.mean - result.score_diff.half_width > 0
    assert result.placing_diff.mean + result.placing_diff.half_width < 0
    assert result.verdict().startswith("greedy is better than random: ")
    assert (result.a.games, result.b.games, result.players) == (16, 16, 2)
    swapped = compare(_bot("random"), _bot("greedy"), [_bot("random")], deals=8, seed=1)
    assert swapped.score_diff.mean == -result.score_diff.mean
    assert swapped.verdict().startswith("greedy is better than random: ")


def test_the_paired_difference_is_the_mean_of_per_deal_differences_over_every_seat():
    a, b, against = _bot("greedy"), _bot("random"), [_bot("random")]
    result = compare(a, b, against, deals=3, seed=10)
    diffs = []
    for deal in range(3):
        totals = {}
        for side in (a, b):
            totals[side.label] = (
                sum(
                    play_lineup(lineup, 10 + deal, with_record=False).result.totals[seat]
                    for seat, lineup in enumerate(seatings(side, against))
                )
                / 2
            )
        diffs.append(totals["greedy"] - totals["random"])
    assert abs(result.score_diff.mean - sum(diffs) / 3) < 1e-9


def test_compare_prints_both_bots_the_difference_and_the_verdict(capsys):
    status = cli.main(["compare", "greedy", "random", "--against", "random", "--deals", "8", "--fixed"])
    out = capsys.readouterr().out
    assert status == 0
    assert "8 duplicate deals (seeds 0..7), 2 players" in out
    assert "A - B (paired by deal)" in out and "verdict: greedy is better than random" in out


def test_a_sequential_comparison_stops_as_soon_as_it_knows_with_better_or_no_difference():
    greedy, random = resolve_bot("greedy", []), resolve_bot("random", [])
    rule = Stopping(max_deals=30)
    clear = compare(greedy, random, [random], 30, 0, stopping=rule)
    assert clear.stopped == "better" and clear.deals < 30
    assert clear.verdict().startswith("greedy is better than random")
    assert f"stopped after {clear.deals} of at most 30 deals" in clear.verdict()
    assert clear.seeds == tuple(range(clear.deals))
    same = compare(greedy, greedy, [random], 30, 0, stopping=rule)
    assert same.stopped == "same" and same.deals < 30
    assert same.verdict().startswith("no difference between greedy and greedy")
    # Without a rule, every deal asked for is played, even where the rule above stopped early.
    fixed = compare(greedy, greedy, [random], same.deals + 1, 0)
    assert (fixed.deals, fixed.stopped) == (same.deals + 1, None)


def test_the_deals_given_by_their_seeds_are_played_in_that_order(capsys):
    status = cli.main(["compare", "greedy", "random", "--against", "random", "--seeds", "40..41,7", "--fixed"])
    out = capsys.readouterr().out
    assert status == 0 and "3 duplicate deals (seeds 40..41,7), 2 players" in out
    for bad, message in [("4..2", "--seeds: '4..2' is not a range"), ("x", "--seeds: 'x' is not a seed")]:
        assert cli.main(["compare", "greedy", "random", "--seeds", bad]) == 2
        assert message in capsys.readouterr().err


def test_compare_refuses_bad_input_with_one_line(capsys):
    for argv, message in [
        (["compare", "greedy", "random", "--deals", "0"], "--deals must be at least 1"),
        (["compare", "greedy", "random", "--against", "greedy,greedy,greedy,greedy,greedy"], "2 to 5 players"),
        (["compare", "greedy", "nobody"], "unknown bot 'nobody'"),
        (["compare", "greedy", "./v2.py"], "use the `part-du-chef` command"),
    ]:
        assert cli.main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.startswith("error: ") and message in err and err.count("\n") == 1, err
