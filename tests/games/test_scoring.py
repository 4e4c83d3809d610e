from __future__ import annotations

from games.part_du_chef.scoring import assign_chilis, final_scores, ranks_of

#          M  R  Q  V  T  chili burnt
NOTHING = [0, 0, 0, 0, 0, 0, 0]


def score(kept: list[list[int]], chilis: list[list[int]] | None = None) -> list[dict[str, int]]:
    players = len(kept)
    chilis = chilis or [[] for _ in range(players)]
    scores, _ = final_scores(kept, chilis, [0] * players, [0] * players)
    return [s.to_json() for s in scores]


def test_every_player_tied_for_the_most_slices_of_a_sort_scores_its_value() -> None:
    scores = score([[0, 2, 0, 0, 0, 0, 0], [0, 2, 0, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0, 0]])
    assert [s["majority"] for s in scores] == [5, 5, 0]


def test_a_sort_nobody_kept_scores_nothing() -> None:
    scores = score([NOTHING, NOTHING, [0, 0, 0, 0, 1, 0, 0]])
    assert [s["majority"] for s in scores] == [0, 0, 11]
    assert [s["total"] for s in score([NOTHING, NOTHING])] == [0, 0]


def test_each_sort_has_its_majority_value() -> None:
    scores = score([[1, 1, 1, 1, 1, 0, 0], NOTHING])
    assert scores[0]["majority"] == 3 + 5 + 7 + 9 + 11


def test_the_variety_bonus_is_five_times_the_smallest_kept_count() -> None:
    scores = score([[2, 3, 2, 4, 2, 0, 0], [5, 0, 5, 5, 5, 0, 0]])
    assert [s["variety"] for s in scores] == [10, 0]


def test_each_burnt_slice_held_at_the_end_costs_three_points() -> None:
    scores = score([[0, 0, 0, 0, 0, 0, 2], [0, 0, 0, 0, 0, 0, 1]])
    assert [s["burnt"] for s in scores] == [-6, -3]
    assert [s["total"] for s in scores] == [-6, -3]


def test_the_total_is_majority_plus_olives_plus_slices_plus_variety_plus_burnt() -> None:
    kept = [[1, 1, 1, 1, 1, 0, 1], [0, 0, 0, 0, 0, 0, 0]]
    scores, _ = final_scores(kept, [[], []], [7, 2], [9, 4])
    first = scores[0]
    assert (first.majority, first.olives, first.slices, first.variety, first.burnt) == (35, 7, 9, 5, -3)
    assert first.total == 35 + 7 + 9 + 5 - 3
    assert scores[1].total == 6


def test_equal_totals_share_a_rank() -> None:
    assert ranks_of([10, 20, 20, 5]) == (3, 1, 1, 4)
    assert ranks_of([7, 7]) == (1, 1)


def test_a_lone_chili_goes_to_the_most_valuable_free_majority() -> None:
    chilis = assign_chilis([[0, 0, 0, 0, 0, 1, 0], NOTHING], [[57], []])
    assert [(c.seat, c.slice, c.sort) for c in chilis] == [(0, 57, 4)]  # truffe, 11 points


def test_a_chili_that_gains_nothing_takes_the_first_sort_of_the_tie_break_order() -> None:
    strong = [3, 3, 3, 3, 3, 0, 0]
    chilis = assign_chilis([[0, 0, 0, 0, 0, 2, 0], strong], [[58, 57], []])
    # Every multiset gains nothing; the first in combinations_with_replacement order is (margherita, margherita).
    assert [(c.slice, c.sort) for c in chilis] == [(57, 0), (58, 0)]


def test_a_chili_fills_the_missing_sort_for_the_variety_bonus() -> None:
    kept = [[1, 1, 1, 1, 0, 1, 0], [3, 3, 3, 3, 3, 0, 0]]
    chilis = assign_chilis(kept, [[59], []])
    assert [c.sort for c in chilis] == [4]
    scores, _ = final_scores(kept, [[59], []], [0, 0], [0, 0])
    assert scores[0].variety == 5 and scores[0].majority == 0


def test_chilis_are_assigned_seat_by_seat_counting_only_earlier_assignments() -> None:
    # Seat 0 (one chili) goes first and ignores seat 1's chili: truffe ties seat 1's truffe, 11 points.
    # Seat 1 then counts seat 0's truffe: adding truffe keeps 11, vegetarienne adds 9 beside the tie.
    kept = [[0, 0, 0, 0, 0, 1, 0], [0, 0, 0, 0, 1, 1, 0]]
    chilis = assign_chilis(kept, [[57], [58]])
    assert [(c.seat, c.sort) for c in chilis] == [(0, 4), (1, 3)]
    scores, _ = final_scores(kept, [[57], [58]], [0, 0], [0, 0])
    assert [s.majority for s in scores] == [11, 20]


def test_two_chilis_of_one_holder_are_assigned_together_to_the_best_multiset() -> None:
    # Holder has one of each sort but truffe and vegetarienne; the opponent has two of each.
    kept = [[1, 1, 1, 0, 0, 2, 0], [2, 2, 2, 2, 2, 0, 0]]
    chilis = assign_chilis(kept, [[57, 58], []])
    # One chili each on reine and quatre_fromages ties both majorities (5 + 7 = 12); truffe twice ties one
    # (11), vegetarienne twice 9, and (vegetarienne, truffe) only fills the variety bonus (5).
    assert [c.sort for c in chilis] == [1, 2]
