"""One create path for every kind of match: one validation, one answer to "may this player sit here?", the seed rule."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from arena.errors import RequestError, UnplayablePlayer
from arena.matches import create_match
from arena.models import Match, Player
from arena.people import person_of
from arena.seeds import MAX_SEED
from games.part_du_chef import State
from matchmaking.entries import enter_arena
from play.engine import create_live_match, load_state
from play.models import LiveGame


@pytest.fixture
def alice(db: None) -> APIClient:
    api = APIClient()
    api.force_authenticate(User.objects.create_user("alice", password="pw-alice-123"))
    return api


def test_a_creator_may_give_the_seed_of_a_match_of_bots_only(alice: APIClient, make_bots) -> None:
    bots = make_bots(3)
    body = {"game": "part-du-chef", "kind": "friendly", "players": [b.id for b in bots], "seed": 1234}
    response = alice.post("/api/matches/", body, format="json")
    assert response.status_code == 201, response.content
    assert Match.objects.get(pk=response.json()["id"]).seed == 1234


def test_a_seed_given_for_a_match_with_a_person_is_refused_naming_the_person(alice: APIClient, make_bots) -> None:
    bot = make_bots(1)[0]
    cook = Player.objects.create(name="cook", kind=Player.Kind.HUMAN)
    body = {"game": "part-du-chef", "kind": "friendly", "players": [bot.id, cook.id], "seed": 7}
    response = alice.post("/api/matches/", body, format="json")
    assert response.status_code == 400
    assert response.json()["detail"] == (
        f"a seed may be given only when every seat is a bot; player {cook.id} (cook) is a person, "
        "so the server draws the seed"
    )
    assert Match.objects.count() == 0


@pytest.mark.django_db
def test_a_table_with_a_person_gets_a_seed_drawn_by_the_server(make_bots) -> None:
    user = User.objects.create_user("bob", password="pw-bob-123")
    players = [person_of(user), *make_bots(2)]
    with pytest.raises(RequestError, match="a seed may be given only when every seat is a bot"):
        create_match(game="part-du-chef", kind="friendly", players=players, seed=29, live=True)
    tables = [create_live_match(game="part-du-chef", kind=Match.Kind.FRIENDLY, players=players) for _ in range(3)]
    # Drawn afresh for each table over the whole range (53 bits: three draws never meet), and the deal
    # played at each is that seed's.
    seeds = [table.seed for table in tables]
    assert len(set(seeds)) == 3 and all(0 <= seed <= MAX_SEED for seed in seeds)
    for table in tables:
        live = LiveGame.objects.get(pk=table.pk)
        assert live.record["seed"] == table.seed
        assert load_state(live).pizzas == State.new(3, table.seed).pizzas
    # Nobody at the table learns it while the game is on: the API holds it back.
    api = APIClient()
    api.force_authenticate(user)
    shown = api.get(f"/api/matches/{tables[0].id}/").json()
    assert (shown["seed"], shown["held_back"]) == (None, True)


@pytest.mark.django_db
def test_a_person_gets_the_same_refusal_from_every_path_into_a_bot_match(make_bots) -> None:
    cook = Player.objects.create(name="cook", kind=Player.Kind.HUMAN)
    bot = make_bots(1)[0]
    message = f"player {cook.id} (cook) is a person; only bots can be seated in matches played by the service"
    with pytest.raises(UnplayablePlayer) as created:
        create_match(game="part-du-chef", kind="friendly", player_ids=[bot.id, cook.id])
    with pytest.raises(UnplayablePlayer) as entered:
        enter_arena(player_id=cook.id, game="part-du-chef", table_size=2, entered_by=None)
    assert str(created.value) == str(entered.value) == message


@pytest.mark.django_db
def test_every_kind_of_match_checks_seat_count_and_a_player_seated_twice(make_bots) -> None:
    bot = make_bots(1)[0]
    user = User.objects.create_user("dan", password="pw-dan-123")
    with pytest.raises(RequestError, match="is played by 2 to 5 players, not 1"):
        create_live_match(game="part-du-chef", kind=Match.Kind.FRIENDLY, players=[person_of(user)])
    with pytest.raises(RequestError, match=f"player {bot.id} is seated twice"):
        create_match(game="part-du-chef", kind="friendly", players=[bot, bot], seed=1)
    with pytest.raises(RequestError, match="bad options: unknown option 'pepper'"):
        create_match(game="part-du-chef", kind="friendly", players=make_bots(2), options={"pepper": 1})
