"""Bad requests to the API answer 400 (or 403/404) with a JSON message naming the problem, never 500."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from arena.models import Match, Player


@pytest.fixture
def bots(make_bots) -> list[int]:
    return [p.id for p in make_bots(2)]


@pytest.fixture
def client(db: None) -> APIClient:
    user = User.objects.create_user("alice", password="pw-alice-123")
    api = APIClient()
    api.force_authenticate(user)
    return api


def _post(client: APIClient, body: object, *, raw: bool = False):
    if raw:
        return client.post("/api/matches/", body, content_type="application/json")
    return client.post("/api/matches/", body, format="json")


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"game": "chess", "kind": "friendly", "players": [1, 2]}, "unknown game 'chess'"),
        ({"game": "part-du-chef", "kind": "friendly", "players": [1]}, "2 to 5 players, not 1"),
        ({"game": "part-du-chef", "kind": "friendly", "players": [1, 2, 3, 1, 2, 3]}, "2 to 5 players, not 6"),
        ({"game": "part-du-chef", "kind": "friendly", "players": [1, 1]}, "player 1 is seated twice"),
        ({"game": "part-du-chef", "kind": "friendly", "players": [1, 999999]}, "unknown player 999999"),
        (
            {"game": "part-du-chef", "kind": "friendly", "players": [1, 2], "options": {"marianne": "yes"}},
            "bad options: option 'marianne' must be true or false",
        ),
        (
            {"game": "part-du-chef", "kind": "friendly", "players": [1, 2], "options": {"pepper": True}},
            "bad options: unknown option 'pepper'",
        ),
    ],
)
def test_it_refuses_a_bad_match_with_a_clear_message(
    client: APIClient, bots: list[int], body: dict, message: str
) -> None:
    if body["players"] == [1, 2]:
        body = {**body, "players": bots}
    response = _post(client, body)
    assert response.status_code == 400, response.content
    assert response["Content-Type"] == "application/json"
    assert message in response.json()["detail"]
    assert not Match.objects.exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"kind": "friendly", "players": [1, 2]}, "game"),
        ({"game": "part-du-chef", "kind": "arena", "players": [1, 2]}, "kind"),
        ({"game": "part-du-chef", "kind": "friendly", "players": "1,2"}, "players"),
        ({"game": "part-du-chef", "kind": "friendly", "players": [1, "two"]}, "players"),
        ({"game": "part-du-chef", "kind": "friendly", "players": [1, 2], "seed": -5}, "seed"),
        ({"game": "part-du-chef", "kind": "friendly", "players": [1, 2], "options": [1]}, "options"),
    ],
)
def test_it_names_the_malformed_field(client: APIClient, body: dict, field: str) -> None:
    response = _post(client, body)
    assert response.status_code == 400
    assert field in response.json()


@pytest.mark.parametrize("raw", ["{not json", "[1, 2]", '"text"', "null"])
def test_it_refuses_a_body_that_is_not_a_json_object(client: APIClient, raw: str) -> None:
    response = _post(client, raw, raw=True)
    assert response.status_code == 400
    assert response.json()["detail"]


def test_it_refuses_to_seat_a_person_in_a_bot_match(client: APIClient) -> None:
    person = Player.objects.create(name="bob", kind="human")
    response = _post(client, {"game": "part-du-chef", "kind": "friendly", "players": [1, person.id]})
    assert response.status_code == 400
    assert "is a person" in response.json()["detail"]


def test_ranked_matches_need_staff(client: APIClient) -> None:
    response = _post(client, {"game": "part-du-chef", "kind": "ranked", "players": [1, 2]})
    assert response.status_code == 403
    assert "only staff may create ranked matches" in response.json()["detail"]


def test_creating_a_match_needs_an_account(db: None) -> None:
    response = APIClient().post("/api/matches/", {"game": "part-du-chef", "kind": "friendly", "players": [1, 2]})
    assert response.status_code == 401
    assert response.json()["detail"]


@pytest.mark.parametrize(
    ("url", "status"),
    [
        ("/api/matches/999999/", 404),
        ("/api/matches/999999/record/", 404),
        ("/api/matches/abc/", 404),
        ("/api/players/999999/", 404),
        ("/api/leaderboards/chess/", 404),
        ("/api/leaderboards/part-du-chef/?kind=robot", 400),
        ("/api/leaderboards/part-du-chef/?page=0", 400),
        ("/api/leaderboards/part-du-chef/?page=x", 400),
        ("/api/leaderboards/part-du-chef/?page=99", 404),
        ("/api/leaderboards/part-du-chef/?page_size=100000", 400),
        ("/api/leaderboards/part-du-chef/players/999999/", 404),
        ("/api/players/999999/ratings/part-du-chef/", 404),
        ("/api/players/1/ratings/chess/", 404),
        ("/api/players/?kind=robot", 400),
        ("/api/matches/?status=lost", 400),
        ("/api/matches/?player=abc", 400),
        ("/api/matches/?cursor=garbage", 404),
    ],
)
def test_bad_reads_answer_json_errors(db: None, url: str, status: int) -> None:
    response = APIClient().get(url)
    assert response.status_code == status, (url, response.content)
    assert response["Content-Type"] == "application/json"
    assert response.json()


def test_a_match_without_a_record_yet_says_so(client: APIClient, bots: list[int]) -> None:
    created = _post(client, {"game": "part-du-chef", "kind": "friendly", "players": bots}).json()
    response = APIClient().get(f"/api/matches/{created['id']}/record/")
    assert response.status_code == 404
    assert "has no record yet (status queued)" in response.json()["detail"]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"player": 1, "game": "chess", "table_size": 2}, "unknown game 'chess'"),
        ({"player": 1, "game": "part-du-chef", "table_size": 7}, "La Part du Chef is played by 2 to 5 players, not 7"),
        ({"player": 999999, "game": "part-du-chef", "table_size": 2}, "no player 999999"),
    ],
)
def test_arena_entries_refuse_bad_input(db: None, body: dict, message: str) -> None:
    staff = User.objects.create_user("root", password="pw-root-123", is_staff=True)
    api = APIClient()
    api.force_authenticate(staff)
    response = api.post("/api/arena/entries/", body, format="json")
    assert response.status_code == 400
    assert message in response.json()["detail"]


def test_nobody_enters_someone_elses_bot_in_the_arena(client: APIClient) -> None:
    response = client.post("/api/arena/entries/", {"player": 1, "game": "part-du-chef", "table_size": 2}, format="json")
    assert response.status_code == 400
    # Player 1 is a built-in bot: it is told why it cannot be entered, not that it does not exist.
    assert "is a built-in bot: it joins the bots' arena by itself" in response.json()["detail"]
