"""Placings: a forfeiter below every seat that did not forfeit, the game's totals deciding the rest."""

from __future__ import annotations

import doctest

import pytest

from games.part_du_chef import placing
from games.part_du_chef.placing import placings, record_verdict


def test_the_documented_examples_hold() -> None:
    result = doctest.testmod(placing)
    assert result.attempted >= 2 and result.failed == 0


def test_a_forfeiter_with_the_best_total_is_placed_below_every_seat_that_did_not_forfeit() -> None:
    assert placings([90, 40, 60], [True, False, False]) == (3, 2, 1)


def test_forfeiters_are_placed_among_themselves_by_their_totals() -> None:
    assert placings([10, 50, 30, 20], [True, False, True, False]) == (4, 1, 3, 2)


def test_the_verdict_names_the_forfeiters_and_who_decided_each_action() -> None:
    verdict = record_verdict([5, 7], [False, True], [False, False, True], 3)
    assert verdict == {"placings": [1, 2], "forfeited": [1], "decided_by": ["player", "player", "stand-in"]}


def test_mismatched_lengths_are_refused_with_their_counts() -> None:
    with pytest.raises(ValueError, match="2 totals for 3 forfeit flags"):
        placings([1, 2], [False, False, False])
    with pytest.raises(ValueError, match="1 stand-in flags for 2 actions"):
        record_verdict([1, 2], [False, False], [True], 2)
