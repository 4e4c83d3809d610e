"""The pages tell the rules' and the table's refusals by their code and parameters, never by reading the
English: every code the rules can raise has its words in French and Norwegian, and every refusal that
illegal and malformed actions draw from the rules carries a known code whose template is its message."""

from __future__ import annotations

import random
import string
from typing import Any

import pytest
from django.utils import translation

from arena.errors import MESSAGES as TABLE_MESSAGES
from arena.errors import GameOver, NotSeated, PlayError, StaleTurn
from games.part_du_chef import Cut, State, Steal, Swap, Take, action_from_json
from games.part_du_chef.errors import ILLEGAL_ACTION, INVALID_ACTION, MESSAGES, IllegalAction, InvalidAction
from games.part_du_chef.playout import random_action
from web import sentences

# The refusals of the table (play/engine.py) that a seated person's decision can meet.
TABLE_CODES = ("not_seated", "game_over", "turn_not_integer", "turn_played", "turn_not_come", "seat_left")
WHO = sentences.Seats(["ann", "ben", "cat"], viewer=0)


def _sample_params(template: str) -> dict[str, str | int]:
    """A value for each field the template names (1: a seat, a slice, a portion and a pizza alike)."""
    return {field: 1 for _, field, _, _ in string.Formatter().parse(template) if field}


def _every_code() -> list[tuple[str, Any]]:
    rules = [(code, IllegalAction(code, **_sample_params(ILLEGAL_ACTION[code]))) for code in ILLEGAL_ACTION]
    rules += [(code, InvalidAction(code, **_sample_params(INVALID_ACTION[code]))) for code in INVALID_ACTION]
    table = [(code, PlayError.coded(code, **_sample_params(TABLE_MESSAGES[code]))) for code in TABLE_CODES]
    return rules + table


@pytest.mark.parametrize(("code", "refused"), _every_code(), ids=lambda value: value if isinstance(value, str) else "")
@pytest.mark.parametrize("language", ["fr", "nb"])
def test_every_code_the_rules_and_the_table_raise_is_told_in_french_and_norwegian(
    code: str, refused: Any, language: str
) -> None:
    assert code in sentences.TOLD_CODES
    with translation.override("en"):
        english = sentences.refusal(refused, WHO)
        fallback = sentences.refusal(PlayError("x", code="no such code"), WHO).message.removesuffix("x")
    with translation.override(language):
        told = sentences.refusal(refused, WHO)
    assert not english.message.startswith(fallback)
    assert told.message != english.message, f"{code} is not translated into {language}"
    assert told.field == english.field


def test_the_table_classes_default_codes_are_told_too() -> None:
    for refused in (GameOver("over"), StaleTurn("taken"), NotSeated("no seat")):
        assert refused.code in sentences.TOLD_CODES


def test_a_reworded_message_is_still_told_in_the_players_words() -> None:
    # The English text plays no part: the same code and parameters under other words say the same.
    refused = IllegalAction("portion_taken", portion=2, taker=1)
    refused.args = ("portion 2 is gone (seat 1 has it)",)
    with translation.override("fr"):
        told = sentences.refusal(refused, WHO)
    assert told == sentences.Refusal("La portion 3 est déjà prise par ben.", "portion")


def _variations(state: State, action: Cut | Take, rng: random.Random) -> list[object]:
    """Illegal neighbours of a legal action, and malformed JSON shapes of it."""
    if isinstance(action, Cut):
        cuts = action.cuts
        found: list[object] = [Cut(cuts[:-1]), Cut((*cuts[:-1], cuts[-2])), Cut((*cuts[:-1], 13)), Cut(cuts[::-1])]
        found += [Cut(cuts, Swap((0, 0), (1, 2))), Cut(cuts, Swap((70, 1), (2, 3))), Take(0)]
    else:
        some, portion, eat, steals = rng.randrange(65), action.portion, action.eat, action.steals
        found = [Take(portion + 1, eat, steals), Take(-1), Take(portion, (*eat, some), steals), Cut((0, 1))]
        found += [Take(portion, eat + eat[:1], steals), Take(portion, eat, (Steal(some, rng.randrange(6), some),))]
        found += [Take(portion, eat, steals, Swap((some, some + 1), (0, 1)))]
        if steals:
            first = steals[0]
            found += [Take(portion, eat, (first, first)), Take(portion, (first.finisher,), steals)]
            found += [Take(portion, eat, (Steal(first.finisher, state.to_act or 0, first.slice),))]
    shapes: list[object] = [action.to_json(), [], {"type": "pass"}, {"type": "cut", "cuts": "x"}]
    shapes += [{"type": "cut", "cuts": [1.5]}, {"type": "take", "portion": 0, "steals": {}}]
    shapes += [{"type": "take", "portion": 0, "steals": [1]}, {"type": "cut", "cuts": [0, 1], "marianne": 3}]
    shapes += [{"type": "cut", "cuts": [0, 1], "marianne": {"give": [1], "take": [2]}}]
    return found + shapes


def test_each_refusal_of_sampled_illegal_and_malformed_actions_has_a_known_code_rendering_its_message() -> None:
    rng = random.Random(3)
    seen: set[str] = set()
    for game in range(40):
        state = State.new(2 + game % 4, game, marianne=game % 2 == 0)
        while not state.is_over:
            action = random_action(state, rng)
            for variation in _variations(state, action, rng):
                trial = state.clone()
                try:
                    parsed = variation if isinstance(variation, Cut | Take) else action_from_json(variation)
                    # Now and then the decision is sent for the seat after the one to act.
                    wrong = rng.random() < 0.1 and state.to_act is not None
                    trial.apply(parsed, seat=(state.to_act or 0) + 1 if wrong else None)
                except (InvalidAction, IllegalAction) as refused:
                    assert refused.code in MESSAGES, refused
                    assert str(refused) == MESSAGES[refused.code].format(**refused.params)
                    assert refused.code in sentences.TOLD_CODES
                    seen.add(refused.code)
            last = action
            state.apply(action)
        with pytest.raises(IllegalAction) as over:
            state.apply(last)
        seen.add(over.value.code)
    # The sample reaches most codes, so a code raised without its template would be met.
    assert len(seen) >= len(MESSAGES) * 3 // 4, sorted(set(MESSAGES) - seen)
