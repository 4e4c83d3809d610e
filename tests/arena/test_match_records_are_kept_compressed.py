"""A match's record is kept compressed and reads back, and is served, exactly as the jsonb column gave it."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from rest_framework.test import APIClient

from arena.matches import create_match
from arena.models import Match
from arena.packed import jsonb_order, pack, unpack
from games.part_du_chef.record import discrepancies
from results.batches import run_match


def _as_jsonb(value: object) -> object:
    """What a jsonb column gives back for `value`: its text, decoded in jsonb's key order."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT %s::jsonb::text", [json.dumps(value)])
        return json.loads(cursor.fetchone()[0])


def _played(make_bots) -> Match:
    players = make_bots(4)
    match = create_match(game="part-du-chef", kind="ranked", player_ids=[p.id for p in players], seed=77)
    assert run_match(match.id) == "finished"
    return Match.objects.get(pk=match.id)


def _stored(match_id: int) -> bytes:
    with connection.cursor() as cursor:
        cursor.execute("SELECT record FROM arena_match WHERE id = %s", [match_id])
        return bytes(cursor.fetchone()[0])


@pytest.mark.django_db
def test_a_committed_record_reads_back_and_is_served_byte_for_byte_as_jsonb_gave_it(make_bots) -> None:
    match = _played(make_bots)
    record = match.record
    as_jsonb = _as_jsonb(record)
    assert record == as_jsonb
    assert json.dumps(record) == json.dumps(as_jsonb)  # the same keys in the same order, all the way down
    served = APIClient().get(f"/api/matches/{match.id}/record/")
    assert served.content == json.dumps(as_jsonb, separators=(",", ":")).encode()
    assert discrepancies(served.json()) == []
    # Kept compressed: a fraction of its JSON text.
    stored = _stored(match.id)
    assert stored[:1] == b"\x78"
    assert len(stored) * 3 < len(json.dumps(record))


@pytest.mark.django_db
def test_a_record_written_before_the_compression_reads_alike(make_bots) -> None:
    match = _played(make_bots)
    record = match.record
    # What the migration left of a jsonb record: its text, uncompressed.
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE arena_match SET record = convert_to(%s::jsonb::text, 'UTF8') WHERE id = %s",
            [json.dumps(record), match.id],
        )
    assert _stored(match.id)[:1] == b"{"
    again = Match.objects.get(pk=match.id).record
    assert json.dumps(again) == json.dumps(record)
    assert APIClient().get(f"/api/matches/{match.id}/record/").json() == record


def test_keys_are_ordered_as_jsonb_orders_them_shorter_first_then_bytewise() -> None:
    value = {"ranks": [1], "seed": 2, "arena": {"placings": [1], "forfeited": []}, "é": 1, "zz": {"b": 1, "a": 2}}
    ordered = jsonb_order(value)
    assert list(ordered) == ["zz", "é", "seed", "arena", "ranks"]
    assert list(ordered["arena"]) == ["placings", "forfeited"]
    assert unpack(pack(value)) == value
    assert json.dumps(unpack(pack(value))) == json.dumps(ordered)
