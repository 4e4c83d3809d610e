"""Properties that hold in every game: random games drawn by hypothesis, played by the random bot."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from games.part_du_chef import State, replay
from games.part_du_chef.bots import get_bot
from games.part_du_chef.deck import DECK_SIZE, KIND_OF, PIZZAS, RING

games = st.tuples(
    st.integers(min_value=2, max_value=5),
    st.integers(min_value=0, max_value=2**63 - 1),
    st.booleans(),
    st.integers(min_value=0, max_value=10**6),
)


def play(players: int, seed: int, marianne: bool, bot_seed: int) -> tuple[State, list[State]]:
    bots = [get_bot("random", bot_seed + i) for i in range(players)]
    state = State.new(players, seed, marianne=marianne)
    states = [state.clone()]
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        state.apply(bots[seat].act(state.observation(seat)))
        states.append(state.clone())
    return state, states


@settings(max_examples=150, deadline=None)
@given(games)
def test_slices_are_conserved_at_every_step(game: tuple[int, int, bool, int]) -> None:
    _, states = play(*game)
    for state in states:
        held = [sid for seat in range(state.players) for sid in state.kept[seat] + state.eaten[seat]]
        assert len(held) == len(set(held))
        taken = sum(len(state.portions[i]) for i, who in enumerate(state.taken_by) if who is not None)
        assert len(held) == min(state.pizza, PIZZAS) * RING + taken
        for seat in range(state.players):
            assert all(state.owner[sid] == seat for sid in state.kept[seat])
            counts = [0] * 7
            for sid in state.kept[seat]:
                counts[KIND_OF[sid]] += 1
            assert counts == state.counts[seat]
    final = states[-1]
    everything = sorted(sid for seat in range(final.players) for sid in final.kept[seat] + final.eaten[seat])
    assert everything == list(range(DECK_SIZE))
    assert sum(final.received) == DECK_SIZE - PIZZAS  # every slice but the five burnt ones scores its point once


@settings(max_examples=150, deadline=None)
@given(games)
def test_the_breakdown_sums_to_the_total(game: tuple[int, int, bool, int]) -> None:
    state, _ = play(*game)
    for s in state.scores():
        assert s.total == s.majority + s.olives + s.slices + s.variety + s.burnt
        assert s.variety % 5 == 0 and s.burnt % -3 == 0 and s.burnt <= 0


@settings(max_examples=100, deadline=None)
@given(games)
def test_replaying_the_record_reproduces_the_state_and_scores(game: tuple[int, int, bool, int]) -> None:
    state, _ = play(*game)
    record = json.loads(json.dumps(state.to_record([f"p{i}" for i in range(state.players)])))
    again = replay(record)
    assert again.kept == state.kept and again.eaten == state.eaten and again.owner == state.owner
    assert again.scores() == state.scores() and again.ranks() == state.ranks()
    assert again.history == state.history


@settings(max_examples=100, deadline=None)
@given(games, st.randoms(use_true_random=False))
def test_no_observation_reveals_a_future_pizza(game: tuple[int, int, bool, int], rng: object) -> None:
    """Two games that differ only in the pizzas still to come look the same to every seat."""
    state, states = play(*game)
    for before in states[:: max(1, len(states) // 6)]:
        if before.is_over:
            continue
        future = [sid for ring in before.pizzas[before.pizza + 1 :] for sid in ring if KIND_OF[sid] != 6]
        shuffled = list(future)
        rng.shuffle(shuffled)  # type: ignore[attr-defined]
        refill = iter(shuffled)
        pizzas = tuple(
            ring if p <= before.pizza else tuple(sid if KIND_OF[sid] == 6 else next(refill) for sid in ring)
            for p, ring in enumerate(before.pizzas)
        )
        twin = State.new(before.players, before.seed, marianne=before.marianne_enabled, pizzas=pizzas)
        for _, _, action in before.history:
            twin.apply(action)
        for seat in range(before.players):
            assert twin.observation(seat) == before.observation(seat)
            assert twin.observation(seat).to_json() == before.observation(seat).to_json()
        seen = set(before.ring) | {s for seat in range(before.players) for s in before.kept[seat] + before.eaten[seat]}
        as_text = json.dumps(before.observation(0).to_json())
        assert all(f'"id": {sid},' not in as_text for sid in future if sid not in seen)
