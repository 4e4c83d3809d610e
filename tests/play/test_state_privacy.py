"""The state endpoint shows a seat what it may see: never a pizza to come, nor anyone's unsent choice."""

from __future__ import annotations

from typing import Any

from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from arena.models import MatchSeat
from games.part_du_chef import State
from play.models import LiveGame
from tests.play.conftest import client_of, cut, post_action, take


def slice_ids(value: Any) -> set[int]:
    """Every slice id named in a state answer: slice objects, portions' and legal choices' id lists."""
    found: set[int] = set()
    if isinstance(value, dict):
        if {"id", "sort", "olives"} <= set(value):
            found.add(value["id"])
        for key, item in value.items():
            # (The observation's own "slices" counts slice points per seat: not ids.)
            ids_list = key in {"edible", "give", "take"} or (key == "slices" and "index" in value)
            if ids_list and isinstance(item, list):
                found.update(i for i in item if isinstance(i, int))
            elif key in {"slice"} and isinstance(item, int):
                found.add(item)
            else:
                found |= slice_ids(item)
    elif isinstance(value, list):
        for item in value:
            found |= slice_ids(item)
    return found


def test_no_seat_ever_sees_a_pizza_to_come(table: Any) -> None:
    match = table("ann", "ben", "cat", seed=29, marianne=True)
    clients = [client_of(seat.player) for seat in MatchSeat.objects.filter(match=match).order_by("seat")]
    pizzas = State.new(3, 29).pizzas
    seen_pizzas = set()
    while True:
        game = LiveGame.objects.get(pk=match.pk)
        if game.to_act is None:
            break
        for seat, client in enumerate(clients):
            answer = client.get(f"/api/matches/{match.id}/state/").json()
            text = repr(answer)
            assert "pizzas" not in answer and "record" not in text
            pizza = answer["observation"]["pizza"]
            seen_pizzas.add(pizza)
            future = {sid for ring in pizzas[pizza + 1 :] for sid in ring}
            assert not slice_ids(answer) & future, f"seat {seat} sees a slice of a pizza to come"
            # Only the seat to act gets choices.
            assert (answer["legal"] is not None) == (seat == game.to_act)
        legal = clients[game.to_act].get(f"/api/matches/{match.id}/state/").json()["legal"]
        action = cut([0, 4, 8]) if legal["phase"] == "cut" else take(legal["portions"][-1]["index"])
        assert post_action(clients[game.to_act], match.id, game.turn, action).status_code == 200
    assert seen_pizzas == {0, 1, 2, 3, 4}


def test_the_record_is_not_served_while_the_game_runs(table: Any) -> None:
    match = table("ann", "ben")
    response = client_of(match.seats.first().player).get(f"/api/matches/{match.id}/record/")
    assert response.status_code == 404


def test_a_refused_choice_leaves_no_trace_in_anyone_s_view(table: Any) -> None:
    match = table("ann", "ben", "cat", seed=29)
    ann, ben, cat = (client_of(s.player) for s in MatchSeat.objects.filter(match=match).order_by("seat"))
    assert post_action(ann, match.id, 0, cut([4, 5, 6])).status_code == 200
    before = [c.get(f"/api/matches/{match.id}/state/").json() for c in (ann, cat)]
    # Ben tries a portion of three, with a steal and eating: refused, and nobody learns about it.
    assert post_action(ben, match.id, 1, take(2, eat=[58])).status_code == 400
    after = [c.get(f"/api/matches/{match.id}/state/").json() for c in (ann, cat)]
    for old, new in zip(before, after, strict=True):
        old.pop("seconds_left")
        new.pop("seconds_left")
        assert old == new
    assert after[1]["observation"]["portions"][2]["taken_by"] is None


def test_a_spectator_sees_the_public_view_without_choices(table: Any) -> None:
    match = table("ann", "ben")
    answer = APIClient().get(f"/api/matches/{match.id}/state/").json()
    assert answer["seat"] is None and answer["legal"] is None and answer["your_turn"] is False
    assert answer["observation"]["seat"] is None
    assert len(answer["observation"]["ring"]) == 13


def test_the_state_endpoint_reads_a_fixed_handful_of_rows(table: Any, django_assert_num_queries: Any) -> None:
    match = table("ann", "ben", "cat")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=match.seats.first().player.owner).key}")
    # The token and its user, the asking player, the table with its match, the seats with their players.
    with django_assert_num_queries(4):
        assert client.get(f"/api/matches/{match.id}/state/").status_code == 200
