"""The game log beside the table: every decision in words, the house's moves for a person said as such,
a summary when a pizza is shared out, and a status line saying who must do what."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from arena.builtin import ensure_builtin_bots
from arena.models import Match, Player
from arena.people import person_of
from play.engine import create_live_match, play_turn
from play.models import LiveGame


@pytest.fixture
def table(db: None) -> Any:
    """Ann (seat 1, the chef of pizza 1) and the house bot greedy at a friendly table, seed 29."""

    ensure_builtin_bots(Player)
    ann = person_of(User.objects.create_user("ann", password="a-long-passphrase"))
    match = create_live_match(
        game="part-du-chef", kind=Match.Kind.FRIENDLY, players=[ann, Player.objects.get(name="greedy")], seed=29
    )
    client = Client()
    client.force_login(ann.owner)
    return match, client


def _log(client: Client, match_id: int) -> list[str]:
    body = client.get(f"/play/{match_id}/panel/").content.decode()
    found = re.search(r'<ul class="game-log"[^>]*>(.*?)</ul>', body, re.S)
    assert found is not None
    return [re.sub(r"<[^>]+>", "", item).strip() for item in re.findall(r"<li[^>]*>(.*?)</li>", found[1], re.S)]


def _status(client: Client, match_id: int) -> str:
    body = client.get(f"/play/{match_id}/panel/").content.decode()
    found = re.search(r'id="status-line"[^>]*>(.*?)</p>', body, re.S)
    assert found is not None
    return " ".join(re.sub(r"<[^>]+>", "", found[1]).split())


def test_the_log_tells_each_move_and_the_status_line_who_must_do_what(
    table: Any, django_capture_on_commit_callbacks: Any
) -> None:
    match, ann = table
    assert _status(ann, match.id) == "Your turn: cut pizza 1 into 2 portions."
    assert _log(ann, match.id) == ["Nothing played yet."]
    with django_capture_on_commit_callbacks(execute=True):
        ann.post(f"/play/{match.id}/", {"turn": 0, "phase": "cut", "gap": ["4", "9"]})
        assert _status(ann, match.id) == "Waiting for greedy to take a portion (2 left)."
        assert play_turn(match.id, 1) == "played"
    log = _log(ann, match.id)
    # Gaps are numbered from 1 in words, as on the pizza (the form's values stay the rules' 0-based positions).
    assert log[-1] == "ann (you) cut pizza 1 into 2 portions at gaps 5, 10."
    assert log[0].startswith("greedy took portion ")
    assert _status(ann, match.id) == "Your turn: take the last portion."


def test_a_move_the_house_took_when_the_clock_ran_out_is_told_and_a_finished_pizza_summed_up(
    table: Any, django_capture_on_commit_callbacks: Any
) -> None:
    match, ann = table
    with django_capture_on_commit_callbacks(execute=True):
        # Ann lets her clock run out: the house cuts for her; greedy takes; her clock runs out again.
        for turn in range(3):
            game = LiveGame.objects.get(pk=match.pk)
            assert play_turn(match.id, turn, now=game.deadline) == "played"
    log = _log(ann, match.id)
    assert log[-1].startswith("ann (you) cut pizza 1 into 2 portions at gaps ")
    assert log[-1].endswith("(The clock ran out: the house played this for ann (you).)")
    assert "(The clock ran out" not in log[-2]  # greedy's own take
    assert log[0].startswith("Pizza 1 is shared out. Scores so far: ")
    assert log[1].endswith("(The clock ran out: the house played this for ann (you).)")


def test_the_log_speaks_norwegian_on_norwegian_pages(table: Any, django_capture_on_commit_callbacks: Any) -> None:
    match, ann = table
    with django_capture_on_commit_callbacks(execute=True):
        ann.post(f"/play/{match.id}/", {"turn": 0, "phase": "cut", "gap": ["4", "9"]})
        play_turn(match.id, 1)
    body = ann.get(f"/play/{match.id}/panel/", HTTP_ACCEPT_LANGUAGE="nb").content.decode()
    assert "ann (deg) delte pizza 1 i 2 porsjoner ved mellomrommene 5, 10." in body
    assert "greedy tok porsjon " in body and "Din tur: ta " in body
