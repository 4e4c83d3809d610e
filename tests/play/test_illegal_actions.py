"""Every illegal action answers 400 through /actions/ with the rules' message naming the problem.

Seed 29 deals pizza 1 as the ring (positions 0..12)
  38 31 58 0 3 57 4 50 12 6 34 26 60
so the cut [4, 5, 6] gives portion 0 = [3] (a margherita), portion 1 = [57] (a chili) and portion 2 =
the rest, holding the margherita finisher 0, the truffe finisher 50, the chili 58 and the burnt 60.
"""

from __future__ import annotations

from typing import Any

import pytest

from arena.models import Match, MatchSeat
from tests.play.conftest import client_of, cut, post_action, take

RING = [38, 31, 58, 0, 3, 57, 4, 50, 12, 6, 34, 26, 60]


@pytest.fixture
def game(table: Any) -> Any:
    match = table("ann", "ben", "cat", marianne=True)
    players = [seat.player for seat in MatchSeat.objects.filter(match=match).order_by("seat")]
    return match, [client_of(player) for player in players]


def state(client: Any, match_id: int) -> dict[str, Any]:
    response = client.get(f"/api/matches/{match_id}/state/")
    assert response.status_code == 200, response.content
    return response.json()


def refused(response: Any, message: str) -> None:
    assert response.status_code == 400, response.content
    assert response.json()["detail"] == message


def test_the_deal_of_seed_29_is_the_one_these_tests_rely_on(game: Any) -> None:
    match, (ann, _, _) = game
    assert [s["id"] for s in state(ann, match.id)["observation"]["ring"]] == RING


@pytest.mark.parametrize(
    ("seat", "action", "message"),
    [
        (1, cut([0, 4, 8]), "it is seat 0's turn, not seat 1's"),
        (0, take(0), "seat 0 must cut pizza 1 before anyone takes"),
        (0, cut([0, 4]), "a cut for 3 players has 3 cut points, not 2"),
        (0, cut([0, 4, 13]), "cut point 13 is not a position between 0 and 12"),
        (0, cut([4, 4, 8]), "cut points must be distinct and listed in ascending order"),
        (0, cut([8, 4, 0]), "cut points must be distinct and listed in ascending order"),
        (0, "cut", "an action must be a JSON object"),
        (0, {"type": "pass"}, "unknown action type 'pass': expected 'cut' or 'take'"),
        (0, {"type": "cut", "cuts": "0,4,8"}, "cuts must be a list of integers"),
        (0, {"type": "cut", "cuts": [0, True, 8]}, "each of cuts must be an integer, not True"),
        (
            0,
            cut([0, 4, 8], {"give": [1], "take": [2, 3]}),
            "La Marianne swaps exactly two slices: give two and take two",
        ),
        (0, cut([0, 4, 8], "swap"), "marianne must be null or an object with 'give' and 'take'"),
        (0, cut([0, 4, 8], {"give": [99, 1], "take": [2, 3]}), "La Marianne names slice 99, which does not exist"),
        (
            0,
            cut([0, 4, 8], {"give": [1, 1], "take": [2, 3]}),
            "La Marianne swaps two distinct slices for two distinct slices",
        ),
        (
            0,
            cut([0, 4, 8], {"give": [1, 2], "take": [3, 4]}),
            "La Marianne: slice 1 is not among the slices seat 0 keeps",
        ),
    ],
)
def test_a_cut_decision_refuses(game: Any, seat: int, action: Any, message: str) -> None:
    match, clients = game
    refused(post_action(clients[seat], match.id, 0, action), message)
    assert state(clients[0], match.id)["turn"] == 0


TAKE_CASES = [
    (cut([0, 4, 8]), "pizza 1 is already cut: seat 2 must take a portion"),
    (take(0), "portion 0 is already taken by seat 1"),
    (take(5), "there is no portion 5: portions are 0 to 2"),
    (take(True), "portion must be an integer, not True"),
    (take(2, eat=[3]), "slice 3 is not in portion 2"),
    (take(2, eat=[58]), "slice 58 is a chili: a chili cannot be eaten"),
    (take(2, eat=[60]), "slice 60 is burnt: a burnt slice cannot be eaten"),
    (take(2, eat=[4, 4]), "a slice is listed twice in eat"),
    (take(2, steals=[{"finisher": 12, "from": 1, "slice": 3}]), "slice 12 is not a double finisher in portion 2"),
    (
        take(2, eat=[0], steals=[{"finisher": 0, "from": 1, "slice": 3}]),
        "finisher 0 is eaten: only a kept finisher steals",
    ),
    (
        take(2, steals=[{"finisher": 0, "from": 1, "slice": 3}, {"finisher": 0, "from": 1, "slice": 3}]),
        "finisher 0 steals only once",
    ),
    (take(2, steals=[{"finisher": 0, "from": 9, "slice": 3}]), "there is no seat 9 to steal from"),
    (
        take(2, steals=[{"finisher": 0, "from": 2, "slice": 4}]),
        "a finisher steals from an opponent, not from its taker",
    ),
    (take(2, steals=[{"finisher": 0, "from": 1, "slice": 4}]), "seat 1 does not keep slice 4"),
    (take(2, steals=[{"finisher": 50, "from": 1, "slice": 3}]), "finisher 50 steals truffe, and slice 3 is margherita"),
    (take(2, steals="all"), "steals must be a list"),
    (take(2, steals=[7]), "each steal must be an object with 'finisher', 'from' and 'slice'"),
    (take(2, marianne={"give": [4, 12], "take": [3, 57]}), "seat 2 does not hold La Marianne (seat 0 does)"),
]


