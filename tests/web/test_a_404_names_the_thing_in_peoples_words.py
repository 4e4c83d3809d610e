"""A 404 for a thing that is not there names it as people do ("no bot with this id"), never by the class
that stores it ("No SubmittedBot matches the given query."): in the API (English, as every API message)
and on the pages (in the reader's language), for every model of the service."""

from __future__ import annotations

from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.http import Http404
from django.utils import translation
from rest_framework.test import APIClient

from config.errors import PEOPLES_WORDS, not_found_detail
from tests.support import ROOT
from web.templatetags.web import MISSING, missing_thing


def _our_models() -> list[str]:
    """The models of the service's own apps, and the accounts' and tokens' models its views look up."""
    ours = [
        model.__name__
        for model in apps.get_models()
        if (ROOT / model.__module__.split(".")[0]).is_dir() and not model.__module__.startswith("tests")
    ]
    return sorted({*ours, "User", "Token"})


def _django_404(model: str) -> Http404:
    return Http404(f"No {model} matches the given query.")


def test_every_model_has_words_for_the_api_and_the_pages() -> None:
    models = _our_models()
    assert "SubmittedBot" in models and "LiveGame" in models
    assert sorted(set(models) - set(PEOPLES_WORDS)) == []
    assert sorted(set(models) - set(MISSING)) == []
    for model in models:
        detail = not_found_detail(_django_404(model))
        assert detail is not None and detail.startswith("no ") and model not in detail, (model, detail)
        with translation.override("fr"):
            said = missing_thing(str(_django_404(model)))
        assert said.startswith("Aucun") and model not in said, (model, said)
    # Any other 404 keeps its own words.
    assert not_found_detail(Http404("no such table")) is None
    assert missing_thing("no such table") == ""


@pytest.mark.django_db
def test_the_api_says_no_bot_with_this_id() -> None:
    api = APIClient()
    api.force_authenticate(User.objects.create_user("olga", password="a-long-passphrase"))
    answer = api.get("/api/bots/987654/")
    assert answer.status_code == 404
    assert answer.json() == {"detail": "no bot with this id"}
    assert api.get("/api/players/987654/").json() == {"detail": "no player with this id"}
    assert api.get("/api/matches/987654/").json() == {"detail": "no match with this id"}
    # A path the API does not know says so, as before.
    assert api.get("/api/nothing-here/").json() == {"detail": "no such resource: /api/nothing-here/"}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "No player with this id."),
        ("fr", "Aucun joueur avec cet identifiant."),
        ("nb", "Ingen spiller med denne id-en."),
    ],
)
def test_a_page_says_no_player_with_this_id_in_the_readers_language(language: str, words: str, client: Any) -> None:
    page = client.get("/players/987654/", HTTP_ACCEPT_LANGUAGE=language)
    assert page.status_code == 404
    html = page.content.decode()
    assert words in html
    assert "matches the given query" not in html and "Player" not in html.split("<main", 1)[1].split("</main>")[0]
