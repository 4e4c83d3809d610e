"""The OpenAPI schema and the interactive docs, served without reaching the internet."""

from __future__ import annotations

import re

import pytest
from django.test import Client


@pytest.mark.django_db
def test_the_schema_describes_every_endpoint() -> None:
    response = Client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    paths = response.json()["paths"]
    for path in [
        "/api/games/",
        "/api/players/",
        "/api/players/{id}/",
        "/api/matches/",
        "/api/matches/{id}/",
        "/api/matches/{id}/record/",
        "/api/leaderboards/{game}/",
        "/api/leaderboards/{game}/players/{player_id}/",
        "/api/players/{player_id}/ratings/{game}/",
        "/api/arena/entries/",
    ]:
        assert path in paths, path


@pytest.mark.django_db
def test_the_interactive_docs_load_their_assets_from_this_server() -> None:
    page = Client().get("/api/docs/")
    assert page.status_code == 200
    html = page.content.decode()
    assets = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert any("swagger-ui" in a for a in assets)
    assert all(not a.startswith(("http://", "https://", "//")) for a in assets), assets


@pytest.mark.django_db
def test_the_docs_assets_are_served_here() -> None:
    html = Client().get("/api/docs/").content.decode()
    script = next(a for a in re.findall(r'src="([^"]+)"', html) if "swagger-ui-bundle" in a)
    response = Client().get(script)
    assert response.status_code == 200
    assert b"SwaggerUI" in b"".join(response.streaming_content if response.streaming else [response.content])
