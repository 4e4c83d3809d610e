"""One rating per (player, game), and the ledger of every change made by a rated match."""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any

from django.db import models
from django.db.models import F
from django.dispatch import Signal
from django.utils import timezone

from arena.models import Match, Player
from ratings.elo import INITIAL_RATING, PROVISIONAL_GAMES

# Sent after Rating rows are updated in bulk (kwargs: row_ids), so the leaderboard index re-reads
# them once the transaction commits. A rated match's bulk_update is not sent: ratings.ledger hands
# the index the values it wrote.
rows_updated = Signal()
_rated_match_write: ContextVar[bool] = ContextVar("rated_match_write", default=False)


class RatingQuerySet(models.QuerySet["Rating"]):
    def update(self, **kwargs: Any) -> int:
        # The row's version for the leaderboard index, which keeps the newest one.
        kwargs.setdefault("updated_at", timezone.now())
        if _rated_match_write.get():
            return super().update(**kwargs)
        row_ids = list(self.values_list("pk", flat=True))
        updated = super().update(**kwargs)
        rows_updated.send(sender=Rating, row_ids=row_ids)
        return updated

    def bulk_update_rated(self, rows: list[Rating], fields: list[str]) -> int:
        """bulk_update for a rated match's rows, which reach the index through the ledger."""
        token = _rated_match_write.set(True)
        try:
            return self.bulk_update(rows, fields)
        finally:
            _rated_match_write.reset(token)


def is_provisional(games: int, provisional_left: int) -> bool:
    return games < PROVISIONAL_GAMES or provisional_left > 0


class Rating(models.Model):
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    game = models.CharField(max_length=32)
    # Copied from the player (a player's kind never changes) so leaderboards filtered by kind
    # are served from one index without a join.
    kind = models.CharField(max_length=8, choices=Player.Kind.choices)
    rating = models.FloatField(default=INITIAL_RATING)
    games = models.PositiveIntegerField(default=0)
    # Rated games still played at the provisional K after a submitted bot's new version became
    # active: the rating is kept, but it moves as fast as a newcomer's again.
    provisional_left = models.PositiveSmallIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    objects = RatingQuerySet.as_manager()

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
            # The leaderboard index's catch-up sweep reads the rows changed lately (ratings/standings.py).
            models.Index(fields=["updated_at"], name="rating_updated"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} {self.game}: {self.rating:.1f} ({self.games} games)"

    @property
    def provisional(self) -> bool:
        return is_provisional(self.games, self.provisional_left)

    @property
    def k_games(self) -> int:
        """The rated-game count K is taken from: below PROVISIONAL_GAMES while provisional again."""
        if self.provisional_left <= 0:
            return self.games
        return min(self.games, PROVISIONAL_GAMES - min(self.provisional_left, PROVISIONAL_GAMES))


class RatingChange(models.Model):
    """Ledger row; its id is the order in which changes were applied (per player, commit order)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rating_changes")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_changes")
    game = models.CharField(max_length=32)
    before = models.FloatField()
    after = models.FloatField()
    games_before = models.PositiveIntegerField()
    # The count K was taken from (lower than games_before while a new bot version is provisional).
    k_games = models.PositiveIntegerField(null=True, blank=True)
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
