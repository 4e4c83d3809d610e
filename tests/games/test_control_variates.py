"""Luck-corrected scores: every correction averages zero, so the corrected score keeps the score's mean."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from games.part_du_chef import control_variates as cv
from games.part_du_chef.bots import get_bot
from games.part_du_chef.bots.noisy import NoisyGreedyBot
from games.part_du_chef.bots.random_bot import RandomBot
from games.part_du_chef.comparison import DealScores, Stopping, compare, decision_diffs, settle
from games.part_du_chef.play import play_state
from games.part_du_chef.seating import resolve_bot
from games.part_du_chef.state import State


def _within(values: list[float], sigmas: float = 4.0) -> tuple[float, float]:
    mean = statistics.fmean(values)
    se = statistics.stdev(values) / math.sqrt(len(values))
    assert se > 0, "the terms do not vary: nothing is tested"
    assert abs(mean) <= sigmas * se, (mean, se)
    return mean, se


def _position(seed: int, actions: int) -> State:
    """A game of greedy bots stopped after `actions` actions."""
    state = State.new(3, seed)
    bots = [get_bot("greedy", seat) for seat in range(3)]
    for _ in range(actions):
        seat = state.to_act
        assert seat is not None
        state.apply(bots[seat].act(state.observation(seat)), seat=seat)
    return state


@pytest.mark.unit
def test_a_random_bots_decision_term_averages_zero_over_the_bots_own_draws():
    state = _position(5, 6)  # pizza 2, a take
    seat = state.to_act
    assert seat is not None and state.cuts is not None
    observation = state.observation(seat)
    terms = []
    for draw in range(300):
        action = RandomBot(10_000 + draw).act(observation)
        # Another game's seed each time: the alternatives set against the action are drawn anew, as in play.
        term = cv.decision_term(state, action, seat, cv.KnownPolicy(0.0), seat=0, seed=draw)
        assert term is not None
        terms.append(term)
    _within(terms)


@pytest.mark.unit
def test_a_noisy_greedy_take_term_averages_zero_over_its_draws():
    state = _position(8, 5)
    seat = state.to_act
    assert seat is not None and state.cuts is not None
    policy = cv.known_policy("noisy-greedy-40")
    assert policy == cv.KnownPolicy(0.6)
    observation = state.observation(seat)
    terms = []
    for draw in range(400):
        action = NoisyGreedyBot(0.4, 20_000 + draw).act(observation)
        term = cv.decision_term(state, action, seat, policy, seat=seat, seed=draw)
        assert term is not None
        terms.append(term)
    _within(terms)


@pytest.mark.unit
def test_a_noisy_greedy_cut_term_averages_zero_and_only_the_one_pizza_baseline_leaves_it_out():
    state = _position(8, 4)
    chef = state.to_act
    assert chef is not None and state.cuts is None
    policy = cv.known_policy("noisy-greedy-40")
    assert policy is not None
    observation = state.observation(chef)
    greedy_cut = get_bot("greedy").act(observation)
    assert cv.decision_term(state, greedy_cut, chef, policy, seat=chef, seed=8, baseline=cv.PIZZA_LOOKAHEAD) is None
    terms = []
    for draw in range(80):
        action = NoisyGreedyBot(0.4, 30_000 + draw).act(observation)
        term = cv.decision_term(state, action, chef, policy, seat=chef, seed=draw)
        assert term is not None
        terms.append(term)
    _within(terms)


@pytest.mark.unit
def test_a_chance_term_averages_zero_over_rings_dealt_as_the_deal_deals_them():
    state = _position(11, 8)  # pizza 3 revealed, not cut yet
    assert state.cuts is None and state.pizza == 2
    unseen = [sid for ring in state.pizzas[2:] for sid in ring]
    rng = random.Random(3)
    terms = []
    for draw in range(200):
        rng.shuffle(unseen)
        rings = tuple(tuple(unseen[i : i + 13]) for i in range(0, len(unseen), 13))
        terms.append(cv.chance_term(state.with_pizzas(state.pizzas[:2] + rings), seat=1, seed=draw))
    _within(terms)


@pytest.mark.unit
def test_only_pizzas_not_yet_revealed_may_be_dealt_again():
    state = _position(2, 8)
    with pytest.raises(ValueError, match="not yet revealed"):
        state.with_pizzas(tuple(reversed(state.pizzas)))
    swapped = list(state.pizzas)
    swapped[3], swapped[4] = swapped[4], swapped[3]
    assert state.with_pizzas(tuple(swapped)).pizzas[3] == state.pizzas[4]


@pytest.mark.unit
def test_the_corrected_score_keeps_the_mean_of_the_score_over_many_games():
    names = ("noisy-greedy-30", "random", "random")
    taken = []
    for seed in range(120):
        state = play_state([get_bot(name, seed * 8 + seat) for seat, name in enumerate(names)], seed)
        result = cv.correct(seed, 3, names, state.history, seat=0)
        assert result.events > 0
        taken.append(result.score - result.corrected)
    _within(taken)


@pytest.mark.unit
def test_deterministic_and_unknown_bots_are_never_corrected():
    names = ("greedy", "search-fast", "greedy")
    state = play_state([get_bot(name, 40 + seat) for seat, name in enumerate(names)], 4)
    result = cv.correct(4, 3, names, state.history, seat=1)
    assert result.events == 0 and result.corrected == result.score == state.scores()[1].total


@pytest.mark.unit
def test_the_baseline_values_the_opponents_share_at_three_seats_and_the_seat_alone_at_two():
    three = ("noisy-greedy-20", "greedy", "random")
    state = play_state([get_bot(name, 50 + seat) for seat, name in enumerate(three)], 12)
    today = cv.correct(12, 3, three, state.history, seat=0)
    earlier = cv.correct(12, 3, three, state.history, seat=0, baseline=cv.GAME_ROLLOUT_1)
    assert today.events == earlier.events > 0 and today.corrected != pytest.approx(earlier.corrected)
    # V: the seat's total less half the others' mean, from the very same playouts.
    position = State.new(3, 12)
    for actor, _, action in state.history[:6]:
        position.apply(action, seat=actor)
    alone, *rivals = (cv.value(position, seat, 77, rollouts=4) for seat in range(3))
    assert cv.value(position, 0, 77, rollouts=4, opponents=0.5) == pytest.approx(alone - 0.5 * sum(rivals) / 2)

    two = ("noisy-greedy-20", "random")
    state = play_state([get_bot(name, 60 + seat) for seat, name in enumerate(two)], 13)
    heads_up = cv.correct(13, 2, two, state.history, seat=0)
    assert heads_up == cv.correct(13, 2, two, state.history, seat=0, baseline=cv.GAME_ROLLOUT_1)
    assert cv.BASELINE.for_table(2).name == cv.BASELINE.name


@pytest.mark.unit
def test_the_stand_ins_decisions_are_not_corrected():
    names = ("random", "random")
    state = play_state([get_bot("random", 1), get_bot("random", 2)], 9)
    every = cv.correct(9, 2, names, state.history, seat=0)
    seat_one = tuple(actor == 1 for actor, _, _ in state.history)
    without = cv.correct(9, 2, names, state.history, seat=0, stand_in=seat_one)
    assert without.events == every.events - sum(seat_one)
    assert without.others == 0 and without.own == every.own


@pytest.mark.unit
def test_actions_that_stop_before_the_game_ends_are_refused():
    state = play_state([get_bot("random", 1), get_bot("random", 2)], 9)
    with pytest.raises(ValueError, match="end before the game does"):
        cv.correct(9, 2, ("random", "random"), state.history[:-1], seat=0)


@pytest.mark.unit
def test_a_deal_stored_before_corrections_is_read_without_them_and_the_test_then_uses_plain_differences():
    corrected = DealScores(1, 40.0, 30.0, 1.5, 2.0, 0, 0, (), (), 38.0, 33.0, cv.BASELINE.name)
    again = DealScores.from_json(corrected.to_json())
    assert again == corrected and again.corrected_diff == 5.0
    old = corrected.to_json()
    for key in ("corrected_a", "corrected_b", "baseline"):
        del old[key]
    plain = DealScores.from_json(old)
    assert plain.corrected_diff is None and plain.baseline is None
    assert decision_diffs([corrected, corrected]) == [5.0, 5.0]
    assert decision_diffs([corrected, plain]) == [10.0, 10.0]
    other_baseline = DealScores(2, 40.0, 30.0, 1.5, 2.0, 0, 0, (), (), 39.0, 31.0, "another/1")
    assert decision_diffs([corrected, other_baseline]) == [10.0, 10.0]


@pytest.mark.unit
def test_the_sequential_test_goes_by_the_corrected_differences():
    # Plain differences all over the place, corrected ones steady: only the corrected decide early.
    plain = [20.0, -15.0, 18.0, -12.0, 16.0, -10.0]
    steady = [3.1, 2.9, 3.0, 3.2, 2.8, 3.0]
    deals = [
        DealScores(i, 30 + p, 30.0, 2.0, 2.0, 0, 0, (), (), 30 + c, 30.0, cv.BASELINE.name)
        for i, (p, c) in enumerate(zip(plain, steady, strict=True))
    ]
    assert settle(deals, Stopping(max_deals=6)) == (3, "better")
    unmarked = [DealScores(d.seed, d.score_a, d.score_b, 2.0, 2.0, 0, 0) for d in deals]
    assert settle(unmarked, Stopping(max_deals=6)) == (6, None)


@pytest.mark.system
def test_a_comparison_of_close_noisy_bots_gives_its_corrected_difference_and_names_the_baseline():
    a, b = resolve_bot("noisy-greedy-10", []), resolve_bot("noisy-greedy-20", [])
    result = compare(a, b, [resolve_bot("greedy", []), resolve_bot("random", [])], deals=8, seed=500)
    assert result.corrected_diff is not None and result.baseline == cv.BASELINE.name
    assert result.corrected_diff.n == result.score_diff.n == 8
    assert result.verdict().endswith(f"[luck-corrected scores, baseline {cv.BASELINE.name}]")
    ratio = result.variance_ratio()
    assert ratio is not None and ratio > 0


@pytest.mark.unit
def test_noisy_greedy_plays_greedys_move_except_its_share_of_random_ones():
    from games.part_du_chef.bots import is_bot_name, noisy_share

    assert noisy_share("noisy-greedy-25") == 0.25 and is_bot_name("noisy-greedy-25")
    for wrong in ("noisy-greedy-0", "noisy-greedy-100", "noisy-greedy-07", "noisy-greedy-", "noisy-greedy-x"):
        assert noisy_share(wrong) is None and not is_bot_name(wrong)
    greedy = get_bot("greedy")
    differs = 0
    decisions = 0
    for seed in range(20):
        state = State.new(3, seed)
        bot = get_bot("noisy-greedy-50", seed)
        again = get_bot("noisy-greedy-50", seed)
        while state.to_act is not None:
            seat = state.to_act
            observation = state.observation(seat)
            if state.cuts is not None:  # takes: greedy's are cheap to ask for
                move = bot.act(observation)
                assert again.act(observation) == move  # a seed plays the same moves
                decisions += 1
                differs += move != greedy.act(observation)
                state.apply(move, seat=seat)
            else:  # cuts: any legal one (greedy's costs a search), neither bot asked
                state.apply(state.legal_actions()[seed % 7], seat=seat)
    # Half the moves are the random bot's, and a random take is seldom greedy's.
    assert 0.3 < differs / decisions < 0.55, (differs, decisions)


@pytest.mark.system
def test_compare_prints_the_luck_corrected_difference_how_much_less_it_varies_and_the_baseline(capsys):
    from games.part_du_chef import cli

    status = cli.main(["compare", "random", "noisy-greedy-50", "--against", "random", "--deals", "4", "--fixed"])
    out = capsys.readouterr().out
    assert status == 0
    assert "A - B, luck corrected" in out
    assert f"luck correction (baseline {cv.BASELINE.name}): the corrected difference varies " in out
    assert f"[luck-corrected scores, baseline {cv.BASELINE.name}]" in out


@pytest.mark.unit
def test_the_documented_examples_hold():
    import doctest

    from games.part_du_chef import bots, comparison, student

    for module in (cv, comparison, student, bots):
        result = doctest.testmod(module)
        assert result.attempted >= 1 and result.failed == 0, module.__name__


@pytest.mark.unit
def test_the_t_quantiles_are_the_tables_and_a_look_at_three_deals_is_wider_than_the_normal_one():
    from statistics import NormalDist

    from games.part_du_chef.student import t_cdf, t_quantile

    # Two-sided 95% and 99% critical values, from the published table.
    for df, p, table in [(1, 0.975, 12.706), (2, 0.975, 4.303), (4, 0.995, 4.604), (20, 0.975, 2.086)]:
        assert abs(t_quantile(p, df) - table) < 1e-3
        assert abs(t_cdf(table, df) - p) < 1e-4
    assert t_quantile(0.975, 100_000) == pytest.approx(NormalDist().inv_cdf(0.975), abs=1e-4)
    rule = Stopping(max_deals=30)
    assert rule.critical(3) > 7 * NormalDist().inv_cdf(1 - 0.05 / 56)
    with pytest.raises(ValueError):
        t_quantile(1.0, 3)
    with pytest.raises(ValueError):
        t_cdf(1.0, 0)
