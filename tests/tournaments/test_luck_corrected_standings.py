"""A duplicate tournament's standings carry each entry's luck-corrected score beside its score."""

from __future__ import annotations

import pytest

from arena.models import Match
from games.part_du_chef import control_variates as cv
from games.part_du_chef.bots import get_bot
from games.part_du_chef.placing import RECORD_FIELD, record_verdict
from games.part_du_chef.play import play_state
from games.part_du_chef.record import replay
from results.tasks import play_match
from tournaments import luck
from tournaments.actions import advance, tick
from tournaments.models import TournamentGame
from tournaments.tasks import start_tournament


def _tournament(api, bots, **fields):
    body = {"name": "luck cup", "format": "round_robin", "table_size": 3, "rated": False, "duplicate": True, **fields}
    tid = api.post("/api/tournaments/", body, format="json").json()["id"]
    for bot in bots:
        assert api.post(f"/api/tournaments/{tid}/entries/", {"player": bot.pk}).status_code == 201
    assert start_tournament.run(tid)
    return tid


@pytest.mark.django_db
def test_random_entries_decisions_are_corrected_and_the_standings_sum_each_entrys_corrected_scores(
    client_for, make_bots
):
    boss = client_for("boss")
    bots = [*make_bots(2, engine="random", prefix="luck"), make_bots(1, engine="greedy", prefix="sure")[0]]
    tid = _tournament(boss, bots)
    for match_id in TournamentGame.objects.filter(tournament_id=tid).values_list("match_id", flat=True):
        play_match.run(match_id)
    assert advance(tid) == "finished"

    games = list(TournamentGame.objects.filter(tournament_id=tid).select_related("match"))
    assert len(games) == 3 and all(game.baseline == cv.BASELINE.name for game in games)
    names = {bot.pk: bot.builtin for bot in bots}
    expected: dict[int, float] = {}
    moved = 0.0
    for game in games:
        state = replay(game.match.record)
        players = [game.tournament.entries.get(pk=entry_id).player_id for entry_id in game.entries]
        for seat, player in enumerate(players):
            again = cv.correct(state.seed, 3, [names[p] for p in players], state.history, seat)
            assert game.corrected[seat] == pytest.approx(again.corrected)
            expected[player] = expected.get(player, 0.0) + again.corrected
            moved += abs(again.corrected - again.score)
    assert moved > 0, "no decision of the random entries was corrected"

    rows = client_for("bob").get(f"/api/tournaments/{tid}/").json()["standings"]
    assert {row["player"]: row["corrected_score"] for row in rows} == pytest.approx(
        {player: round(total, 2) for player, total in expected.items()}, abs=0.011
    )
    assert {row["baseline"] for row in rows} == {cv.BASELINE.name}


@pytest.mark.django_db
def test_no_game_is_corrected_before_every_table_of_its_deal_is_over_and_its_entries_show_none_till_then(
    client_for, make_bots
):
    boss = client_for("boss")
    tid = _tournament(boss, make_bots(2, engine="random", prefix="wait"), table_size=2)
    first, second = TournamentGame.objects.filter(tournament_id=tid).order_by("rotation")
    play_match.run(first.match_id)  # plays the deal's two tables side by side
    # As while the other table of the deal still plays:
    Match.objects.filter(pk=second.match_id).update(status=Match.Status.RUNNING)
    assert luck.correct_finished(first.tournament) == 0
    rows = boss.get(f"/api/tournaments/{tid}/").json()["standings"]
    assert [row["corrected_score"] for row in rows] == [None, None]
    assert all(row["games"] == 1 for row in rows)

    Match.objects.filter(pk=second.match_id).update(status=Match.Status.FINISHED)
    assert advance(tid) == "finished"
    assert TournamentGame.objects.filter(tournament_id=tid, corrected__isnull=True).count() == 0
    rows = boss.get(f"/api/tournaments/{tid}/").json()["standings"]
    assert all(isinstance(row["corrected_score"], float) for row in rows)


