"""Workers and beat outlive Redis restarts, and every queued match is still played, rated once.

The test runs a redis-server of its own (never the machine's shared one) as the broker and cache of
two workers and beat, and restarts it six times while they play queued rated matches, each time
once more matches have finished since the last restart. That Redis keeps nothing across a restart,
so the queued and unacknowledged messages are lost with it: the sweeper sends the matches' tasks
again once their resend deadline passes.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from celery import current_app

from arena.matches import create_match
from arena.models import Match, MatchSeat
from common.task_names import TaskName
from ratings.ledger import verify_ratings
from ratings.models import Rating, RatingChange
from tests.support import PrivateRedis, wait_until

MATCHES = 60
RESTARTS = 6


@pytest.fixture
def private_redis() -> Iterator[PrivateRedis]:
    server = PrivateRedis()
    server.start()
    yield server
    server.stop()


@pytest.mark.system
def test_workers_and_beat_outlive_six_redis_restarts_and_every_match_is_played_once(
    workers, make_bots, private_redis
) -> None:
    players = make_bots(10)
    environment = {
        "REDIS_URL": private_redis.url,
        "ARENA_SWEEP_SECONDS": "1",
        "ARENA_QUEUED_RESEND_SECONDS": "3",
        "ARENA_MATCH_LEASE_SECONDS": "30",
        "ARENA_BOT_MOVE_DELAY_SECONDS": "0.04",
    }
    # One worker as `make run` starts it (gossip, mingle), one as the other tests do.
    workers.start("restarts-a", gossip=True, **environment)
    workers.start("restarts-b", **environment)
    workers.start_beat("restarts-beat", **environment)
    matches = [
        create_match(
            game="part-du-chef",
            kind="ranked",
            player_ids=[players[(index + step) % len(players)].id for step in range(2 + index % 3)],
            seed=index,
            dispatch=False,
        )
        for index in range(MATCHES)
    ]
    ids = [match.id for match in matches]
    with current_app.connection_for_write(private_redis.url) as broker:
        for match_id in ids:
            current_app.send_task(TaskName.PLAY_MATCH, args=[match_id], queue=workers.queue, connection=broker)

    def finished() -> int:
        return Match.objects.filter(pk__in=ids, status="finished").count()

    for _ in range(RESTARTS):
        before = finished()
        # Under load: each restart comes once the workers have finished more matches since the last.
        wait_until(lambda: finished() >= min(MATCHES, before + 3), 120, "more matches to finish", workers.tail())  # noqa: B023
        private_redis.restart()
    wait_until(lambda: finished() == MATCHES, 150, "every match to finish", workers.tail())
    assert private_redis.restarts == RESTARTS
    assert [process.poll() for process in workers.processes] == [None] * 3, workers.tail()
    assert not Match.objects.filter(pk__in=ids, status="failed").exists()
    assert RatingChange.objects.filter(match_id__in=ids).count() == MatchSeat.objects.filter(match_id__in=ids).count()
    # Ratings, games, deviations and times of the last game all follow from the ledger (raises otherwise).
    replayed = verify_ratings("part-du-chef")
    assert {player: state.games for player, state in replayed.items()} == dict(
        Rating.objects.filter(game="part-du-chef", games__gt=0).values_list("player_id", "games")
    )
