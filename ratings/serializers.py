"""API shapes for leaderboards, players with their ratings, and rating histories."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.utils import timezone
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from arena.models import Player
from arena.serializers import PlayerBriefSerializer, PlayerSerializer
from ratings import leaderboard
from ratings.elo import interval, is_provisional
from ratings.models import Rating, RatingChange


class LeaderboardRowSerializer(serializers.Serializer[dict[str, Any]]):
    """The documented shape; the leaderboard views write it directly (ratings.views)."""

    rank = serializers.IntegerField()
    player = PlayerBriefSerializer()
    rating = serializers.FloatField()
    deviation = serializers.FloatField(help_text="Standard error of the rating, on the Elo scale.")
    interval = serializers.ListField(
        child=serializers.FloatField(), min_length=2, max_length=2, help_text="[low, high]: the 95% interval of rating."
    )
    rank_interval = serializers.ListField(
        child=serializers.IntegerField(),
        min_length=2,
        max_length=2,
        help_text="[best, worst]: the ranks the player would hold at either end of its interval.",
    )
    games = serializers.IntegerField()
    provisional = serializers.BooleanField(help_text="The deviation is still above the provisional threshold.")


class LeaderboardPageSerializer(serializers.Serializer[dict[str, Any]]):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = LeaderboardRowSerializer(many=True)


class PlayerStandingSerializer(serializers.Serializer[dict[str, Any]]):
    game = serializers.CharField()
    player = LeaderboardRowSerializer()
    above = LeaderboardRowSerializer(many=True)
    below = LeaderboardRowSerializer(many=True)


class PlayerRatingSerializer(serializers.Serializer[dict[str, Any]]):
    """A player's rating in one game, with its place on that game's leaderboard (players of every kind)."""

    game = serializers.CharField()
    rating = serializers.FloatField()
    deviation = serializers.FloatField(help_text="Standard error of the rating, on the Elo scale.")
    interval = serializers.ListField(
        child=serializers.FloatField(), min_length=2, max_length=2, help_text="[low, high]: the 95% interval of rating."
    )
    rank = serializers.IntegerField(allow_null=True, help_text="the rank on the game's leaderboard; null off the board")
    rank_interval = serializers.ListField(
        child=serializers.IntegerField(),
        min_length=2,
        max_length=2,
        allow_null=True,
        help_text="[best, worst]: the ranks the player would hold at either end of its interval; null off the board.",
    )
    games = serializers.IntegerField()
    provisional = serializers.BooleanField(help_text="The deviation is still above the provisional threshold.")


def _rating(row: Rating, line: leaderboard.Row | None, now: datetime) -> dict[str, Any]:
    """The leaderboard's own line when the player is on the board, so both answers agree; else the row's."""
    if line is not None:
        return {
            "game": row.game,
            "rating": line.rating,
            "deviation": round(line.deviation, 4),
            "interval": list(line.interval),
            "rank": line.rank,
            "rank_interval": list(line.rank_interval),
            "games": line.games,
            "provisional": line.provisional,
        }
    deviation = row.deviation_at(now)
    return {
        "game": row.game,
        "rating": row.rating,
        "deviation": round(deviation, 4),
        "interval": list(interval(row.rating, deviation)),
        "rank": None,
        "rank_interval": None,
        "games": row.games,
        "provisional": is_provisional(deviation),
    }


def ratings_of(players: Iterable[Player]) -> dict[int, list[dict[str, Any]]]:
    """Each player's ratings, by game, with their leaderboard lines: one leaderboard lookup per game for
    all these players (their `ratings` prefetched), not one per player."""
    players = list(players)
    rated: dict[str, list[int]] = {}
    for player in players:
        for row in player.ratings.all():
            rated.setdefault(row.game, []).append(player.id)
    lines = {game: leaderboard.lines(game, None, player_ids) for game, player_ids in rated.items()}
    now = timezone.now()
    return {
        player.id: [
            _rating(row, lines[row.game].get(player.id), now)
            for row in sorted(player.ratings.all(), key=lambda row: row.game)
        ]
        for player in players
    }


class PlayersWithRatingsSerializer(serializers.ListSerializer[Player]):
    """Looks a page's players up on the leaderboards once, not once per player."""

    def to_representation(self, data: Any) -> list[Any]:
        players = list(data.all() if hasattr(data, "all") else data)
        self.context["ratings"] = ratings_of(players)
        return super().to_representation(players)


class PlayerWithRatingsSerializer(PlayerSerializer):
    ratings = serializers.SerializerMethodField(
        help_text="per game the player is rated in: its rating and its place on that game's leaderboard"
    )

    class Meta(PlayerSerializer.Meta):
        fields = [*PlayerSerializer.Meta.fields, "ratings"]
        read_only_fields = fields
        list_serializer_class = PlayersWithRatingsSerializer

    @extend_schema_field(PlayerRatingSerializer(many=True))
    def get_ratings(self, player: Player) -> list[dict[str, Any]]:
        found: dict[int, list[dict[str, Any]]] = self.context.setdefault("ratings", {})
        if player.id not in found:
            found.update(ratings_of([player]))
        return found[player.id]


class RatingChangeSerializer(serializers.ModelSerializer[RatingChange]):
    match = serializers.IntegerField(source="match_id", read_only=True)
    finished_at = serializers.DateTimeField(source="match.finished_at", read_only=True)

    class Meta:
        model = RatingChange
        fields = [
            "id",
            "match",
            "game",
            "before",
            "after",
            "deviation_before",
            "deviation_after",
            "games_before",
            "pinned",
            "finished_at",
        ]
        read_only_fields = fields
