"""Game over at the table: your place, the score breakdown in placing order, ratings before and after,
the replay, play again and queue again; and while a game runs, the header and the home page lead to it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from arena.models import Match, MatchSeat
from arena.people import person_of
from play.engine import create_live_match, play_turn, resign
from play.models import LiveGame


def _client_of(name: str) -> Client:
    client = Client()
    client.force_login(User.objects.get(username=name))
    return client


def test_the_finished_table_says_your_place_and_the_standings_in_placing_order(finished_match: Any) -> None:
    seats = {s.player.name: s for s in MatchSeat.objects.filter(match=finished_match).select_related("player")}
    ann = _client_of("ann")
    body = ann.get(f"/play/{finished_match.id}/").content.decode()
    place = seats["ann"].rank
    # Ann's clock ran out until the house took her seat: she forfeited, and is told so.
    assert seats["ann"].forfeited
    expected = f"You left the game: you forfeit and are ranked number {place} of 3."
    assert f'<h3 id="over-title">{expected}</h3>' in body
    standings = body[
        body.index('class="board standings"') : body.index("</table>", body.index('class="board standings"'))
    ]
    rank = r'<td class="rank">\d[^<]*(?:<span class="tag">forfeit</span>)?</td>'
    names = re.findall(rank + r'<td class="who">(\w+)', standings)
    assert names == sorted(seats, key=lambda n: (seats[n].rank, seats[n].seat))
    ann_seat = seats["ann"]
    assert f"{ann_seat.rating_before:.0f} → {ann_seat.rating_after:.0f}" in standings
    assert f'href="/matches/{finished_match.id}/"' in body
    assert 'name="guests" value="ben, greedy"' in body and 'name="table_size" value="3"' in body


def test_the_replay_lists_final_scores_in_placing_order(finished_match: Any) -> None:
    order = [
        s.player.name
        for s in MatchSeat.objects.filter(match=finished_match).select_related("player").order_by("rank", "seat")
    ]
    body = Client().get(f"/matches/{finished_match.id}/").content.decode()
    final = body[body.index('id="final-title"') :]
    positions = [final.index(f"<td>{name}</td>") for name in order]
    assert positions == sorted(positions)


@pytest.mark.django_db
def test_the_header_and_home_page_lead_to_the_game_in_progress(django_capture_on_commit_callbacks: Any) -> None:
    ann, ben = (person_of(User.objects.create_user(n, password="a-long-passphrase")) for n in ("ann", "ben"))
    client = _client_of("ann")
    assert "Your game: table" not in client.get("/").content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        match = create_live_match(game="part-du-chef", kind=Match.Kind.FRIENDLY, players=[ann, ben], seed=29)
    home = client.get("/").content.decode()
    link = (
        f'<a class="playing" href="/play/{match.id}/" data-table="{match.id}" aria-label="Your game: table {match.id}">'
        f'<span class="long">Your game: table {match.id}</span><span class="short">Table {match.id}</span></a>'
    )
    assert link in home
    assert f"Back to your game in progress (table {match.id})" in home
    assert client.get("/me/").url == f"/players/{ann.id}/"
    with django_capture_on_commit_callbacks(execute=True):
        resign(match.id, ann)
        resign(match.id, ben)

    with django_capture_on_commit_callbacks(execute=True):
        while (game := LiveGame.objects.get(pk=match.pk)).to_act is not None:
            play_turn(match.id, game.turn)
    assert "Your game: table" not in client.get("/").content.decode()
