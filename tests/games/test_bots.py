"""The built-in bots: legal play everywhere, reproducible, blind to the pizzas to come, sensible choices."""

from __future__ import annotations

import random

import pytest

from games.part_du_chef import Cut, State, Take
from games.part_du_chef.bots import BOT_NAMES, Bot, get_bot
from games.part_du_chef.bots.determinize import sample_pizzas, sample_state, unseen_slices
from games.part_du_chef.bots.evaluation import Position, plan_take, provisional_totals, rank_cuts
from games.part_du_chef.bots.greedy import GreedyBot
from games.part_du_chef.bots.search import SearchBot
from games.part_du_chef.deck import BURNT, BURNT_IDS, DECK_SIZE, KIND_OF, PIZZAS, deal
from games.part_du_chef.play import play_state
from games.part_du_chef.record import discrepancies

from .positions import BURNTS, REINE, TRUFFE, TRUFFE_FINISHER, position


def make(name: str, seed: int) -> Bot:
    # A small search budget keeps these tests quick; the search itself is the same.
    if name == "search":
        return SearchBot(seed, playouts=3, cut_candidates=2)
    return get_bot(name, seed)


@pytest.mark.parametrize("name", BOT_NAMES)
@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("marianne", [False, True])
def test_every_bot_plays_only_legal_actions_at_every_table_size(name: str, players: int, marianne: bool) -> None:
    games = 2 if name.startswith("search") else 6  # the search on either budget: two games, both seatings
    for game in range(games):
        seed = 1000 * players + game
        # One seat of the bot under test among random players, and tables of that bot alone.
        names = [name] * players if game % 2 else [name] + ["random"] * (players - 1)
        bots = [make(n, seed + seat) for seat, n in enumerate(names)]
        # State.apply raises IllegalAction on any illegal action, so finishing the game is the check.
        state = play_state(bots, seed, marianne=marianne)
        assert state.is_over
        assert discrepancies(state.to_record(names)) == []


def test_a_restricted_marianne_is_only_played_by_its_eligible_seats() -> None:
    for seed in range(4):
        bots = [make(name, seed) for name in ("greedy", "search", "random")]
        state = play_state(bots, seed, marianne=True, marianne_seats=[1])
        for seat, _, action in state.history:
            if action.marianne is not None:
                assert seat == 1


def test_get_bot_gives_each_named_bot_and_refuses_an_unknown_name() -> None:
    for name in BOT_NAMES:
        assert get_bot(name, 3).name == name
    with pytest.raises(ValueError, match="unknown bot 'minimax'"):
        get_bot("minimax")


def test_search_plays_the_same_game_again_for_the_same_seed() -> None:
    def record(bot_seed: int) -> dict[str, object]:
        bots = [SearchBot(bot_seed, playouts=4), get_bot("greedy"), get_bot("random", 5), get_bot("random", 6)]
        return play_state(bots, 77, marianne=True).to_record(["search", "greedy", "random", "random"])

    assert record(1) == record(1)


def test_search_with_other_seeds_samples_other_deals() -> None:
    state = State.new(4, 12)
    observation = state.observation(0)
    deals = {sample_pizzas(observation, random.Random(seed)) for seed in range(5)}
    assert len(deals) == 5


def test_the_default_search_is_deterministic_on_a_decision() -> None:
    state = State.new(3, 5)
    state.apply(Cut((0, 4, 8)))
    observation = state.observation(1)
    assert get_bot("search", 9).act(observation) == get_bot("search", 9).act(observation)


def _future_twin(seed: int) -> tuple[tuple[int, ...], ...]:
    """The deal of `seed` with slices exchanged between the last three pizzas, and those rings reshuffled."""
    pizzas = [list(ring) for ring in deal(seed)]
    rng = random.Random(seed)
    for _ in range(6):
        a, b = rng.sample(range(2, PIZZAS), 2)
        i = rng.choice([i for i, s in enumerate(pizzas[a]) if KIND_OF[s] != BURNT])
        j = rng.choice([j for j, s in enumerate(pizzas[b]) if KIND_OF[s] != BURNT])
        pizzas[a][i], pizzas[b][j] = pizzas[b][j], pizzas[a][i]
    for ring in pizzas[2:]:
        rng.shuffle(ring)
    return tuple(tuple(ring) for ring in pizzas)


@pytest.mark.parametrize("name", BOT_NAMES)
def test_bots_act_the_same_when_only_the_pizzas_to_come_differ(name: str) -> None:
    for seed in range(3):
        players = 3 + seed
        real = State.new(players, seed, marianne=True)
        twin = State.new(players, seed, marianne=True, pizzas=_future_twin(seed))
        assert real.pizzas[:2] == twin.pizzas[:2] and real.pizzas[2:] != twin.pizzas[2:]
        bots_real = [make(name, seed * 10 + seat) for seat in range(players)]
        bots_twin = [make(name, seed * 10 + seat) for seat in range(players)]
        # Through the first two pizzas the two games must not diverge at all.
        while real.pizza < 2:
            seat = real.to_act
            assert seat is not None
            action = bots_real[seat].act(real.observation(seat))
            assert bots_twin[seat].act(twin.observation(seat)) == action
            real.apply(action)
            twin.apply(action)


