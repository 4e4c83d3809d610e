"""The pages tell a person the domain's refusals (the engine's, the rules', a form that cannot be read)
and nothing else: any other error is a bug, never shown as a refusal."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.contrib.messages import get_messages
from django.test import Client

from arena.models import Match
from arena.people import person_of
from play import engine


@pytest.fixture
def seated(db: None) -> tuple[Match, Client]:
    ann, ben = (person_of(User.objects.create_user(n, password="a-long-passphrase")) for n in ("ann", "ben"))
    match = engine.create_live_match(game="part-du-chef", kind=Match.Kind.FRIENDLY, players=[ann, ben], seed=29)
    client = Client()
    client.force_login(ann.owner)
    return match, client


def _fetch(client: Client, match: Match, data: dict[str, Any]) -> Any:
    return client.post(f"/play/{match.id}/", data, HTTP_X_REQUESTED_WITH="fetch")


def test_an_illegal_and_a_malformed_decision_are_refused_in_the_players_words(seated: tuple[Match, Client]) -> None:
    match, ann = seated
    illegal = _fetch(ann, match, {"turn": 0, "phase": "cut", "gap": ["4"]})  # one cut point short
    assert illegal.status_code == 400 and illegal.json()["ok"] is False and illegal.json()["error"]
    stale = _fetch(ann, match, {"turn": 3, "phase": "cut", "gap": ["4", "9"]})  # the engine's PlayError
    assert stale.status_code == 400 and stale.json()["error"]
    unreadable = _fetch(ann, match, {"turn": "x", "phase": "cut", "gap": ["4", "9"]})
    assert unreadable.json()["error"] == "The form could not be read: reload the table."


def test_an_error_that_is_not_a_refusal_is_not_shown_as_one(seated: tuple[Match, Client], monkeypatch: Any) -> None:
    match, ann = seated

    def broken(*args: Any) -> None:
        raise ValueError("invalid literal for int() with base 10: 'deep inside a helper'")

    monkeypatch.setattr(engine, "submit_action", broken)
    with pytest.raises(ValueError, match="deep inside a helper"):
        _fetch(ann, match, {"turn": 0, "phase": "cut", "gap": ["4", "9"]})


def test_a_lobby_form_whose_numbers_do_not_parse_is_told_so(db: None) -> None:
    cat = User.objects.create_user("cat", password="a-long-passphrase")

    def told(data: dict[str, str]) -> list[str]:
        client = Client()  # a fresh session: only this form's message
        client.force_login(cat)
        response = client.post("/play/", data)
        assert response.status_code == 302
        return [str(message) for message in get_messages(response.wsgi_request)]

    for data in ({"join": "1", "table_size": "three"}, {"accept": "first"}, {"decline": ""}):
        assert told(data) == ["The form could not be read: reload the page."]
    # A table's guests are told beside the field instead (tests/web/test_lobby_errors_beside_the_field.py).
