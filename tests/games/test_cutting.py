from __future__ import annotations

import pytest

from games.part_du_chef import Cut, IllegalAction, State, Take

from .positions import cut, position

RING0 = tuple(range(1, 13)) + (60,)


def test_the_chef_of_pizza_p_is_seat_p_modulo_the_players() -> None:
    state = State.new(3, seed=1)
    chefs = []
    while not state.is_over:
        chefs.append(state.chef)
        state.apply(Cut((0, 4, 8)))
        for _ in range(3):
            state.apply(Take(state.available_portions()[0]))
    assert chefs == [0, 1, 2, 0, 1]


def test_portion_i_runs_from_cut_i_to_the_slice_before_the_next_cut() -> None:
    state = position(3, [RING0])
    cut(state, 2, 5, 11)
    assert state.portions == ((3, 4, 5), (6, 7, 8, 9, 10, 11), (12, 60, 1, 2))


def test_the_last_portion_wraps_round_past_position_12() -> None:
    state = position(2, [RING0])
    cut(state, 0, 12)
    assert state.portions == (RING0[:12], (60,))


def test_every_cut_makes_as_many_non_empty_portions_as_players() -> None:
    for players in range(2, 6):
        state = State.new(players, seed=players)
        cuts = state.legal_cuts()
        assert len(cuts) == {2: 78, 3: 286, 4: 715, 5: 1287}[players]
        assert cuts == sorted(cuts, key=lambda c: c.cuts)
        for action in cuts[:: max(1, len(cuts) // 40)]:
            trial = state.clone()
            trial.apply(action)
            assert len(trial.portions) == players
            assert all(trial.portions)
            assert sorted(s for p in trial.portions for s in p) == sorted(state.ring)


@pytest.mark.parametrize(
    ("points", "message"),
    [
        ((0, 4), "a cut for 3 players has 3 cut points, not 2"),
        ((0, 4, 8, 9), "a cut for 3 players has 3 cut points, not 4"),
        ((0, 4, 13), "cut point 13 is not a position between 0 and 12"),
        ((-1, 4, 8), "cut point -1 is not a position between 0 and 12"),
        ((4, 4, 8), "cut points must be distinct and listed in ascending order"),
        ((8, 4, 0), "cut points must be distinct and listed in ascending order"),
    ],
)
def test_it_refuses_a_malformed_cut_and_says_why(points: tuple[int, ...], message: str) -> None:
    state = State.new(3, seed=5)
    with pytest.raises(IllegalAction, match=f"^{message}$"):
        state.apply(Cut(points))
    assert state.phase == "cut" and state.turn == 0


def test_it_refuses_a_take_before_the_pizza_is_cut() -> None:
    state = State.new(2, seed=5)
    with pytest.raises(IllegalAction, match="seat 0 must cut pizza 1 before anyone takes"):
        state.apply(Take(0))


def test_it_refuses_a_second_cut_of_the_same_pizza() -> None:
    state = State.new(2, seed=5)
    state.apply(Cut((0, 6)))
    with pytest.raises(IllegalAction, match="pizza 1 is already cut: seat 1 must take a portion"):
        state.apply(Cut((1, 7)))
