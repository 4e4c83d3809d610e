"""The play page: the seated person's choices as a form that works without scripts, and the lobby."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from arena.models import ArenaEntry, Match, Player
from arena.people import person_of
from games.part_du_chef import DECK, replay
from play.engine import create_live_match, load_state
from play.models import FriendlyTable, LiveGame
from web.sentences import slice_name


@pytest.fixture
def seated(db: None) -> Any:
    """Ann (seat 0, the chef of pizza 1) and Ben at a running rated table, seed 29, with La Marianne."""

    ann, ben = (person_of(User.objects.create_user(n, password="a-long-passphrase")) for n in ("ann", "ben"))
    match = create_live_match(
        game="part-du-chef", kind=Match.Kind.ARENA, players=[ann, ben], seed=29, options={"marianne": True}
    )
    clients = []
    for player in (ann, ben):
        client = Client()
        client.force_login(player.owner)
        clients.append(client)
    return match, clients


def test_the_chef_sees_thirteen_gaps_to_cut_and_no_card_with_nothing_to_swap(
    seated: Any, django_assert_num_queries: Any
) -> None:
    match, (ann, _) = seated
    # Session and user, the table and its seats, the player of the account, the result seats: none yet.
    with django_assert_num_queries(5):
        response = ann.get(f"/play/{match.id}/")
    body = response.content.decode()
    assert response.status_code == 200
    assert body.count('name="gap"') == 13 and "Choose 2 gaps to cut" in body
    # Nobody keeps a slice before the first cut: La Marianne has nothing to give or take, so it is not offered.
    assert "Use my card" not in body and 'class="gap-button"' in body
    assert body.count('class="slice') == 13


def test_a_form_post_without_scripts_plays_the_decision(seated: Any) -> None:
    match, (ann, ben) = seated
    response = ann.post(f"/play/{match.id}/", {"turn": 0, "phase": "cut", "gap": ["4", "9"]})
    assert response.status_code == 302
    game = LiveGame.objects.get(pk=match.pk)
    assert game.turn == 1 and game.record["actions"][0]["cuts"] == [4, 9]
    page = ben.get(f"/play/{match.id}/").content.decode()
    assert "Pick a portion" in page and page.count('name="portion"') == 2
    # Ben keeps slice 3 from portion 0 = ring positions 4..8 and eats the margherita 4.
    response = ben.post(f"/play/{match.id}/", {"turn": 1, "phase": "take", "portion": "0", "eat-0": ["4"]})
    assert response.status_code == 302
    take = LiveGame.objects.get(pk=match.pk).record["actions"][1]
    assert take["portion"] == 0 and take["eat"] == [4]


def test_an_illegal_choice_is_answered_in_the_players_words_naming_its_control(seated: Any) -> None:
    match, (ann, _) = seated
    answer = ann.post(f"/play/{match.id}/", {"turn": 0, "phase": "cut", "gap": ["4"]}, HTTP_X_REQUESTED_WITH="fetch")
    assert answer.status_code == 400
    assert answer.json() == {"ok": False, "error": "Choose 2 gaps to cut: you chose 1.", "field": "cut"}
    # Without scripts the message comes back inside the form, beside the Cut button, not atop the page.
    page = ann.post(f"/play/{match.id}/", {"turn": 0, "phase": "cut", "gap": ["4"]}, follow=True).content.decode()
    send_row = page[page.index('<div class="send-row">') :]
    assert 'id="play-error" role="alert">Choose 2 gaps to cut: you chose 1.</p>' in send_row
    assert page.count("you chose 1.") == 1


def test_the_rules_refusals_name_slices_and_seats_as_shown_in_french(seated: Any) -> None:
    """Seed 29: ann cuts [4, 9]; ben takes portion 1; ann then tries to give, with her card, slice 3,
    which ben keeps: the rules say "slice 3 is not among the slices seat 0 keeps"."""
    match, (ann, ben) = seated
    ann.post(f"/play/{match.id}/", {"turn": 0, "phase": "cut", "gap": ["4", "9"]})
    ben.post(f"/play/{match.id}/", {"turn": 1, "phase": "take", "portion": "0"})
    answer = ann.post(
        f"/play/{match.id}/",
        {"turn": 2, "phase": "take", "portion": "1", "marianne": "on", "give": ["3", "60"], "take": ["57", "4"]},
        HTTP_X_REQUESTED_WITH="fetch",
        HTTP_ACCEPT_LANGUAGE="fr",
    )
    assert answer.status_code == 400
    assert answer.json() == {
        "ok": False,
        "error": "La Marianne : vous ne pouvez donner que des parts que vous gardez, "
        "et vous ne gardez pas Margherita (2 olives).",
        "field": "marianne",
    }
    taken = ben.post(
        f"/play/{match.id}/", {"turn": 2, "phase": "take", "portion": "1"}, HTTP_X_REQUESTED_WITH="fetch"
    ).json()
    assert taken == {"ok": False, "error": "It is not your turn: ann is to play.", "field": None}


def test_the_panel_and_state_follow_the_game_and_a_spectator_gets_no_form(seated: Any) -> None:
    match, (ann, ben) = seated
    assert "Waiting for ann" in ben.get(f"/play/{match.id}/panel/").content.decode()
    ann.post(f"/play/{match.id}/", {"turn": 0, "phase": "cut", "gap": ["0", "6"]})
    assert "Your turn" in ben.get(f"/play/{match.id}/panel/").content.decode()
    spectator = Client().get(f"/play/{match.id}/").content.decode()
    assert 'id="play-form"' not in spectator and "Leave the game" not in spectator
    assert Client().post(f"/play/{match.id}/", {"turn": 1, "phase": "take", "portion": "0"}).status_code == 302


def test_the_lobby_names_the_whole_house_ladder_weakest_first_without_its_copies(db: None, settings) -> None:
    Player.objects.create(name="random-2", kind=Player.Kind.BOT, builtin="random")  # an older copy, listed first by id
    client = Client()
    client.force_login(User.objects.create_user("dan", password="a-long-passphrase"))
    lobby = client.get("/play/").content.decode()
    assert "House bots: " + ", ".join(settings.ARENA_HOUSE_LADDER) + "</p>" in lobby


def test_leaving_from_the_page_forfeits(seated: Any) -> None:
    match, (ann, _) = seated
    ann.post(f"/play/{match.id}/", {"resign": "1"})
    assert LiveGame.objects.get(pk=match.pk).out == [True, False]


def test_the_lobby_joins_and_leaves_the_queue_and_opens_friendly_tables(db: None) -> None:
    user = User.objects.create_user("cat", password="a-long-passphrase")
    client = Client()
    client.force_login(user)
    client.post("/play/", {"join": "1", "game": "part-du-chef", "table_size": "4"})
    assert ArenaEntry.objects.get(active=True).table_size == 4
    lobby = client.get("/play/").content.decode()
    assert "number 1 in the queue for a table of 4" in lobby
    assert "Waiting for 0 s; house bots fill the empty seats after 30 s." in lobby
    client.post("/play/", {"leave": "1"})
    assert not ArenaEntry.objects.filter(active=True).exists()
    page = client.post("/play/", {"open": "1", "guests": "greedy, nobody"}, follow=True).content.decode()
    assert "No player named nobody." in page
    client.post("/play/", {"open": "1", "guests": "greedy, search", "marianne": "on"})
    table = FriendlyTable.objects.get()
    assert table.status == "started" and table.match.kind == "friendly" and table.options["marianne"] is True


def test_the_lobby_asks_people_to_sign_in(db: None) -> None:
    response = Client().get("/play/")
    assert response.status_code == 302 and response["Location"].startswith("/login/")


def test_the_play_page_speaks_the_browser_language(seated: Any) -> None:
    match, (ann, _) = seated
    french = ann.get(f"/play/{match.id}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Choisissez 2 interstices où couper" in french
    assert "Les interstices sont numérotés dans le sens horaire" in french
    norwegian = ann.get(f"/play/{match.id}/", HTTP_ACCEPT_LANGUAGE="nb").content.decode()
    assert "Mellomrommene er nummerert med klokka" in norwegian and "Din tur" in norwegian


def test_la_marianne_from_the_form_can_give_slices_of_the_portion_being_taken(seated: Any) -> None:
    """Seed 29, two players: ann cuts [4, 9]; ben takes portion 1 = [3, 57, 4, 50, 12]; ann takes
    portion 2 and, with her card, gives its burnt 60 and chili 58 for ben's 3 and 57."""

    match, (ann, ben) = seated
    ann.post(f"/play/{match.id}/", {"turn": 0, "phase": "cut", "gap": ["4", "9"]})
    ben.post(f"/play/{match.id}/", {"turn": 1, "phase": "take", "portion": "0"})
    page = ann.get(f"/play/{match.id}/").content.decode()
    assert "Use my card" in page and 'data-portion="1"><input type="checkbox" name="give" value="60"' in page
    response = ann.post(
        f"/play/{match.id}/",
        {"turn": 2, "phase": "take", "portion": "1", "marianne": "on", "give": ["60", "58"], "take": ["3", "57"]},
        HTTP_X_REQUESTED_WITH="fetch",
    )
    assert response.json() == {"ok": True, "error": None, "field": None}
    record = LiveGame.objects.get(pk=match.pk).record
    assert record["actions"][2]["marianne"] == {"give": [60, 58], "take": [3, 57]}
    state = replay(record, allow_unfinished=True)
    assert {60, 58} <= set(state.kept[1]) and {3, 57} <= set(state.kept[0])


def test_still_to_come_counts_each_kind_of_slice_apart(seated: Any) -> None:
    match, (ann, _) = seated
    body = ann.get(f"/play/{match.id}/").content.decode()
    listed = body[body.index('<ul class="unseen"') : body.index("</ul>", body.index('<ul class="unseen"'))]
    counts = {name: int(n) for n, name in re.findall(r"</span> (\d+) × ([^<]+)</li>", listed)}
    state = load_state(LiveGame.objects.get(pk=match.pk))
    expected = Counter(slice_name(s) for ring in state.pizzas[1:] for s in ring)
    assert counts == dict(expected) and sum(counts.values()) == len(DECK) - 13
    assert "Margherita (2 olives)" in counts and "Margherita (3 olives)" in counts
