"""Friendly matches are played and recorded but never touch a rating."""

from __future__ import annotations

import pytest
from django.db import IntegrityError

from arena.matches import create_match
from arena.models import Match
from ratings.models import Rating, RatingChange
from results.batches import run_match


@pytest.mark.django_db
def test_a_friendly_match_never_touches_ratings(make_bots) -> None:
    players = make_bots(3)
    ranked = create_match(game="part-du-chef", kind="ranked", player_ids=[p.id for p in players], seed=7)
    assert run_match(ranked.id) == "finished"
    before = {r.player_id: (r.rating, r.games) for r in Rating.objects.all()}
    changes = RatingChange.objects.count()

    friendly = create_match(game="part-du-chef", kind="friendly", player_ids=[p.id for p in players], seed=8)
    assert friendly.rated is False
    assert run_match(friendly.id) == "finished"

    friendly.refresh_from_db()
    assert friendly.status == Match.Status.FINISHED
    assert friendly.record["format"] == "part-du-chef/1"
    seats = list(friendly.seats.order_by("seat"))
    assert [s.score for s in seats] == [score["total"] for score in friendly.record["scores"]]
    assert [s.rank for s in seats] == friendly.record["ranks"]
    assert all(s.rating_before is None and s.rating_after is None for s in seats)
    assert {r.player_id: (r.rating, r.games) for r in Rating.objects.all()} == before
    assert RatingChange.objects.count() == changes
    assert not RatingChange.objects.filter(match=friendly).exists()


@pytest.mark.django_db
def test_a_friendly_match_between_newcomers_creates_no_rating(make_bots) -> None:
    players = make_bots(2)
    match = create_match(game="part-du-chef", kind="friendly", player_ids=[p.id for p in players])
    run_match(match.id)
    assert not Rating.objects.filter(player__in=players).exists()


@pytest.mark.django_db
def test_the_database_refuses_a_rated_friendly_match(make_bots) -> None:
    with pytest.raises(IntegrityError):
        Match.objects.create(game="part-du-chef", kind="friendly", rated=True, seed=1)
