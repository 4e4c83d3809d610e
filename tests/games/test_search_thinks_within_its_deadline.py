"""A built-in search bot given a deadline thinks within the time it has: each decision takes at most an even
share of what is left; with time to spare its playout budget binds first and it stays deterministic."""

from __future__ import annotations

import time
from typing import Any

import pytest

from games.part_du_chef import State
from games.part_du_chef.bots import search
from games.part_du_chef.bots.search import SearchBot
from games.part_du_chef.play import play_state
from games.part_du_chef.playout import play_policies as real_playout


def _record(bots: list[SearchBot], seed: int) -> dict[str, object]:
    return play_state(bots, seed, marianne=True).to_record([f"search-{seat}" for seat in range(len(bots))])


def test_a_search_bot_with_time_to_spare_plays_exactly_as_without_a_deadline() -> None:
    def bots(deadline: float | None) -> list[SearchBot]:
        made = [SearchBot(seat + 3, playouts=4) for seat in range(3)]
        for bot in made:
            bot.deadline = deadline
        return made

    assert _record(bots(time.monotonic() + 3600), 41) == _record(bots(None), 41)


def test_a_search_bot_past_its_deadline_answers_greedys_choice_without_searching() -> None:
    late = [SearchBot(seat, playouts=48) for seat in range(3)]
    for bot in late:
        bot.deadline = time.monotonic() - 1
    state = State.new(3, 5)
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        observation = state.observation(seat)
        action = late[seat].act(observation)
        assert action == late[seat].candidates(observation)[0]  # greedy's choice comes first
        state.apply(action)


def test_a_search_bot_short_of_time_stops_after_its_first_sampled_deal_and_still_answers_a_candidate() -> None:
    # A deadline a moment away leaves each decision almost nothing: it plays as a zero time limit does.
    short = SearchBot(1, playouts=48)
    hurried = SearchBot(1, playouts=48, time_limit=0.0)
    state = State.new(3, 5)
    state.apply(hurried.act(state.observation(0)))
    observation = state.observation(1)
    short.deadline = time.monotonic() + 0.001
    action = short.act(observation)
    assert action in short.candidates(observation)


class _PlayoutClock:
    """The search's clock, advanced by each playout it plays (1 ms each) and by nothing else: the test
    measures the search's own arithmetic of time, the same on an idle machine and a starved one."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now

    def perf_counter(self) -> float:
        return self.now


def test_a_game_of_search_bots_given_a_tight_deadline_ends_within_it(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = _PlayoutClock()

    def playout(*args: Any, **kwargs: Any) -> None:
        clock.now += 0.001
        real_playout(*args, **kwargs)

    monkeypatch.setattr(search, "time", clock)
    monkeypatch.setattr(search, "play_policies", playout)
    # The least a game of decisions with a little time each can take (one sampled deal per candidate).
    hurried = [SearchBot(seat, playouts=400, time_limit=0.0) for seat in range(4)]
    began = clock.now
    play_state(hurried, 7)
    least = clock.now - began

    # Four strong searches (400 playouts a candidate: many seconds of thinking a game), given half a second.
    strong = [SearchBot(seat, playouts=400) for seat in range(4)]
    unbounded = SearchBot(0, playouts=400)
    deadline = clock.now + 0.5
    for bot in strong:
        bot.deadline = deadline
    state = play_state(strong, 7)
    ended = clock.now

    assert state.is_over
    # Each decision took its share of the time left or, where that was less, the least a decision takes
    # (the games differ in their choices, so a little more than the hurried game's least).
    assert ended <= deadline + 1.5 * least, f"ended {ended - deadline:.3f} s past a deadline (least: {least:.3f} s)"
    # Without the deadline the same bots think far longer: the deadline is what bound them.
    began = clock.now
    unbounded.act(State.new(4, 7).observation(0))
    assert clock.now - began > 0.5
