"""The small things of the table's second pass: words in the page's language, one portion chosen for you,
the sign-up's real limit, a search that survives a NUL, a replay whose players are in seat order."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from games.part_du_chef import Steal, Take
from tests.web.browsing import people
from web.sentences import Seats, move


def test_your_own_steal_is_told_as_yours() -> None:
    # In English whatever an earlier test's request left active in this thread (a page asked for in nb).
    with translation.override("en"):
        text = move(Take(0, steals=(Steal(7, 1, 3),)), 0, 0, Seats(["fay", "greedy"], viewer=0), (7,))
    assert re.search(r"Your double finisher stole Margherita \(2 olives\) from greedy\.$", text)


@pytest.mark.django_db
def test_a_nul_in_the_search_is_no_error_and_sign_up_says_its_real_limit() -> None:
    client = Client()
    refused = client.get("/leaderboard/part-du-chef/", {"q": "gre\x00edy"})
    assert refused.status_code == 400 and "NUL" in refused.content.decode()  # a bad request, said so: no 500
    body = client.get("/signup/").content.decode()
    assert "Up to 64 characters." in body and 'maxlength="64"' in body and "150" not in body


@pytest.mark.django_db
def test_with_one_portion_left_it_is_chosen_and_the_seat_and_the_placing_have_two_names(
    finished_match: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from arena.models import Match
    from play.engine import create_live_match, submit_action

    ann, ben = people("ann2", "ben2")
    match = create_live_match(game="part-du-chef", kind=Match.Kind.FRIENDLY, players=[ann, ben], seed=29)
    with django_capture_on_commit_callbacks(execute=True):
        submit_action(match.id, ann, 0, {"type": "cut", "cuts": [0, 5], "marianne": None})
        submit_action(match.id, ben, 1, {"type": "take", "portion": 0, "eat": [], "steals": [], "marianne": None})
    client = Client()
    client.force_login(ann.owner)
    body = client.get(f"/play/{match.id}/").content.decode()
    assert len(re.findall(r'name="portion" value="\d+" checked', body)) == 1
    # In French the seat is a "Siège" and the placing a "Rang"; in Norwegian "Sete" and "Plassering".
    finished = Client()
    finished.force_login(finished_match.seats.get(seat=0).player.owner)
    french = finished.get(f"/play/{finished_match.id}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert '<th scope="col">Rang</th>' in french and '<th scope="col">Siège</th>' in french
    norwegian = finished.get(f"/play/{finished_match.id}/", HTTP_ACCEPT_LANGUAGE="nb").content.decode()
    assert '<th scope="col">Plassering</th>' in norwegian and '<th scope="col">Sete</th>' in norwegian
    # The rating chart's axis speaks French too.
    profile = finished.get(f"/players/{finished_match.seats.get(seat=0).player_id}/", HTTP_ACCEPT_LANGUAGE="fr")
    assert "first game" not in profile.content.decode() and "première partie" in profile.content.decode()


@pytest.mark.django_db
def test_the_replay_lists_its_players_in_seat_order(finished_match: Any) -> None:
    body = Client().get(f"/matches/{finished_match.id}/").content.decode()
    players = body[body.index('class="board scores') : body.index("</table>", body.index('class="board scores'))]
    assert re.findall(r"<tr><td>(\d)</td>", players) == ["1", "2", "3"]  # seats 1 to N, as the rules count them
