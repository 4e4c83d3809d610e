"""One rating per (player, game), and the ledger of every change made by a rated match."""

from __future__ import annotations

from datetime import datetime

from django.db import models
from django.db.models import F
from django.utils import timezone

from arena.models import Match, Player
from ratings.elo import INITIAL_DEVIATION, INITIAL_RATING, idle, is_provisional


def current_deviation(deviation: float, rated_at: datetime | None, now: datetime) -> float:
    """The deviation grown by the whole days since the last rated game: it steps every 24 hours from that
    game's time of day (not at midnight), so it holds between two steps."""
    if rated_at is None:
        return deviation
    return idle(deviation, float((now - rated_at).days))


class Rating(models.Model):
    # No index of its own: the unique (player, game) leads with it (a rating row's every move would update it).
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings", db_index=False)
    game = models.CharField(max_length=32)
    # Copied from the player (a player's kind never changes) so leaderboards filtered by kind
    # are served from one index without a join.
    kind = models.CharField(max_length=8, choices=Player.Kind.choices)
    rating = models.FloatField(default=INITIAL_RATING)
    games = models.PositiveIntegerField(default=0)
    # The standard error of `rating` on the Elo scale (ratings.elo): the size of its moves and of
    # its interval. Written by ratings.ledger only, with the rating.
    deviation = models.FloatField(default=INITIAL_DEVIATION)
    # The last rated game; the deviation grows with the time since (ratings.elo.idle).
    rated_at = models.DateTimeField(null=True, blank=True)
    # Placement games still owed after a submitted bot's new version became active (the matchmaker
    # seats it with the house ladder meanwhile); its deviation was raised at the same time.
    provisional_left = models.PositiveSmallIntegerField(default=0)
    # The row's version for the leaderboard index (newest wins); ratings.ledger sets it on each write.
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "game"], name="one_rating_per_player_game"),
        ]
        indexes = [
            models.Index(F("game"), F("rating").desc(), F("player_id").asc(), name="rating_board"),
            models.Index(
                F("game"),
                F("kind"),
                F("rating").desc(),
                F("player_id").asc(),
                name="rating_board_kind",
            ),
            # The leaderboard index's catch-up sweep reads the rows changed lately (ratings/leaderboard/index.py).
            models.Index(fields=["updated_at"], name="rating_updated"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} {self.game}: {self.rating:.1f} ({self.games} games)"

    def deviation_at(self, now: datetime) -> float:
        """The deviation at `now`: the stored one grown by the idle time since the last rated game."""
        return current_deviation(self.deviation, self.rated_at, now)

    @property
    def provisional(self) -> bool:
        return is_provisional(self.deviation_at(timezone.now()))


class RatingChange(models.Model):
    """Ledger row; its id is the order in which changes were applied (per player, commit order)."""

    # No indexes of their own: the unique (match, player) and (player, game, id) lead with them.
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rating_changes", db_index=False)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_changes", db_index=False)
    game = models.CharField(max_length=32)
    before = models.FloatField()
    after = models.FloatField()
    games_before = models.PositiveIntegerField()
    # The count K was taken from, on rows written by the fixed-K formula (before deviations).
    k_games = models.PositiveIntegerField(null=True, blank=True)
    # The deviation the game was rated with (idle growth included) and after it; null on rows
    # written before deviations existed.
    deviation_before = models.FloatField(null=True, blank=True)
    deviation_after = models.FloatField(null=True, blank=True)
    # When the game was rated: the idle time of the player's next game is counted from here.
    rated_at = models.DateTimeField(null=True, blank=True)
    # The rule of ratings.elo the game was rated by (elo.RULES): a replay applies each match's own.
    rule = models.PositiveSmallIntegerField()
    # A settled house bot in a game with others keeps its rating and deviation (ratings.pinning):
    # before and after are equal, and a replay holds them too.
    pinned = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            # The last guard against rating a match twice.
            models.UniqueConstraint(fields=["match", "player"], name="rate_once_per_match"),
        ]
        indexes = [models.Index(fields=["player", "game", "id"], name="change_history")]

    def __str__(self) -> str:
        return f"match {self.match_id} player {self.player_id}: {self.before:.1f} -> {self.after:.1f}"


class RatingBucket(models.Model):
    """How many rated players of a game and kind have a rating in [bucket, bucket + 1).

    Kept in the transaction of every rating change, so a rank is an exact count read from at most a
    few thousand bucket rows plus one bucket's index range, instead of walking a million index entries.
    """

    game = models.CharField(max_length=32)
    kind = models.CharField(max_length=8, choices=Player.Kind.choices)
    bucket = models.IntegerField()
    count = models.IntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "kind", "bucket"], name="one_bucket_per_game_kind"),
        ]

    def __str__(self) -> str:
        return f"{self.game} {self.kind} [{self.bucket}, {self.bucket + 1}): {self.count}"
