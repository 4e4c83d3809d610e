"""A claimer waits only for its own match, holding no other: claimers never wait on each other in a circle.

Before, one UPDATE locked the other queued matches a batch takes (SKIP LOCKED) and only then waited
for the task's own match; two claimers whose own matches were each other's candidates deadlocked
("deadlock detected ... while updating tuple in relation arena_match").
"""

from __future__ import annotations

import threading

import psycopg
from django.db import connection

from arena.matches import create_match
from arena.models import Match
from tests.claims import claim_batch
from tests.support import wait_until


def _dsn() -> str:
    db = connection.settings_dict
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgresql://{auth}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


def _waiting_for_a_lock(pid: int) -> bool:
    with psycopg.connect(_dsn(), autocommit=True) as probe:
        row = probe.execute("SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", [pid]).fetchone()
    return row is not None and row[0] == "Lock"


def test_a_claimer_waiting_for_its_own_match_holds_none_of_the_others(transactional_db, make_bots) -> None:
    players = make_bots(2)
    matches = [
        create_match(game="part-du-chef", kind="ranked", player_ids=[p.id for p in players], seed=seed)
        for seed in range(5)
    ]
    own = matches[3]  # not the first row a scan meets: the old statement locked candidates before reaching it
    result: list[list[tuple[int, int]]] = []
    claimer_pid: list[int] = []

    def claim() -> None:
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                claimer_pid.append(int(cursor.fetchone()[0]))
            result.append(claim_batch(own.id, 4))
        finally:
            connection.close()

    # Another transaction holds the claimer's own match (as another claimer's candidate would).
    with psycopg.connect(_dsn()) as holder:
        holder.execute("SELECT id FROM arena_match WHERE id = %s FOR UPDATE", [own.id])
        thread = threading.Thread(target=claim)
        thread.start()
        wait_until(lambda: bool(claimer_pid) and _waiting_for_a_lock(claimer_pid[0]), 60, "the claimer to wait")
        # While it waits, every other queued match is free: another claimer could take them all.
        others = [m.id for m in matches if m.id != own.id]
        with psycopg.connect(_dsn()) as other:
            taken = other.execute(
                "SELECT id FROM arena_match WHERE id = ANY(%s) ORDER BY id FOR UPDATE NOWAIT", [others]
            ).fetchall()
            assert [row[0] for row in taken] == others
            other.rollback()
        holder.rollback()
    thread.join(60)
    assert result == [[(m.id, 1) for m in matches]]
    assert set(Match.objects.values_list("status", flat=True)) == {"running"}
