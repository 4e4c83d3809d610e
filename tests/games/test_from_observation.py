from __future__ import annotations

import pytest

from games.part_du_chef import State
from games.part_du_chef.bots import get_bot


def midgame(players: int, seed: int, actions: int) -> State:
    bots = [get_bot("random", seed + seat) for seat in range(players)]
    state = State.new(players, seed, marianne=True)
    for _ in range(actions):
        seat = state.to_act
        assert seat is not None
        state.apply(bots[seat].act(state.observation(seat)))
    return state


@pytest.mark.parametrize(("players", "actions"), [(2, 4), (3, 9), (4, 13), (5, 22)])
def test_a_state_rebuilt_from_an_observation_and_the_true_pizzas_plays_on_like_the_game(
    players: int, actions: int
) -> None:
    state = midgame(players, seed=players * 7, actions=actions)
    seat = state.to_act
    assert seat is not None
    rebuilt = State.from_observation(state.observation(seat), state.pizzas)
    assert rebuilt.observation(seat)._replace(turn=state.turn) == state.observation(seat)
    bots = [get_bot("random", 99 + s) for s in range(players)]
    twins = [get_bot("random", 99 + s) for s in range(players)]
    while not state.is_over:
        mover = state.to_act
        assert mover is not None and rebuilt.to_act == mover
        state.apply(bots[mover].act(state.observation(mover)))
        rebuilt.apply(twins[mover].act(rebuilt.observation(mover)))
    assert rebuilt.scores() == state.scores()


def test_it_refuses_pizzas_that_disagree_with_the_observation() -> None:
    state = midgame(3, seed=5, actions=6)
    seat = state.to_act
    assert seat is not None
    observation = state.observation(seat)
    shuffled = (state.pizzas[0],) + (state.pizzas[1][::-1],) + state.pizzas[2:]
    with pytest.raises(ValueError, match="is not the ring the seat sees"):
        State.from_observation(observation, shuffled)
    swapped = (state.pizzas[2],) + (state.pizzas[1],) + (state.pizzas[0],) + state.pizzas[3:]
    with pytest.raises(ValueError, match="do not hold the slices the players have"):
        State.from_observation(observation, swapped)
