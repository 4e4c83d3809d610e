"""A new version keeps the bot's rating but is provisional again: K = 96 for its next 10 rated games."""

from __future__ import annotations

from arena.matches import create_match
from arena.models import MatchSeat, Player
from ratings.elo import new_ratings
from ratings.ledger import replay_ledger
from ratings.models import Rating, RatingChange
from results.tasks import play_match
from submissions import actions as submissions
from tests.submitted_bots import STARTER_KITS, zipped

KIT = (STARTER_KITS / "python" / "bot.py").read_bytes()


def _ranked(bot_id: int, seed: int) -> tuple[RatingChange, float]:
    """Play a ranked match against greedy; the bot's ledger row and the rating Elo expects."""
    greedy = Player.objects.get(name="greedy")
    ratings = {r.player_id: r for r in Rating.objects.filter(player_id__in=[bot_id, greedy.pk])}
    before = [ratings.get(pid) for pid in (bot_id, greedy.pk)]
    match = create_match(game="part-du-chef", kind="ranked", player_ids=[bot_id, greedy.pk], seed=seed)
    assert play_match.run(match.id) == "finished"
    seats = list(MatchSeat.objects.filter(match=match).order_by("seat"))
    change = RatingChange.objects.get(match=match, player_id=bot_id)
    k_counts = [change.k_games, before[1].games if before[1] else 0]
    expected = new_ratings(
        [r.rating if r else 1500.0 for r in before],
        [seat.score for seat in seats],
        k_counts,
        [seat.forfeited for seat in seats],
    )
    return change, expected[0]


def test_a_new_version_keeps_the_rating_and_plays_ten_games_at_the_provisional_k(submit, client_for):
    bot = submit("climber", KIT)
    for seed in range(10):
        _ranked(bot.pk, seed=100 + seed)
    rating = Rating.objects.get(player_id=bot.pk, game="part-du-chef")
    kept = rating.rating
    assert (rating.games, rating.provisional) == (10, False)

    version = submissions.add_version(bot, upload=("v2.zip", zipped({"main.py": KIT})))
    assert submissions.run_validation(version.id) == "active"
    rating.refresh_from_db()
    assert (rating.rating, rating.games, rating.provisional_left, rating.provisional) == (kept, 10, 10, True)
    shown = client_for("alice").get(f"/api/bots/{bot.pk}/").json()
    assert shown["rating"] == {"rating": kept, "games": 10, "provisional": True}
    assert shown["active_version"] == 2

    change, expected = _ranked(bot.pk, seed=21)
    assert (change.games_before, change.k_games) == (10, 0)  # K(0) = 96, not K(10) = 64
    assert change.after == expected
    rating.refresh_from_db()
    assert (rating.games, rating.provisional_left) == (11, 9)

    Rating.objects.filter(pk=rating.pk).update(provisional_left=1)  # skip ahead to the 10th game
    change, expected = _ranked(bot.pk, seed=22)
    assert (change.games_before, change.k_games, change.after) == (11, 9, expected)  # still K = 96
    rating.refresh_from_db()
    assert (rating.provisional_left, rating.provisional) == (0, False)

    change, expected = _ranked(bot.pk, seed=23)
    assert (change.games_before, change.k_games, change.after) == (12, 12, expected)  # back to K(12) = 64

    # The ledger still replays to exactly the stored ratings, resets included.
    state = replay_ledger("part-du-chef")
    for row in Rating.objects.filter(game="part-du-chef", games__gt=0):
        assert state[row.player_id] == (row.rating, row.games)


def test_a_first_version_is_not_made_provisional_twice(submit):
    bot = submit("newcomer", KIT)
    change, expected = _ranked(bot.pk, seed=31)
    assert (change.games_before, change.k_games, change.after) == (0, 0, expected)
    assert Rating.objects.get(player_id=bot.pk).provisional_left == 0
