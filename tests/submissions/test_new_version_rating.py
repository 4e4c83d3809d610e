"""A new version keeps the bot's rating but is uncertain again: a raised deviation, fast moves, placement games."""

from __future__ import annotations

from arena.matches import create_match
from arena.models import MatchSeat, Player
from ratings.elo import NEW_VERSION_DEVIATION, PROVISIONAL_DEVIATION, rate_game
from ratings.ledger import verify_ratings
from ratings.models import Rating, RatingChange
from results.tasks import play_match
from submissions import actions as submissions
from tests.submitted_bots import STARTER_KITS, zipped

KIT = (STARTER_KITS / "python" / "bot.py").read_bytes()


def _ranked(bot_id: int, seed: int) -> RatingChange:
    """Play a ranked match against greedy; the bot's ledger row, checked against the formula."""
    greedy = Player.objects.get(name="greedy")
    match = create_match(game="part-du-chef", kind="ranked", player_ids=[bot_id, greedy.pk], seed=seed)
    assert play_match.run(match.id) == "finished"
    seats = list(MatchSeat.objects.filter(match=match).order_by("seat"))
    changes = [RatingChange.objects.get(match=match, player_id=seat.player_id) for seat in seats]
    played = [(c.before, c.deviation_before) for c in changes]
    expected = rate_game(played, [seat.score for seat in seats], [seat.forfeited for seat in seats])
    assert [(c.after, c.deviation_after) for c in changes] == expected
    return changes[0]


def test_a_new_version_keeps_the_rating_and_is_uncertain_again(submit, client_for):
    bot = submit("climber", KIT)
    for seed in range(10):
        _ranked(bot.pk, seed=100 + seed)
    rating = Rating.objects.get(player_id=bot.pk, game="part-du-chef")
    kept, settled = rating.rating, rating.deviation
    assert settled <= PROVISIONAL_DEVIATION and (rating.games, rating.provisional) == (10, False)

    version = submissions.add_version(bot, upload=("v2.zip", zipped({"main.py": KIT})))
    assert submissions.run_validation(version.id) == "active"
    rating.refresh_from_db()
    assert (rating.rating, rating.games, rating.provisional_left, rating.provisional) == (kept, 10, 10, True)
    assert rating.deviation == NEW_VERSION_DEVIATION
    shown = client_for("alice").get(f"/api/bots/{bot.pk}/").json()
    assert (shown["rating"]["rating"], shown["rating"]["games"], shown["rating"]["provisional"]) == (kept, 10, True)
    low, high = shown["rating"]["interval"]
    assert low < kept < high and high - low > 2 * 1.95 * NEW_VERSION_DEVIATION
    assert shown["active_version"] == 2

    change = _ranked(bot.pk, seed=21)
    # The game is rated with the raised deviation (idle growth counts whole days only).
    assert change.deviation_before == NEW_VERSION_DEVIATION
    assert change.games_before == 10
    rating.refresh_from_db()
    assert (rating.games, rating.provisional_left) == (11, 9)
    assert rating.deviation == change.deviation_after < change.deviation_before

    # The ledger still replays to exactly the stored ratings and deviations, the reset included.
    verify_ratings("part-du-chef")


def test_a_first_version_is_not_made_provisional_twice(submit):
    bot = submit("newcomer", KIT)
    change = _ranked(bot.pk, seed=31)
    assert (change.games_before, change.deviation_before) == (0, 350.0)
    assert Rating.objects.get(player_id=bot.pk).provisional_left == 0
