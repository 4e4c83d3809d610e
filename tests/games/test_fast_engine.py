"""The engine against the reference engine it replaced: thousands of seeded games, identical records.

`tests/games/reference.py` is the plain implementation that the fast `State` was rewritten from.
Every game here is played on the fast State, then its actions are replayed on the reference, and the
two records (actions, chili sorts, scores, ranks) must be equal; a sample of games also compares every
observation on the way, and every illegal variation of an action must be refused with the same message.
"""

from __future__ import annotations

import random
from typing import Any

from games.part_du_chef import IllegalAction, State, record_of
from games.part_du_chef.actions import Action, Cut, Steal, Take
from games.part_du_chef.bots.random_bot import RandomBot
from games.part_du_chef.play import play_state
from games.part_du_chef.playout import play_random, random_action
from tests.games.reference import IllegalAction as ReferenceRefusal
from tests.games.reference import ReferenceState

GAMES = 3000


def on_reference(state: State) -> ReferenceState:
    reference = ReferenceState.new(
        state.players, state.seed, marianne=state.marianne_enabled, marianne_seats=state.marianne_seats
    )
    for seat, _, action in state.history:
        reference.apply(action, seat)
    return reference


def record(state: State | ReferenceState) -> dict[str, Any]:
    return record_of(state, [f"p{seat}" for seat in range(state.players)])  # type: ignore[arg-type]


def test_random_games_on_the_fast_path_give_the_reference_records() -> None:
    for game in range(GAMES):
        players = 2 + game % 4
        state = play_random(State.new(players, game), random.Random(game))
        assert record(state) == record(on_reference(state)), f"game {game}"


def test_random_bots_with_la_marianne_give_the_reference_records() -> None:
    for game in range(GAMES // 3):
        players = 2 + game % 4
        seats = None if game % 2 else [seat for seat in range(players) if seat % 2]
        state = play_state([RandomBot(game * 8 + seat) for seat in range(players)], game)
        assert record(state) == record(on_reference(state)), f"game {game}"
        marianne = State.new(players, game, marianne=True, marianne_seats=seats)
        bots = [RandomBot(game * 8 + seat) for seat in range(players)]
        while not marianne.is_over:
            seat = marianne.to_act
            assert seat is not None
            marianne.apply(bots[seat].act(marianne.observation(seat)))
        assert record(marianne) == record(on_reference(marianne)), f"game {game} with La Marianne"


def test_every_observation_along_the_way_is_the_reference_one() -> None:
    for game in range(200):
        players = 2 + game % 4
        fast = State.new(players, game, marianne=game % 2 == 0)
        reference = ReferenceState.new(players, game, marianne=game % 2 == 0)
        bots = [RandomBot(game * 8 + seat) for seat in range(players)]
        while not fast.is_over:
            for seat in range(players):
                assert fast.observation(seat) == reference.observation(seat)
            assert fast.scores() == reference.scores()
            assert fast.results() == reference.results()
            seat = fast.to_act
            assert seat is not None
            action = bots[seat].act(fast.observation(seat))
            fast.apply(action)
            reference.apply(action)
        assert fast.observation(0) == reference.observation(0)
        assert fast.ranks() == reference.ranks()


def variations(action: Action, rng: random.Random) -> list[Action]:
    """Nearby actions, most of them illegal: wrong portion, eating what cannot be eaten, odd steals."""
    if isinstance(action, Cut):
        cuts = action.cuts
        return [Cut(cuts[:-1]), Cut((*cuts[:-1], cuts[-2])), Cut((*cuts[:-1], 13)), Cut(tuple(reversed(cuts)))]
    some = rng.randrange(65)
    portion, eat, steals = action.portion, action.eat, action.steals
    found: list[Action] = [
        Take(portion + 1, eat, steals),
        Take(-1, eat, steals),
        Take(portion, (*eat, some), steals),
        Take(portion, eat + eat[:1], steals),
        Take(portion, eat, (*steals, Steal(some, rng.randrange(6), rng.randrange(66)))),
        Cut((0, 1)),
    ]
    if steals:
        first = steals[0]
        found.append(Take(portion, eat, (first, first)))
        found.append(Take(portion, eat, (Steal(first.finisher, (first.victim + 1) % 5, first.slice),)))
        found.append(Take(portion, (first.finisher,), steals))
    return found


def outcome(state: State | ReferenceState, action: Action) -> str:
    try:
        state.apply(action)
    except (IllegalAction, ReferenceRefusal) as e:
        return f"illegal: {e}"
    return "legal"


def test_illegal_variations_are_refused_with_the_reference_messages() -> None:
    rng = random.Random(5)
    for game in range(150):
        players = 2 + game % 4
        fast = State.new(players, game)
        reference = ReferenceState.new(players, game)
        policy = random.Random(game)
        while not fast.is_over:
            action = random_action(fast, policy)
            for variation in variations(action, rng):
                assert outcome(fast.clone(), variation) == outcome(reference.clone(), variation), variation
            fast.apply(action)
            reference.apply(action)


def test_a_take_keeping_everything_and_one_eating_are_both_exact() -> None:
    # The two ways the fast State applies a take: with nothing eaten, and with something eaten.
    for eat_first in (False, True):
        state = State.new(2, 11)
        state.apply(Cut((0, 6)))
        portion = state.portions[1]
        edible = [sid for sid in portion if sid not in (57, 58, 59) and sid < 60]
        state.apply(Take(1, tuple(edible[:1]) if eat_first else ()))
        reference = on_reference(state)
        assert state.kept == reference.kept and state.eaten == reference.eaten
        assert state.counts == reference.counts and state.owner == reference.owner
