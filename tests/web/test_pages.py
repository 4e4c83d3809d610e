"""Pages render, in three languages, with pinned query counts (they must stay fast at 1,000,000 players)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.db import connection
from django.test import Client, RequestFactory
from django.utils import translation
from django.views.defaults import server_error

from arena.models import Player
from ratings import buckets
from ratings.models import Rating
from web import views


@pytest.fixture
def rated(db: None) -> list[Any]:
    players = []
    for i in range(60):
        kind = "bot" if i % 3 == 0 else "human"
        player = Player.objects.create(name=f"{'bot' if kind == 'bot' else 'cook'}-{i:02d}", kind=kind)
        Rating.objects.create(player=player, game="part-du-chef", kind=kind, rating=1400 + 5 * i, games=i % 15)
        buckets.move("part-du-chef", [(kind, None, 1400 + 5 * i)])
        players.append(player)
    return players


def test_the_leaderboard_page_lists_the_best_first_with_pinned_queries(
    rated: list[Any], django_assert_num_queries: Any
) -> None:
    client = Client()
    # The board's size from the rating histogram, then the page's keys from the index, then its rows,
    # then the counts above both ends of each row's interval (its rank interval), in one query.
    with django_assert_num_queries(4):
        response = client.get("/leaderboard/part-du-chef/")
    body = response.content.decode()
    assert response.status_code == 200
    assert body.index("cook-59") < body.index("cook-58")
    assert "60 rated players" in body and "Page 1 of 2" in body


def test_the_leaderboard_filters_by_kind_pages_and_searches_by_name(rated: list[Any]) -> None:
    client = Client()
    bots = client.get("/leaderboard/part-du-chef/?kind=bot").content.decode()
    assert "bot-57" in bots and "cook-" not in bots and "20 rated players" in bots
    second = client.get("/leaderboard/part-du-chef/?page=2").content.decode()
    assert "bot-00" in second and "cook-59" not in second
    found = client.get("/leaderboard/part-du-chef/?q=COOK-1").content.decode()
    assert "cook-19" in found and "cook-10" in found and "cook-20" not in found and "bot-12" not in found
    assert client.get("/leaderboard/chess/").status_code == 404


def test_the_search_finds_a_part_inside_names_and_keeps_their_ranks(
    rated: list[Any], django_assert_num_queries: Any
) -> None:
    # The matching ids from the trigram index, then their ratings, then their ranks and rank intervals.
    with django_assert_num_queries(3):
        body = Client().get("/leaderboard/part-du-chef/?q=OK-5").content.decode()
    rows = re.findall(r"<tr><td>(\d+)</td>\s*<td><a href=\"/players/\d+/\">([\w-]+)</a>", body)
    # cook-59 is the best of all 60 (1400 + 5 * 59); every cook-5x is a person, bot-51 and bot-54 are not cooks.
    assert rows == [(str(60 - i), f"cook-{i}") for i in (59, 58, 56, 55, 53, 52, 50)]
    kinds = Client().get("/leaderboard/part-du-chef/?kind=human&q=ok-59").content.decode()
    assert "<tr><td>1</td>" in kinds
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexdef FROM pg_indexes WHERE indexname = 'arena_player_name_trgm'")
        assert "gin_trgm_ops" in cursor.fetchone()[0]


def test_a_search_matching_too_many_names_asks_for_more_of_the_name(
    rated: list[Any], django_assert_num_queries: Any, monkeypatch: Any
) -> None:
    monkeypatch.setattr(views, "SEARCH_LIMIT", 10)
    # The matching ids (at most the limit, from the name index), then their ratings, best first, then
    # their ranks and rank intervals.
    with django_assert_num_queries(3):
        body = Client().get("/leaderboard/part-du-chef/?q=cook").content.decode()
    assert "type more of the name" in body and body.count("/players/") == 10
    assert "type more of the name" not in Client().get("/leaderboard/part-du-chef/?q=cook-5").content.decode()


def test_the_leaderboard_speaks_french_and_norwegian_from_the_browser_language(rated: list[Any]) -> None:
    client = Client()
    assert (
        "Classement" in client.get("/leaderboard/part-du-chef/", HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9").content.decode()
    )
    assert (
        "Rangering" in client.get("/leaderboard/part-du-chef/", HTTP_ACCEPT_LANGUAGE="nb-NO,nb;q=0.9").content.decode()
    )


def test_the_rules_page_exists_in_each_language(db: None) -> None:
    client = Client()
    assert "Keep or eat" in client.get("/rules/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Garder ou manger" in client.get("/rules/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Behold eller spis" in client.get("/rules/", HTTP_ACCEPT_LANGUAGE="nb").content.decode()


def test_a_profile_shows_rating_rank_win_rate_chart_and_recent_matches(
    finished_match: Any, django_assert_num_queries: Any
) -> None:
    seat = finished_match.seats.get(seat=0)
    client = Client()
    client.get(f"/players/{seat.player_id}/")  # warms the cached rank
    # Player, rating, history, record, recent matches, and their opponents (one query for all).
    with django_assert_num_queries(6):
        response = client.get(f"/players/{seat.player_id}/")
    body = response.content.decode()
    assert response.status_code == 200
    assert '<a href="/players/' in body and ">ben</a>, <a href=" in body and ">greedy</a>" in body
    assert f"{finished_match.finished_at:%Y-%m-%d}" in body
    assert f"{seat.rating_after:.0f}" in body and "provisional" in body
    assert '<svg class="chart"' in body and "Rating over 1 rated games" in body
    assert f"/matches/{finished_match.id}/" in body
    assert ("100 %" in body) == (seat.rank == 1)


def test_the_match_page_draws_the_replay_and_the_final_scores(
    finished_match: Any, django_assert_num_queries: Any
) -> None:
    client = Client()
    client.get(f"/matches/{finished_match.id}/")  # warms the cached frames
    # The match, its seats, whether it shares a tournament deal (arena.secrecy), its record.
    with django_assert_num_queries(4):
        response = client.get(f"/matches/{finished_match.id}/")
    body = response.content.decode()
    assert response.status_code == 200
    assert body.count('<svg class="pizza') == 5 and body.count('class="slice') >= 65
    assert 'class="medallion"' in body and "sort-chili" in body and "sort-burnt" in body
    assert f"/matches/{finished_match.id}/record.json" in body
    scores = finished_match.record["scores"]
    for score in scores:
        assert f"<strong>{score['total']}</strong>" in body
    step_zero = client.get(f"/matches/{finished_match.id}/?step=0").content.decode()
    assert 'line class="cut shown"' not in step_zero and 'line class="cut shown"' in body


def test_the_record_downloads_once_the_match_is_over(finished_match: Any) -> None:
    response = Client().get(f"/matches/{finished_match.id}/record.json")
    assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
    assert json.loads(response.content) == finished_match.record


def test_sign_up_creates_a_person_and_signs_in(db: None) -> None:
    client = Client()
    response = client.post(
        "/signup/", {"username": "zoe", "password1": "pizza-and-olives-42", "password2": "pizza-and-olives-42"}
    )
    assert response.status_code == 302
    assert Player.objects.get(name="zoe").kind == "human"
    assert "Signed in as zoe" in client.get("/play/").content.decode()
    taken = Client().post(
        "/signup/", {"username": "greedy", "password1": "x-Long-pass-99", "password2": "x-Long-pass-99"}
    )
    assert "This name is taken." in taken.content.decode()


def test_a_bot_provisional_again_after_a_new_version_is_marked_provisional(db: None) -> None:
    player = Player.objects.create(name="veteran-bot", kind="bot")
    Rating.objects.create(player=player, game="part-du-chef", kind="bot", rating=1700, games=40, provisional_left=10)
    buckets.move("part-du-chef", [("bot", None, 1700)])
    profile = Client().get(f"/players/{player.id}/").content.decode()
    assert "(provisional)" in profile
    board = Client().get("/leaderboard/part-du-chef/").content.decode()
    assert "provisional: its rating is still uncertain" in board


def test_accept_language_no_is_served_in_norwegian(db: None) -> None:
    client = Client()
    assert 'lang="nb"' in client.get("/rules/", HTTP_ACCEPT_LANGUAGE="no").content.decode()
    assert 'lang="nb"' in client.get("/rules/", HTTP_ACCEPT_LANGUAGE="no-NO,no;q=0.9,en;q=0.8").content.decode()
    assert 'lang="en"' in client.get("/rules/", HTTP_ACCEPT_LANGUAGE="en-GB").content.decode()


def test_a_missing_page_is_styled_and_speaks_the_visitors_language(db: None) -> None:
    response = Client().get("/players/999999/", HTTP_ACCEPT_LANGUAGE="fr")
    body = response.content.decode()
    assert response.status_code == 404
    assert "/static/web/site.css" in body and "Cette page n'est pas au menu" in body


def test_a_server_error_is_styled_and_speaks_the_visitors_language(db: None) -> None:
    with translation.override("nb"):
        response = server_error(RequestFactory().get("/"))
    body = response.content.decode()
    assert response.status_code == 500
    assert "/static/web/site.css" in body and "Noe gikk galt på kjøkkenet" in body


def test_the_rules_number_seats_from_one_as_the_table_does(db: None) -> None:
    client = Client()
    for language, words in (("en", "Seats 1 to N"), ("fr", "Places 1 à N"), ("nb", "Plass 1 til N")):
        body = client.get("/rules/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert words in body and "N−1" not in body


def _pizzas(body: str) -> list[str]:
    return re.findall(r'<svg class="pizza.*?</svg>', body, flags=re.S)


def test_a_replay_cached_for_one_match_is_never_drawn_for_another_that_took_its_id(finished_match: Any) -> None:
    from django.contrib.auth.models import User

    from arena.models import Match
    from arena.people import person_of
    from play.engine import create_live_match, play_turn
    from play.models import LiveGame

    client = Client()
    client.get(f"/matches/{finished_match.id}/")  # its frames are cached
    people = [person_of(User.objects.create_user(name, password="a-long-passphrase")) for name in ("cy", "dee")]
    other = create_live_match(
        game="part-du-chef", kind=Match.Kind.FRIENDLY, players=[*people, Player.objects.get(name="greedy")], seed=31
    )
    while (game := LiveGame.objects.get(pk=other.pk)).to_act is not None:
        assert play_turn(other.id, game.turn, now=game.deadline) == "played"
    other.refresh_from_db()
    expected = _pizzas(client.get(f"/matches/{other.id}/").content.decode())
    # A database made anew (a restore, a test run) where another game finished under the first one's id.
    Match.objects.filter(pk=finished_match.pk).update(record=other.record, finished_at=other.finished_at)
    response = client.get(f"/matches/{finished_match.id}/")
    assert response.status_code == 200
    assert _pizzas(response.content.decode()) == expected
