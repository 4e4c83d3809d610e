"""A settled house bot keeps its rating in games with bots still being placed: they do not move the ladder
that places them."""

from __future__ import annotations

from datetime import timedelta

import pytest

from arena.matches import create_match
from arena.models import Player
from ratings.elo import PROVISIONAL_GAMES, rate_game
from ratings.ledger import LedgerMismatch, replay_ledger, reset_provisional, verify_ratings
from ratings.models import Rating, RatingChange
from ratings.pinning import SETTLED_DEVIATION
from results.batches import run_match

GAME = "part-du-chef"

pytestmark = pytest.mark.db


def _play(players: list[Player], seed: int, of: Player | None = None) -> RatingChange:
    """Play a rated match of `players` in seat order; the ledger row of `of` (default: the first seat)."""
    match = create_match(game=GAME, kind="ranked", player_ids=[p.id for p in players], seed=seed)
    assert run_match(match.id) == "finished"
    return RatingChange.objects.get(match=match, player=of or players[0])


def _settled_rungs(make_bots) -> list[Player]:
    """Two house bots (built-in engines, no owner) settled by games between them alone."""
    rungs = make_bots(2, engine="greedy", prefix="rung")
    for seed in range(60):
        _play(rungs if seed % 2 else rungs[::-1], seed)
    for rung in rungs:
        assert Rating.objects.get(player=rung, game=GAME).deviation <= SETTLED_DEVIATION
    return rungs


@pytest.fixture
def newcomer(django_user_model) -> Player:
    """A bot an account entered: not a house bot, however it plays."""
    owner = django_user_model.objects.create_user("author", password="pw-123456789")
    return Player.objects.create(name="newcomer", kind=Player.Kind.BOT, builtin="random", owner=owner)


def test_a_settled_house_bot_keeps_its_rating_and_the_newcomer_is_rated_against_it(make_bots, newcomer) -> None:
    rung = _settled_rungs(make_bots)[0]
    held = Rating.objects.get(player=rung, game=GAME)
    change = _play([rung, newcomer], seed=1000)
    row = Rating.objects.get(player=rung, game=GAME)
    assert change.pinned
    assert (change.before, change.deviation_before) == (change.after, change.deviation_after)
    assert (row.rating, row.deviation, row.rated_at) == (held.rating, held.deviation, held.rated_at)
    assert row.games == held.games + 1
    # The newcomer moved exactly as the formula says against the rung's rating and deviation.
    theirs = RatingChange.objects.get(match=change.match, player=newcomer)
    assert not theirs.pinned
    seats = list(change.match.seats.order_by("seat"))
    rated = rate_game(
        [(change.before, change.deviation_before), (theirs.before, theirs.deviation_before)],
        [float(seat.score or 0) for seat in seats],
        [seat.forfeited for seat in seats],
        theirs.rule,
    )
    assert (theirs.after, theirs.deviation_after) == rated[1]
    assert theirs.after != theirs.before
    verify_ratings(GAME)


def test_a_settled_house_bot_is_rated_again_once_the_newcomer_is_placed(make_bots, newcomer) -> None:
    rung = _settled_rungs(make_bots)[0]
    for seed in range(1000, 1000 + PROVISIONAL_GAMES):
        assert _play([rung, newcomer] if seed % 2 else [newcomer, rung], seed, of=rung).pinned
    change = _play([rung, newcomer], seed=1100)
    assert not change.pinned and change.after != change.before
    # A new version of the bot owes placement games again: the rung is pinned again.
    reset_provisional(newcomer)
    assert _play([rung, newcomer], seed=1101).pinned
    verify_ratings(GAME)


def test_an_unsettled_house_bot_is_rated_like_anyone(make_bots, newcomer) -> None:
    rung = make_bots(1, engine="greedy", prefix="rung")[0]
    change = _play([rung, newcomer], seed=7)
    assert not change.pinned
    assert change.after != change.before and change.deviation_after < change.deviation_before


def test_settled_house_bots_move_in_games_among_themselves(make_bots) -> None:
    rungs = _settled_rungs(make_bots)
    change = _play(rungs, seed=2000)
    assert not change.pinned
    assert change.deviation_after < change.deviation_before or change.deviation_after == 30.0
    assert change.after != change.before


def test_a_pinned_rungs_deviation_grows_from_its_last_game_that_moved_it(make_bots, newcomer) -> None:
    rung = _settled_rungs(make_bots)[0]
    moved_at = Rating.objects.get(player=rung, game=GAME).rated_at
    assert moved_at is not None
    # The rung's last game that moved it was long ago: now it is unsettled, and rated again.
    Rating.objects.filter(player=rung, game=GAME).update(rated_at=moved_at - timedelta(days=200))
    RatingChange.objects.filter(player=rung, rated_at=moved_at).update(rated_at=moved_at - timedelta(days=200))
    change = _play([rung, newcomer], seed=3000)
    assert change.deviation_before > SETTLED_DEVIATION
    assert not change.pinned and change.after != change.before
    verify_ratings(GAME)


def test_the_ledger_replays_pinned_rows_and_catches_a_pin_that_was_not_there(make_bots, newcomer) -> None:
    rung = _settled_rungs(make_bots)[0]
    for seed in range(1000, 1004):
        _play([rung, newcomer] if seed % 2 else [newcomer, rung], seed)
    verify_ratings(GAME)
    pinned = RatingChange.objects.filter(player=rung, pinned=True).order_by("id")
    assert pinned.count() == 4
    # A pinned row made unpinned: the replay moves the rung where the ledger kept it.
    first = pinned.first()
    assert first is not None
    RatingChange.objects.filter(pk=first.pk).update(pinned=False)
    with pytest.raises(LedgerMismatch, match=f"match {first.match_id}"):
        replay_ledger(GAME)
    RatingChange.objects.filter(pk=first.pk).update(pinned=True)
    # The newcomer's row pinned, its values made to agree: only a house bot among others may be pinned.
    theirs = RatingChange.objects.get(match=first.match, player=newcomer)
    RatingChange.objects.filter(pk=theirs.pk).update(
        pinned=True, after=theirs.before, deviation_after=theirs.deviation_before
    )
    with pytest.raises(LedgerMismatch, match=f"pin players \\[{newcomer.id}\\]"):
        replay_ledger(GAME)
