"""/api/tournaments/: round robin and swiss, duplicate deals, frozen versions, standings, size limits."""

from __future__ import annotations

import doctest
from collections import defaultdict
from datetime import timedelta

from django.utils import timezone

from arena.models import Match
from ratings.models import RatingChange
from results.tasks import play_match
from submissions import actions as submissions
from submissions.models import BotSeat, BotVersion
from tests.submitted_bots import STARTER_KITS, zipped
from tournaments import schedule, standings
from tournaments.actions import advance
from tournaments.models import Tournament, TournamentGame
from tournaments.tasks import start_tournament, tick

KIT = (STARTER_KITS / "python" / "bot.py").read_bytes()


def _create(api, **fields):
    body = {"name": "cup", "format": "round_robin", "table_size": 3, "rated": False, **fields}
    return api.post("/api/tournaments/", body, format="json")


def _play_round(tournament_id: int) -> None:
    for match_id in TournamentGame.objects.filter(tournament_id=tournament_id).values_list("match_id", flat=True):
        play_match.run(match_id)


def test_the_schedule_and_standings_examples_hold():
    for module in (schedule, standings):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__


def test_creating_a_tournament_checks_its_shape_and_only_staff_create_rated_ones(client_for):
    alice, boss = client_for("alice"), client_for("boss")
    refused = _create(alice, rated=True)
    assert refused.status_code == 400 and "only staff may create rated tournaments" in refused.json()["detail"]
    assert _create(alice, table_size=6).status_code == 400
    assert _create(alice, format="knockout").status_code == 400
    assert "bad options" in _create(alice, options={"spice": True}).json()["detail"]
    created = _create(boss, rated=True, duplicate=True, games_per_table=2)
    assert created.status_code == 201, created.json()
    body = created.json()
    assert (body["status"], body["rated"], body["duplicate"], body["rounds"]) == ("registration", True, True, 1)
    assert body["progress"] == {"done": 0, "total": 0, "failed": 0} and body["standings"] == []
    assert client_for("bob").get("/api/tournaments/").json()["results"][0]["id"] == body["id"]


def test_a_round_robin_above_the_size_limit_is_refused_with_a_clear_message(client_for, make_bots, settings):
    settings.ARENA_TOURNAMENT_MAX_GAMES = 10
    boss = client_for("boss")
    tournament = _create(boss, table_size=2, duplicate=True).json()
    bots = make_bots(4, engine="random")
    for bot in bots[:3]:  # 3 tables of 2, 2 rotations each: 6 games
        assert boss.post(f"/api/tournaments/{tournament['id']}/entries/", {"player": bot.pk}).status_code == 201
    refused = boss.post(f"/api/tournaments/{tournament['id']}/entries/", {"player": bots[3].pk})
    assert refused.status_code == 400
    assert refused.json()["detail"] == (
        "a round robin of 4 entries at tables of 2 would need 12 games; the limit is 10 "
        "(fewer entries, games per table or rounds)"
    )
    assert boss.get(f"/api/tournaments/{tournament['id']}/").json()["progress"]["total"] == 6


def test_entries_are_ones_own_bots_and_registration_closes_at_the_start(client_for, submit, make_bots):
    alice, bob, boss = client_for("alice"), client_for("bob"), client_for("boss")
    mine = submit("entrant", KIT)
    tournament = _create(alice, table_size=2).json()
    url = f"/api/tournaments/{tournament['id']}/entries/"
    assert bob.post(url, {"player": mine.pk}).status_code == 400  # not bob's bot
    built_in = make_bots(1)[0]
    refused = bob.post(url, {"player": built_in.pk})  # built-ins: the organiser or staff
    assert refused.status_code == 400 and "only the tournament's organiser" in refused.json()["detail"]
    assert alice.post(url, {"player": built_in.pk}).status_code == 201
    entry = alice.post(url, {"player": mine.pk}).json()
    assert boss.post(url, {"player": make_bots(1, prefix="house")[0].pk}).status_code == 201
    assert bob.delete(f"{url}{entry['id']}/").status_code == 404
    assert bob.post(f"/api/tournaments/{tournament['id']}/start/").status_code == 404
    assert alice.post(f"/api/tournaments/{tournament['id']}/start/").status_code == 202
    assert start_tournament.run(tournament["id"]) is True
    assert start_tournament.run(tournament["id"]) is False  # claimed once
    closed = alice.post(url, {"player": mine.pk})
    assert closed.status_code == 400 and "registration is closed" in closed.json()["detail"]
    assert alice.delete(f"{url}{entry['id']}/").status_code == 400