@pytest.mark.django_db
def test_a_tournament_without_duplicate_deals_has_no_corrected_scores(client_for, make_bots):
    boss = client_for("boss")
    tid = _tournament(boss, make_bots(2, engine="random", prefix="plain"), table_size=2, duplicate=False)
    for match_id in TournamentGame.objects.filter(tournament_id=tid).values_list("match_id", flat=True):
        play_match.run(match_id)
    assert advance(tid) == "finished"
    assert not TournamentGame.objects.filter(tournament_id=tid, corrected__isnull=False).exists()
    rows = boss.get(f"/api/tournaments/{tid}/").json()["standings"]
    assert [(row["corrected_score"], row["baseline"]) for row in rows] == [(None, None), (None, None)]


def test_a_game_with_la_marianne_and_a_stand_in_is_corrected_from_its_record_as_the_comparisons_correct_it():
    names = ["random", "greedy", "random"]
    state = play_state([get_bot(name, 70 + seat) for seat, name in enumerate(names)], 31, marianne=True)
    stand_in = [actor == 2 and index > len(state.history) // 2 for index, (actor, _, _) in enumerate(state.history)]
    record = state.to_record(names, {RECORD_FIELD: record_verdict([0, 0, 0], [False] * 3, stand_in, len(stand_in))})
    scores = luck.corrected_scores(record, names)
    for seat in range(3):
        again = cv.correct(31, 3, names, state.history, seat, marianne=True, stand_in=stand_in)
        assert scores[seat] == pytest.approx(again.corrected)
    assert scores != [float(score.total) for score in state.scores()]
    # The unknown policies' seats alone: nothing to correct, no replay of the corrections.
    assert luck.corrected_scores(record, ["", "greedy", ""]) == [float(score.total) for score in state.scores()]


@pytest.mark.django_db
def test_a_finished_game_whose_record_cannot_be_read_leaves_the_batch_and_its_entries_show_no_corrected_score(
    client_for, make_bots
):
    boss = client_for("boss")
    tid = _tournament(boss, make_bots(2, engine="random", prefix="lost"), table_size=2)
    games = list(TournamentGame.objects.filter(tournament_id=tid).order_by("rotation"))
    play_match.run(games[0].match_id)
    Match.objects.filter(pk=games[0].match_id).update(record=None)
    assert luck.correct_finished(games[0].tournament) == 2
    unread, read = (TournamentGame.objects.get(pk=game.pk) for game in games)
    assert unread.corrected == [] and len(read.corrected) == 2
    rows = boss.get(f"/api/tournaments/{tid}/").json()["standings"]
    assert [row["corrected_score"] for row in rows] == [None, None]


@pytest.mark.django_db
def test_a_finished_tournaments_games_corrected_under_an_earlier_baseline_are_corrected_again_by_the_tick(
    client_for, make_bots
):
    boss = client_for("boss")
    tid = _tournament(boss, make_bots(2, engine="random", prefix="again"), table_size=2)
    for match_id in TournamentGame.objects.filter(tournament_id=tid).values_list("match_id", flat=True):
        play_match.run(match_id)
    assert advance(tid) == "finished"
    fresh = {game.pk: game.corrected for game in TournamentGame.objects.filter(tournament_id=tid)}
    assert luck.stale(5) == []
    # As stored before the baseline changed: other scores under another name, left out of the standings.
    TournamentGame.objects.filter(tournament_id=tid).update(corrected=[0.0, 0.0], baseline="game-rollout/1")
    rows = boss.get(f"/api/tournaments/{tid}/").json()["standings"]
    assert [row["corrected_score"] for row in rows] == [None, None]
    assert luck.stale(5) == [tid]

    tick()
    again = TournamentGame.objects.filter(tournament_id=tid)
    assert {game.pk: game.corrected for game in again} == fresh
    assert {game.baseline for game in again} == {cv.BASELINE.name}
    assert luck.stale(5) == [] and luck.correct_finished(again.first().tournament) == 0
    rows = boss.get(f"/api/tournaments/{tid}/").json()["standings"]
    assert all(isinstance(row["corrected_score"], float) for row in rows)
