from __future__ import annotations

import pytest

from games.part_du_chef import IllegalAction, State

from .positions import MARGHERITA_FINISHER, REINE_FINISHER, cut, position, take

# Pizza 1 (chef seat 0): seat 1 takes margherita 1 and 2, seat 2 margherita 3 and reine 17, the chef the rest.
PIZZA_1 = (1, 2, 3, 17, 18, 19, 31, 32, 42, 43, 51, 57, 60)
# Pizza 2 (chef seat 1): portion 0 holds both the margherita and the reine double finishers.
PIZZA_2 = (MARGHERITA_FINISHER, REINE_FINISHER, 4, 5, 20, 21, 22, 23, 24, 25, 26, 27, 61)


def after_first_pizza() -> State:
    state = position(3, [PIZZA_1, PIZZA_2])
    cut(state, 0, 2, 4)
    take(state, 0)  # seat 1: 1, 2
    take(state, 1)  # seat 2: 3, 17
    take(state, 2)  # seat 0: 18, 19, 31, 32, 42, 43, 51, 57, 60
    cut(state, 0, 2, 4)
    assert state.to_act == 2
    return state


def test_two_finishers_steal_from_two_different_victims() -> None:
    state = after_first_pizza()
    take(state, 0, steals=[(MARGHERITA_FINISHER, 1, 1), (REINE_FINISHER, 0, 18)])
    assert sorted(state.kept[2]) == [0, 1, 3, 16, 17, 18]
    assert state.kept[1] == (2,)
    assert 18 not in state.kept[0] and 19 in state.kept[0]
    assert state.owner[1] == 2 and state.owner[18] == 2


def test_stealing_moves_no_slice_points() -> None:
    state = after_first_pizza()
    before = list(state.received)
    take(state, 0, steals=[(MARGHERITA_FINISHER, 1, 1)])
    assert state.received == [before[0], before[1], before[2] + 2]


def test_a_steal_is_optional() -> None:
    state = after_first_pizza()
    take(state, 0)
    assert sorted(state.kept[2]) == [0, 3, 16, 17]
    assert state.kept[1] == (1, 2)


@pytest.mark.parametrize(
    ("eat", "steals", "message"),
    [
        ([MARGHERITA_FINISHER], [(MARGHERITA_FINISHER, 1, 1)], "finisher 0 is eaten: only a kept finisher steals"),
        ([], [(MARGHERITA_FINISHER, 1, 1), (MARGHERITA_FINISHER, 1, 2)], "finisher 0 steals only once"),
        ([], [(MARGHERITA_FINISHER, 2, 3)], "a finisher steals from an opponent, not from its taker"),
        ([], [(MARGHERITA_FINISHER, 0, 1)], "seat 0 does not keep slice 1"),
        ([], [(MARGHERITA_FINISHER, 0, 18)], "finisher 0 steals margherita, and slice 18 is reine"),
        ([], [(MARGHERITA_FINISHER, 7, 1)], "there is no seat 7 to steal from"),
        ([], [(4, 1, 1)], "slice 4 is not a double finisher in portion 0"),
        ([], [(41, 0, 42)], "slice 41 is not a double finisher in portion 0"),
    ],
)
def test_it_refuses_an_illegal_steal_and_says_why(
    eat: list[int], steals: list[tuple[int, int, int]], message: str
) -> None:
    state = after_first_pizza()
    with pytest.raises(IllegalAction, match=f"^{message}$"):
        take(state, 0, eat=eat, steals=steals)
    assert state.kept[1] == (1, 2) and state.to_act == 2


def test_steal_options_list_every_kept_slice_of_the_sort_held_by_opponents() -> None:
    state = after_first_pizza()
    assert state.steal_options(2, MARGHERITA_FINISHER) == [(1, 1), (1, 2)]
    assert state.steal_options(2, REINE_FINISHER) == [(0, 18), (0, 19)]
