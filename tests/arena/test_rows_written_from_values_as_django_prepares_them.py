"""`arena.rows.update_statement` skips a field's `get_prep_value` only where it would return the value unchanged."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from django.db.models import TextChoices

from arena.models import Match, MatchSeat
from arena.rows import update_statement


class _Status(TextChoices):
    FINISHED = "finished"


def _written(model: type[Any], row: Any, fields: list[str]) -> dict[str, Any]:
    _, params = update_statement(model, [row], fields)
    return dict(json.loads(params[0])[0])


def _prepared(model: type[Any], row: Any, fields: list[str]) -> dict[str, Any]:
    """What Django's own `get_prep_value` makes of every field, through the same JSON."""
    values = [model._meta.pk.get_prep_value(row.pk)]
    values += [model._meta.get_field(name).get_prep_value(getattr(row, name)) for name in fields]
    names = ["pk", *[f"v{index}" for index in range(len(fields))]]
    return dict(zip(names, json.loads(json.dumps(values, default=str)), strict=True))


def test_a_seats_plain_values_are_written_as_django_would_prepare_them() -> None:
    seat = MatchSeat(pk=3, seat=1, score=17, rank=2, forfeited=False, forfeit_reason="", rating_before=1500.25)
    fields = ["score", "rank", "forfeited", "forfeit_reason", "rating_before", "rating_after"]
    assert _written(MatchSeat, seat, fields) == _prepared(MatchSeat, seat, fields)
    assert _written(MatchSeat, seat, fields)["v5"] is None


def test_values_of_other_types_still_go_through_the_field() -> None:
    # An int for a float column, a str for an integer one, a bool for an integer one: each converted by the field.
    seat = MatchSeat(pk=3, score="17", rank=True, forfeited=False, forfeit_reason="", rating_before=1500)
    written = _written(MatchSeat, seat, ["score", "rank", "rating_before"])
    assert written == {"pk": 3, "v0": 17, "v1": 1, "v2": 1500.0}
    assert type(written["v2"]) is float


def test_times_and_text_choices_are_written_as_django_would_prepare_them() -> None:
    finished = datetime(2026, 12, 4, 1, 2, 3, 456789, tzinfo=UTC)
    match = Match(pk=9, status=_Status.FINISHED, error="", finished_at=finished, lease_expires_at=None)
    written = _written(Match, match, ["status", "error", "finished_at", "lease_expires_at"])
    assert written == {"pk": 9, "v0": "finished", "v1": "", "v2": finished.isoformat(), "v3": None}