def test_a_duplicate_round_robin_replays_each_deal_in_every_rotation(client_for, submit, make_bots):
    boss, alice = client_for("boss"), client_for("alice")
    kit = submit("kit-entrant", KIT)
    house = make_bots(3, engine="greedy", prefix="house")
    tournament = _create(boss, name="duplicate cup", table_size=3, duplicate=True, rated=True).json()
    tid = tournament["id"]
    assert alice.post(f"/api/tournaments/{tid}/entries/", {"player": kit.pk}).status_code == 201
    for bot in house:
        assert boss.post(f"/api/tournaments/{tid}/entries/", {"player": bot.pk}).status_code == 201
    assert start_tournament.run(tid)
    frozen = BotVersion.objects.get(bot=kit, number=1)
    # A version activated after the start does not play in this tournament.
    newer = submissions.add_version(kit, upload=("v2.zip", zipped({"main.py": KIT})))
    assert submissions.run_validation(newer.id) == "active"

    _play_round(tid)
    assert advance(tid) == "finished"
    body = client_for("bob").get(f"/api/tournaments/{tid}/").json()
    assert body["status"] == "finished"
    assert body["progress"] == {"done": 12, "total": 12, "failed": 0}  # 4 tables x 3 rotations

    games = list(TournamentGame.objects.filter(tournament_id=tid).select_related("match"))
    by_deal = defaultdict(list)
    for game in games:
        by_deal[(game.table, game.deal)].append(game)
    assert len(by_deal) == 4
    for rotations in by_deal.values():
        assert len({game.match.seed for game in rotations}) == 1  # the same deal...
        seatings = {tuple(game.entries) for game in rotations}
        first = rotations[0].entries
        assert seatings == {tuple(first[i:] + first[:i]) for i in range(3)}  # ...in every rotation
    assert {(g.match.kind, g.match.rated) for g in games} == {("ranked", True)}
    assert RatingChange.objects.filter(match__in=[g.match for g in games]).count() == 12 * 3
    assert set(
        BotSeat.objects.filter(player=kit.player).exclude(match__kind="friendly").values_list("version_id", flat=True)
    ) == {frozen.id}

    rows = body["standings"]
    assert len(rows) == 4 and sum(row["points"] for row in rows) == 12 * 3  # 3 pairs per game
    assert [row["rank"] for row in rows] == [1, 2, 3, 4]
    keys = [(-r["points"], -r["wins"], -r["score"], r["forfeits"], r["entry"]) for r in rows]
    assert keys == sorted(keys)
    assert all(row["games"] == 9 for row in rows)  # 3 tables x 3 rotations each
    assert next(row for row in rows if row["player"] == kit.pk)["version"] == 1
    # No entry's policy is known (an upload, greedy): the luck-corrected scores are the scores.
    assert all(row["corrected_score"] == row["score"] for row in rows)
    listed = client_for("bob").get(f"/api/tournaments/{tid}/matches/").json()
    assert listed["count"] == 12 and all(game["status"] == "finished" for game in listed["results"])


def test_swiss_rounds_seat_similar_standings_together_with_a_bye_at_odd_counts(client_for, make_bots):
    boss = client_for("boss")
    bots = make_bots(5, engine="greedy")
    tid = _create(boss, name="swiss", format="swiss", table_size=2, rounds=3).json()["id"]
    for bot in bots:
        boss.post(f"/api/tournaments/{tid}/entries/", {"player": bot.pk})
    assert start_tournament.run(tid)
    tournament = Tournament.objects.get(pk=tid)
    assert tournament.games_total == 6  # 2 tables a round, 3 rounds
    for round_number in (1, 2, 3):
        assert advance(tid) == "waiting"
        _play_round(tid)
        expected = f"round {round_number + 1}" if round_number < 3 else "finished"
        assert advance(tid) == expected
        assert advance(tid) in ("waiting", "finished")
    tournament.refresh_from_db()
    assert tournament.status == "finished" and len(set(tournament.byes.values())) == 3  # never twice
    rows = boss.get(f"/api/tournaments/{tid}/").json()["standings"]
    assert sum(row["points"] for row in rows) == 6 + 3  # one point a game, one a bye
    # Round 2 seats the two leaders of round 1 together.
    round_two = TournamentGame.objects.filter(tournament_id=tid, round=2).order_by("table").first()
    leaders = standings.compute(
        [e.id for e in tournament.entries.order_by("id")],
        [
            [
                (entry, seat.forfeited, seat.score)
                for entry, seat in zip(g.entries, g.match.seats.order_by("seat"), strict=True)
            ]
            for g in TournamentGame.objects.filter(tournament_id=tid, round=1).select_related("match")
        ],
        byes=[tournament.byes["1"]],
    )
    assert set(round_two.entries) == {leaders[0].entry, leaders[1].entry}
    assert Match.objects.filter(tournament_game__tournament_id=tid, rated=True).count() == 0


def test_a_tournament_starts_by_itself_at_its_time_and_is_cancelled_without_enough_entries(client_for, make_bots):
    boss = client_for("boss")
    past = _create(boss, starts_at=(timezone.now() - timedelta(minutes=1)).isoformat())
    assert past.status_code == 400 and "starts_at must be in the future" in past.json()["detail"]
    soon = _create(boss, name="timed", table_size=2, starts_at=(timezone.now() + timedelta(hours=1)).isoformat()).json()
    lonely = _create(boss, name="lonely", table_size=3).json()
    for bot in make_bots(2):
        boss.post(f"/api/tournaments/{soon['id']}/entries/", {"player": bot.pk})
        boss.post(f"/api/tournaments/{lonely['id']}/entries/", {"player": bot.pk})
    assert tick() == {"tournaments": 0, "moved": 0}  # not yet due
    Tournament.objects.filter(pk=soon["id"]).update(starts_at=timezone.now() - timedelta(seconds=1))
    tick()
    assert Tournament.objects.get(pk=soon["id"]).status == "running"
    assert TournamentGame.objects.filter(tournament_id=soon["id"]).count() == 1

    assert start_tournament.run(lonely["id"])
    cancelled = boss.get(f"/api/tournaments/{lonely['id']}/").json()
    assert cancelled["status"] == "cancelled"
    assert cancelled["error"] == "2 playing entries; at least 3 are needed"