def test_a_sampled_state_shows_the_observing_seat_what_it_observed() -> None:
    rng = random.Random(3)
    for seed in range(10):
        players = 2 + seed % 4
        state = State.new(players, seed, marianne=True)
        bots = [get_bot("random", seed + seat) for seat in range(players)]
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            observation = state.observation(seat)
            sampled = sample_state(observation, rng)
            # Everything but the count of actions so far (the sample has no history) is the same.
            assert sampled.observation(seat)._replace(turn=observation.turn) == observation
            future = [sid for ring in sampled.pizzas[state.pizza + 1 :] for sid in ring]
            assert sorted(future) == unseen_slices(observation)
            for p in range(state.pizza + 1, PIZZAS):
                assert BURNT_IDS[p] in sampled.pizzas[p]
            assert sorted(sid for ring in sampled.pizzas for sid in ring) == list(range(DECK_SIZE))
            state.apply(bots[seat].act(observation))


def test_provisional_totals_agree_with_the_rules_scoring_in_every_position() -> None:
    checked = 0
    for seed in range(120):
        players = 2 + seed % 4
        state = State.new(players, seed, marianne=True)
        bots = [get_bot("random", seed + seat) for seat in range(players)]
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            state.apply(bots[seat].act(state.observation(seat)))
            totals = [s.total for s in state.scores()]
            assert provisional_totals(state.counts, state.olives, state.received) == totals
            checked += 1
    assert checked > 2000


def test_greedy_leaves_the_burnt_slice_to_others() -> None:
    # Portions after the cut (0, 4, 8): four reine, four reine, then four reine with the burnt slice.
    ring = (*REINE[:4], *REINE[4:8], *REINE[8:12], BURNTS[0])
    state = position(3, [ring])
    state.apply(Cut((0, 4, 8)))
    action = GreedyBot().act(state.observation(1))
    assert isinstance(action, Take)
    assert action.portion in (0, 1)


def test_greedy_keeps_a_finisher_and_robs_the_leader_of_its_sort() -> None:
    # Seat 1 keeps two truffes, seat 2 one; seat 0 then takes the truffe finisher.
    ring = (
        TRUFFE[0],
        TRUFFE[1],
        REINE[0],
        REINE[1],
        TRUFFE[2],
        REINE[2],
        REINE[3],
        REINE[4],
        TRUFFE_FINISHER,
        REINE[5],
        REINE[6],
        REINE[7],
        BURNTS[0],
    )
    state = position(3, [ring])
    state.apply(Cut((0, 4, 8)))
    state.apply(Take(0))  # seat 1: two truffes, two reine
    state.apply(Take(1))  # seat 2: one truffe, three reine
    action = GreedyBot().act(state.observation(0))
    assert isinstance(action, Take) and action.portion == 2
    assert TRUFFE_FINISHER not in action.eat
    assert [(s.finisher, s.victim) for s in action.steals] == [(TRUFFE_FINISHER, 1)]


def test_greedy_cuts_so_that_what_others_leave_is_worth_the_most_to_the_chef() -> None:
    for seed in range(4):
        state = State.new(4, seed)
        observation = state.observation(0)
        ranked = rank_cuts(Position.of_observation(observation), observation.ring, 0)
        assert len(ranked) == 715
        assert [v for v, _ in ranked] == sorted((v for v, _ in ranked), reverse=True)
        assert GreedyBot().act(observation) == Cut(ranked[0][1])


def test_a_take_plan_is_never_worse_than_keeping_everything() -> None:
    for seed in range(20):
        state = State.new(4, seed)
        state.apply(GreedyBot().act(state.observation(0)))
        observation = state.observation(1)
        base = Position.of_observation(observation)
        for slices in observation.portions:
            plan = plan_take(base, 1, slices)
            keep_all = base.copy()
            for sid in slices:
                keep_all.counts[1][KIND_OF[sid]] += 1
                keep_all.received[1] += KIND_OF[sid] != BURNT
            assert plan.value >= keep_all.value(1)


@pytest.mark.system
def test_greedy_plays_la_marianne_only_for_a_gain() -> None:
    used = 0
    for seed in range(8):
        bots = [GreedyBot() for _ in range(4)]
        state = State.new(4, seed, marianne=True)
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            action = bots[seat].act(state.observation(seat))
            if action.marianne is None:
                state.apply(action)
                continue
            used += 1
            assert isinstance(action, Take)
            without = state.clone()
            without.apply(Take(action.portion, action.eat, action.steals))
            state.apply(action)
            before = Position(without.counts, without.olives, without.received).value(seat)
            after = Position(state.counts, state.olives, state.received).value(seat)
            assert after >= before + bots[seat].marianne_threshold
    assert used >= 4


def test_search_under_a_time_limit_still_plays_a_searched_legal_action() -> None:
    # A limit of zero seconds stops after the first sampled deal: the answer is still a candidate.
    for seed in range(3):
        state = State.new(4, seed, marianne=True)
        bot = SearchBot(seed, time_limit=0.0)
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            observation = state.observation(seat)
            action = bot.act(observation) if seat == 0 else GreedyBot().act(observation)
            if seat == 0:
                assert action in bot.candidates(observation)
            state.apply(action)
