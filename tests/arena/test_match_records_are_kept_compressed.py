"""A match's record is kept compressed and reads back, and is served, exactly as the jsonb column gave it."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from rest_framework.test import APIClient

from arena.matches import create_match
from arena.models import Match
from arena.packed import EngineRecord, jsonb_order, pack, unpack
from games.part_du_chef.record import DERIVED_FIELDS, discrepancies
from results.batches import run_match
from tests.games.golden.make_golden import PATH as GOLDEN


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
    # Kept compressed and without what follows from its seed and actions: a fraction of its JSON text.
    stored = _stored(match.id)
    assert stored[:1] == b"\x01"
    assert len(stored) * 8 < len(json.dumps(record))


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


@pytest.mark.django_db
def test_a_record_kept_whole_and_compressed_reads_alike(make_bots) -> None:
    match = _played(make_bots)
    record = match.record
    # As records were kept before the engine's were kept without their derived fields.
    with connection.cursor() as cursor:
        cursor.execute("UPDATE arena_match SET record = %s WHERE id = %s", [pack(dict(record)), match.id])
    assert _stored(match.id)[:1] == b"\x78"
    assert json.dumps(Match.objects.get(pk=match.id).record) == json.dumps(record)


@pytest.mark.parametrize("marianne", [False, True])
def test_an_engine_record_kept_without_its_derived_fields_reads_back_byte_for_byte(marianne: bool) -> None:
    # The golden games (steals, swaps, chilis, 2 to 5 players), with the fields the arena adds.
    for line in GOLDEN.read_text().splitlines():
        record = json.loads(line)
        if record["options"]["marianne"] is not marianne:
            continue
        record["arena"] = {"placings": record["ranks"], "forfeited": [], "decided_by": ["player"] * 3}
        record["match"] = 12
        kept = pack(EngineRecord(record))
        assert kept is not None and kept[:1] == b"\x01"
        assert len(kept) * 2 < len(pack(record) or b"")
        assert json.dumps(unpack(kept)) == json.dumps(unpack(pack(record))) == json.dumps(jsonb_order(record))


def test_only_an_engine_record_is_kept_without_its_derived_fields() -> None:
    # Any other value, even one shaped like a record, is kept whole: nothing says its fields follow.
    record = json.loads(GOLDEN.read_text().splitlines()[0])
    record["scores"] = None
    assert (pack(record) or b"")[:1] == b"\x78"
    assert unpack(pack(record)) == record
    other = EngineRecord({"format": "another/1", **{field: [1] for field in DERIVED_FIELDS}})
    assert unpack(pack(other)) == other


def test_keys_are_ordered_as_jsonb_orders_them_shorter_first_then_bytewise() -> None:
    value = {"ranks": [1], "seed": 2, "arena": {"placings": [1], "forfeited": []}, "é": 1, "zz": {"b": 1, "a": 2}}
    ordered = jsonb_order(value)
    assert list(ordered) == ["zz", "é", "seed", "arena", "ranks"]
    assert list(ordered["arena"]) == ["placings", "forfeited"]
    assert unpack(pack(value)) == value
    assert json.dumps(unpack(pack(value))) == json.dumps(ordered)
