"""The random bots' draws are keyed by the decision: a duplicate deal's two games share them even once they diverge."""

from __future__ import annotations

import random
import statistics

from games.part_du_chef import State
from games.part_du_chef.bots import get_bot
from games.part_du_chef.bots.draws import KeyedDraws
from games.part_du_chef.bots.noisy import NoisyGreedyBot
from games.part_du_chef.bots.random_bot import RandomBot, decision_key
from games.part_du_chef.play import play_state


def test_a_random_bots_decision_is_the_same_whatever_it_drew_before() -> None:
    state = State.new(3, 11)
    observation = state.observation(state.to_act)
    fresh = RandomBot(42)
    fresh.decisions = 4
    # The same bot after four decisions of another game, each drawing its own count of numbers.
    busy = RandomBot(42)
    other = State.new(3, 99)
    for _ in range(4):
        other.apply(busy.act(other.observation(other.to_act)))
    assert busy.decisions == 4
    assert busy.act(observation) == fresh.act(observation)
    # And another decision number draws otherwise: the key is the decision, not the bot alone.
    moves = {repr(RandomBot(42).act_as(observation, decision)) for decision in range(20)}
    assert len(moves) > 10


def test_two_noisy_versions_seeded_alike_play_the_same_game_when_no_draw_falls_between_their_shares() -> None:
    # Over many seeds, a game of noisy-greedy-10 and one of noisy-greedy-20 in its place are identical
    # about as often as no decision of that seat draws a number in [0.10, 0.20): common random numbers.
    identical = 0
    games = 40
    for seed in range(games):
        histories = []
        for share in (0.10, 0.20):
            bots = [NoisyGreedyBot(share, seed * 8), get_bot("greedy", seed * 8 + 1), get_bot("random", seed * 8 + 2)]
            histories.append(play_state(bots, seed).history)
        identical += histories[0] == histories[1]
    # Seat 0 decides 5 to 7 times a game at three players: 0.9 ** 7 to 0.9 ** 5, about half the games,
    # stay identical; where they part, it is at a decision whose number fell between the shares.
    assert 0.3 * games <= identical <= 0.8 * games


def test_where_both_versions_play_at_random_they_play_the_same_random_move() -> None:
    state = State.new(3, 5)
    observation = state.observation(state.to_act)
    both_random = 0
    for seed in range(200):
        low, high = NoisyGreedyBot(0.3, seed), NoisyGreedyBot(0.6, seed)
        if KeyedDraws(decision_key(seed, 0)).random() < 0.3:  # both play the random bot's move first
            both_random += 1
            assert low.act(observation) == high.act(observation)
    assert 40 <= both_random <= 80  # about 30% of 200


def test_keyed_draws_are_uniform_and_independent_from_one_key_to_the_next() -> None:
    draws = [KeyedDraws(key).random() for key in range(20_000)]
    assert abs(statistics.fmean(draws) - 0.5) < 0.01
    assert abs(statistics.pvariance(draws) - 1 / 12) < 0.003
    # Neighbouring keys: no correlation between the first draws of key k and key k + 1.
    pairs = list(zip(draws, draws[1:], strict=False))
    assert abs(statistics.correlation([a for a, _ in pairs], [b for _, b in pairs])) < 0.03
    # Bits and samples come from the same stream, through random.Random's own methods.
    sample = KeyedDraws(3).sample(range(10), 4)
    assert len(set(sample)) == 4 and all(0 <= s < 10 for s in sample)
    rng = random.Random(0)
    for _ in range(100):
        k = rng.randrange(1, 200)
        assert 0 <= KeyedDraws(rng.getrandbits(64)).getrandbits(k) < 1 << k
