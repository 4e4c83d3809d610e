"""Every refusal of the arena is an ArenaError whose subclass says its HTTP status, mapped in one function;
each answers its stable code and parameters beside the message."""

from __future__ import annotations

import pytest

from arena import errors
from config.errors import domain_error_response
from games.part_du_chef import IllegalAction, InvalidAction


@pytest.mark.parametrize(
    ("error", "status", "code", "params"),
    [
        (errors.RequestError("unknown game 'chess'"), 400, "bad_request", {}),
        (errors.UnplayablePlayer("bot 3 (x) is retired"), 400, "unplayable_player", {}),
        (errors.PlayError.coded("turn_not_come", turn=9, now=1), 400, "turn_not_come", {"turn": 9, "now": 1}),
        (errors.GameOver.coded("game_over"), 400, "game_over", {}),
        (errors.StaleTurn.coded("turn_played", turn=1, now=2), 409, "turn_played", {"turn": 1, "now": 2}),
        (errors.NotSeated.coded("not_seated", match=4), 404, "not_seated", {"match": 4}),
        (IllegalAction("no_such_portion", portion="7", last=2), 400, "no_such_portion", {"portion": "7", "last": 2}),
        (InvalidAction("field_not_integer", field="portion", value="'x'"), 400, "field_not_integer", None),
    ],
)
def test_each_refusal_is_answered_with_its_status_message_code_and_params(
    error: Exception, status: int, code: str, params: dict[str, object] | None
) -> None:
    response = domain_error_response(error)
    assert response is not None
    expected = {"detail": str(error), "code": code, "params": params or getattr(error, "params", {})}
    assert (response.status_code, response.data) == (status, expected)


def test_a_coded_message_is_rendered_from_its_template() -> None:
    late = errors.PlayError.coded("turn_not_come", turn=9, now=1)
    assert str(late) == "turn 9 has not come yet; the game is at turn 1"
    assert str(IllegalAction("no_such_portion", portion="7", last=2)) == "there is no portion 7: portions are 0 to 2"
    malformed = InvalidAction("field_not_integer", field="portion", value="'x'")
    assert str(malformed) == "portion must be an integer, not 'x'"


def test_every_refusal_class_derives_from_the_one_base_class() -> None:
    classes = [errors.RequestError, errors.UnplayablePlayer, errors.PlayError, errors.GameOver]
    classes += [errors.StaleTurn, errors.NotSeated]
    assert all(issubclass(cls, errors.ArenaError) for cls in classes)


def test_an_error_that_is_not_a_refusal_is_left_to_the_generic_handler() -> None:
    assert domain_error_response(RuntimeError("boom")) is None
