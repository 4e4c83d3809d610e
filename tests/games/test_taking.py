from __future__ import annotations

import pytest

from games.part_du_chef import IllegalAction, State, Take

from .positions import BURNTS, CHILIS, MARGHERITA_3, REINE, cut, position, take

# 2 margherita of 3 olives, 4 reine, a chili and the burnt slice, then 5 more reine.
RING0 = (8, 9, 17, 18, 19, 20, 57, 60, 21, 22, 23, 24, 25)


def test_the_players_left_of_the_chef_take_first_and_the_chef_takes_last() -> None:
    state = State.new(4, seed=3)
    state.apply(state.legal_cuts()[0])
    order = []
    while state.phase == "take" and state.pizza == 0:
        order.append(state.to_act)
        state.apply(Take(state.available_portions()[-1]))
    assert order == [1, 2, 3, 0]
    state.apply(state.legal_cuts()[0])
    assert state.to_act == 2  # pizza 2: chef is seat 1, seat 2 is on its left


def test_it_refuses_a_portion_already_taken() -> None:
    state = position(3, [RING0])
    cut(state, 0, 4, 8)
    take(state, 1)
    with pytest.raises(IllegalAction, match="^portion 1 is already taken by seat 1$"):
        take(state, 1)
    with pytest.raises(IllegalAction, match="there is no portion 3: portions are 0 to 2"):
        take(state, 3)


def test_it_refuses_an_action_out_of_turn() -> None:
    state = position(3, [RING0])
    with pytest.raises(IllegalAction, match="^it is seat 0's turn, not seat 2's$"):
        state.apply(state.legal_cuts()[0], seat=2)
    cut(state, 0, 4, 8)
    with pytest.raises(IllegalAction, match="^it is seat 1's turn, not seat 0's$"):
        state.apply(Take(0), seat=0)
    state.apply(Take(0), seat=1)
    assert state.to_act == 2


def test_it_refuses_eating_a_chili() -> None:
    state = position(2, [RING0])
    cut(state, 0, 6)
    with pytest.raises(IllegalAction, match=f"^slice {CHILIS[0]} is a chili: a chili cannot be eaten$"):
        take(state, 1, eat=[CHILIS[0]])
    assert state.kept == [(), ()] and state.to_act == 1


def test_it_refuses_eating_a_burnt_slice() -> None:
    state = position(2, [RING0])
    cut(state, 0, 6)
    with pytest.raises(IllegalAction, match=f"^slice {BURNTS[0]} is burnt: a burnt slice cannot be eaten$"):
        take(state, 1, eat=[BURNTS[0]])


def test_it_refuses_eating_a_slice_from_another_portion_or_twice() -> None:
    state = position(2, [RING0])
    cut(state, 0, 6)
    with pytest.raises(IllegalAction, match="^slice 8 is not in portion 1$"):
        take(state, 1, eat=[8])
    with pytest.raises(IllegalAction, match="^a slice is listed twice in eat$"):
        take(state, 0, eat=[8, 8])


def test_eaten_slices_score_their_olives_now_and_every_slice_but_the_burnt_one_scores_a_point() -> None:
    state = position(2, [RING0])
    cut(state, 0, 6)
    take(state, 0, eat=[MARGHERITA_3[0], REINE[0]])  # 8 (3 olives), 17 (2 olives); keeps 9, 18, 19, 20
    take(state, 1)  # the chef keeps 57 (chili), 60 (burnt), 21..25
    assert state.olives == [0, 5]
    assert state.eaten == [(), (8, 17)]
    assert sorted(state.kept[1]) == [9, 18, 19, 20]
    assert state.received == [6, 6]  # seat 0 got 7 slices, the burnt one scores no point


def test_the_game_is_over_after_five_pizzas_and_refuses_more_actions() -> None:
    state = State.new(2, seed=9)
    while not state.is_over:
        action = state.legal_cuts()[0] if state.phase == "cut" else Take(state.available_portions()[0])
        state.apply(action)
    assert state.to_act is None and state.phase == "over" and state.turn == 15
    with pytest.raises(IllegalAction, match="^the game is over$"):
        state.apply(Take(0))
    assert sorted(s for seat in range(2) for s in state.kept[seat] + state.eaten[seat]) == list(range(65))
