from __future__ import annotations

import pytest

from games.part_du_chef import Cut, IllegalAction, State, Swap, Take

from .positions import cut, position, take

# 2 margherita of 3 olives, 4 reine, a chili and the burnt slice, then 5 more reine.
RING0 = (8, 9, 17, 18, 19, 20, 57, 60, 21, 22, 23, 24, 25)


def finish_pizza(state: State) -> None:
    if state.phase == "cut":
        state.apply(state.legal_cuts()[0])
    pizza = state.pizza
    while state.pizza == pizza:
        state.apply(Take(state.available_portions()[0]))


def test_it_goes_to_the_first_chef_and_passes_on_to_each_chef_while_unused() -> None:
    state = State.new(3, seed=4, marianne=True)
    holders = []
    while not state.is_over:
        holders.append(state.marianne_holder)
        finish_pizza(state)
    assert holders == [0, 1, 2, 0, 1]
    assert state.marianne_used is False


def test_it_is_not_dealt_without_the_option() -> None:
    state = State.new(3, seed=4)
    assert state.marianne_holder is None
    with pytest.raises(IllegalAction, match="^La Marianne is not in this game$"):
        state.apply(Cut((0, 4, 8), Swap((1, 2), (3, 4))))


def test_a_chef_who_is_not_a_fan_does_not_receive_it_and_its_holder_keeps_it() -> None:
    state = State.new(3, seed=4, marianne=True, marianne_seats=[1])
    assert state.marianne_holder is None
    finish_pizza(state)
    assert state.marianne_holder == 1
    finish_pizza(state)
    finish_pizza(state)
    assert state.marianne_holder == 1  # pizza 3's chef, seat 0, is not a fan


def test_the_chef_swaps_away_the_burnt_slice_just_taken() -> None:
    state = position(2, [RING0], marianne=True)
    cut(state, 0, 6)
    take(state, 0)  # seat 1 keeps 8, 9, 17, 18, 19, 20
    take(state, 1, swap=Swap((60, 57), (8, 9)))  # the chef takes 57, 60, 21..25 and swaps
    assert sorted(state.kept[0]) == [8, 9, 21, 22, 23, 24, 25]
    assert sorted(state.kept[1]) == [17, 18, 19, 20, 57, 60]
    scores = state.scores()
    assert scores[0].burnt == 0 and scores[1].burnt == -3
    assert state.received == [6, 6]  # a swap moves no slice points
    assert state.marianne_used and state.marianne_holder is None
    finish_pizza(state)
    assert state.marianne_holder is None  # used: it has left the game


def test_give_i_goes_to_the_owner_of_take_i() -> None:
    state = position(3, [(8, 9, 17, 18, 19, 20, 57, 60, 21, 22, 23, 24, 25)], marianne=True)
    cut(state, 0, 2, 4)
    take(state, 0)  # seat 1: 8, 9
    take(state, 1)  # seat 2: 17, 18
    take(state, 2, swap=Swap((19, 20), (9, 17)))
    assert sorted(state.kept[1]) == [8, 19]
    assert sorted(state.kept[2]) == [18, 20]
    assert 9 in state.kept[0] and 17 in state.kept[0]


def test_it_can_be_used_with_a_cut_once_its_holder_keeps_slices() -> None:
    state = position(2, [RING0], marianne=True, marianne_seats=[1])
    cut(state, 0, 6)
    take(state, 0)  # seat 1 keeps 8, 9, 17, 18, 19, 20
    take(state, 1)  # seat 0 keeps 57, 60, 21..25
    assert state.marianne_holder == 1 and state.to_act == 1
    state.apply(Cut((0, 6), Swap((8, 9), (60, 21))))
    assert 60 in state.kept[1] and 21 in state.kept[1]
    assert 8 in state.kept[0] and 9 in state.kept[0]


@pytest.mark.parametrize(
    ("swap", "message"),
    [
        (Swap((60, 60), (8, 9)), "La Marianne swaps two distinct slices for two distinct slices"),
        (Swap((60, 57), (8, 8)), "La Marianne swaps two distinct slices for two distinct slices"),
        (Swap((60, 8), (9, 17)), "La Marianne: slice 8 is not among the slices seat 0 keeps"),
        (Swap((60, 57), (21, 8)), "La Marianne: slice 21 is not kept by an opponent"),
        (Swap((60, 57), (8, 40)), "La Marianne: slice 40 is not kept by an opponent"),
        (Swap((60, 99), (8, 9)), "La Marianne names slice 99, which does not exist"),
    ],
)
def test_it_refuses_an_illegal_swap_and_says_why(swap: Swap, message: str) -> None:
    state = position(2, [RING0], marianne=True)
    cut(state, 0, 6)
    take(state, 0)
    with pytest.raises(IllegalAction, match=f"^{message}$"):
        take(state, 1, swap=swap)
    assert not state.marianne_used and state.to_act == 0


def test_only_its_holder_may_use_it_and_only_once() -> None:
    state = position(2, [RING0], marianne=True)
    cut(state, 0, 6)
    with pytest.raises(IllegalAction, match=r"^seat 1 does not hold La Marianne \(seat 0 does\)$"):
        take(state, 0, swap=Swap((8, 9), (57, 60)))
    take(state, 0)
    take(state, 1, swap=Swap((60, 57), (8, 9)))
    with pytest.raises(IllegalAction, match="^La Marianne has already been used and has left the game$"):
        cut(state, 0, 6, swap=Swap((8, 9), (60, 57)))
