"""A model instance made from a row's raw values (`arena.rows.instance`) is the one a queryset would make."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from django.db.models import signals

from arena.models import Match, Player
from arena.packed import pack
from arena.rows import instance


def _raw_match() -> list[Any]:
    values: dict[str, Any] = {
        "id": 7,
        "game": "part-du-chef",
        "kind": "ranked",
        "rated": True,
        "options": json.dumps({"marianne": True}),
        "seed": 42,
        "status": "running",
        "attempt": 2,
        "lease_expires_at": datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC),
        "resends": 1,
        "unsent": False,
        "record": pack({"format": "x", "ranks": [1, 2]}),
        "error": "",
        "created_by_id": None,
        "created_at": datetime(2026, 1, 1, tzinfo=UTC),
        "started_at": datetime(2026, 1, 2, tzinfo=UTC),
        "finished_at": None,
        "deal_group": None,
    }
    return [values[field.attname] for field in Match._meta.concrete_fields]


def _fields(made: Match) -> dict[str, Any]:
    return {field.attname: getattr(made, field.attname) for field in Match._meta.concrete_fields}


def test_a_match_made_from_raw_values_equals_the_one_from_db_makes() -> None:
    raw = _raw_match()
    made = instance(Match, raw)
    names = [field.attname for field in Match._meta.concrete_fields]
    converted = [
        value if getattr(field, "from_db_value", None) is None else field.from_db_value(value, None, None)  # type: ignore[attr-defined]
        for field, value in zip(Match._meta.concrete_fields, raw, strict=True)
    ]
    expected = Match.from_db("default", names, converted)
    assert _fields(made) == _fields(expected)
    assert made.options == {"marianne": True}
    assert made.record == {"format": "x", "ranks": [1, 2]}
    assert (made._state.adding, made._state.db) == (False, "default")
    assert made.get_deferred_fields() == set()
    assert made.pk == 7


def test_a_receiver_of_model_init_signals_still_hears_every_instance() -> None:
    heard: list[object] = []

    def receiver(sender: object, instance: object, **kwargs: object) -> None:
        heard.append(instance)

    raw = [None] * len(Player._meta.concrete_fields)
    raw[0] = 3
    signals.post_init.connect(receiver, sender=Player)
    try:
        made = instance(Player, raw)
    finally:
        signals.post_init.disconnect(receiver, sender=Player)
    assert heard == [made]
    assert made.pk == 3
