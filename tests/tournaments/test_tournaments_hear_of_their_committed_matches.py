"""A committed batch tells each tournament it holds matches of, once, after one look-up for the whole batch."""

from __future__ import annotations

from arena.models import Match
from tournaments.models import TournamentGame
from tournaments.receivers import tournament_matches_done
from tournaments.tasks import start_tournament


def _started(api, make_bots, name: str) -> int:
    body = {"name": name, "format": "round_robin", "table_size": 2, "rated": False}
    tid = api.post("/api/tournaments/", body, format="json").json()["id"]
    for bot in make_bots(2, engine="greedy", prefix=name):
        assert api.post(f"/api/tournaments/{tid}/entries/", {"player": bot.pk}).status_code == 201
    assert start_tournament.run(tid)
    return tid


def test_a_batch_with_two_tournaments_matches_and_others_advances_each_tournament_once(
    client_for, make_bots, django_assert_num_queries, django_capture_on_commit_callbacks
):
    boss = client_for("boss")
    first, second = _started(boss, make_bots, "first"), _started(boss, make_bots, "second")
    ours = list(Match.objects.filter(pk__in=TournamentGame.objects.values("match_id")).order_by("id"))
    others = [Match.objects.create(game="part-du-chef", kind="friendly", rated=False, seed=seed) for seed in (1, 2)]
    assert {g.tournament_id for g in TournamentGame.objects.filter(match__in=ours)} == {first, second}
    with django_capture_on_commit_callbacks() as sent, django_assert_num_queries(1):
        tournament_matches_done(Match, matches=[*ours, *others])
    assert len(sent) == 2  # one advance task for each tournament, sent on commit
    with django_capture_on_commit_callbacks() as sent, django_assert_num_queries(1):
        tournament_matches_done(Match, matches=others)
    assert sent == []