@pytest.mark.parametrize(("action", "message"), TAKE_CASES)
def test_a_take_decision_refuses(game: Any, action: Any, message: str) -> None:
    match, (ann, ben, cat) = game
    assert post_action(ann, match.id, 0, cut([4, 5, 6])).status_code == 200
    assert post_action(ben, match.id, 1, take(0)).status_code == 200
    refused(post_action(cat, match.id, 2, action), message)
    after = state(cat, match.id)
    assert after["turn"] == 2 and after["your_turn"] is True


def play_pizza_plainly(clients: list[Any], match_id: int) -> None:
    """Cut [0, 1, 2] and take the first portion left, eating nothing, until the pizza is done."""
    pizza = state(clients[0], match_id)["observation"]["pizza"]
    while True:
        view = state(clients[0], match_id)
        if view["observation"]["pizza"] != pizza or view["to_act"] is None:
            return
        seat, turn = view["to_act"], view["turn"]
        mine = state(clients[seat], match_id)["legal"]
        action = cut([0, 1, 2]) if mine["phase"] == "cut" else take(mine["portions"][0]["index"])
        assert post_action(clients[seat], match_id, turn, action).status_code == 200


def test_la_marianne_refuses_a_slice_kept_by_its_holder_then_once_used_is_gone(game: Any) -> None:
    match, clients = game
    ann, ben, cat = clients
    assert post_action(ann, match.id, 0, cut([4, 5, 6])).status_code == 200
    assert post_action(ben, match.id, 1, take(0)).status_code == 200
    assert post_action(cat, match.id, 2, take(2)).status_code == 200
    assert post_action(ann, match.id, 3, take(1)).status_code == 200
    play_pizza_plainly(clients, match.id)  # pizza 2, cut by ben, who gets La Marianne and keeps it
    view = state(cat, match.id)
    assert view["to_act"] == 2 and view["legal"]["marianne"]["can_use"] is True
    refused(
        post_action(cat, match.id, view["turn"], cut([0, 1, 2], {"give": [4, 12], "take": [3, 38]})),
        "La Marianne: slice 38 is not kept by an opponent",
    )
    used = post_action(cat, match.id, view["turn"], cut([0, 1, 2], {"give": [4, 12], "take": [3, 57]}))
    assert used.status_code == 200, used.content
    after = used.json()
    assert {s["id"] for s in after["observation"]["kept"][2]} >= {3, 57}
    assert after["observation"]["marianne"]["in_play"] is False
    seat = after["to_act"]
    refused(
        post_action(clients[seat], match.id, after["turn"], take(0, marianne={"give": [1, 2], "take": [3, 4]})),
        "La Marianne has already been used and has left the game",
    )


def test_la_marianne_is_refused_in_a_game_without_it(table: Any) -> None:
    match = table("dan", "eve", marianne=False)
    dan = client_of(MatchSeat.objects.get(match=match, seat=0).player)
    refused(
        post_action(dan, match.id, 0, cut([0, 4], {"give": [1, 2], "take": [3, 4]})),
        "La Marianne is not in this game",
    )


def test_a_finished_game_refuses_any_action(table: Any) -> None:
    match = table("fay", "gus", seed=3)
    clients = [client_of(seat.player) for seat in MatchSeat.objects.filter(match=match).order_by("seat")]
    while state(clients[0], match.id)["to_act"] is not None:
        view = state(clients[0], match.id)
        seat = view["to_act"]
        legal = state(clients[seat], match.id)["legal"]
        action = cut([0, 6]) if legal["phase"] == "cut" else take(legal["portions"][0]["index"])
        assert post_action(clients[seat], match.id, view["turn"], action).status_code == 200
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    refused(post_action(clients[0], match.id, 20, cut([0, 6])), "the game is over")


def test_someone_without_a_seat_gets_404_and_a_body_without_turn_gets_400(game: Any, person: Any) -> None:
    match, (ann, _, _) = game
    stranger = client_of(person("zed"))
    response = post_action(stranger, match.id, 0, cut([0, 4, 8]))
    assert response.status_code == 404
    assert response.json()["detail"] == f"you have no seat at match {match.id}"
    response = ann.post(f"/api/matches/{match.id}/actions/", {"action": cut([0, 4, 8])}, format="json")
    assert response.status_code == 400 and "turn" in response.json()["detail"]
    refused(
        post_action(ann, match.id, "0", cut([0, 4, 8])),
        "turn must be the integer turn number of the decision you answer",
    )
    refused(post_action(ann, match.id, 5, cut([0, 4, 8])), "turn 5 has not come yet; the game is at turn 0")


def test_a_refusal_answers_its_code_and_parameters_beside_the_message(game: Any) -> None:
    match, (ann, ben, _) = game
    wrong_seat = post_action(ben, match.id, 0, cut([0, 4, 8]))
    assert wrong_seat.json() == {
        "detail": "it is seat 0's turn, not seat 1's",
        "code": "not_your_turn",
        "params": {"actor": 0, "seat": 1},
    }
    malformed = post_action(ann, match.id, 0, {"type": "pass"}).json()
    assert (malformed["code"], malformed["params"]) == ("action_unknown_type", {"type": "'pass'"})
    late = post_action(ann, match.id, 5, cut([0, 4, 8])).json()
    assert (late["code"], late["params"]) == ("turn_not_come", {"turn": 5, "now": 0})
