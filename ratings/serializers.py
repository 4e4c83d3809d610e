"""API shapes for leaderboards and rating histories."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from arena.serializers import PlayerBriefSerializer
from ratings.models import RatingChange


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
            "finished_at",
        ]
        read_only_fields = fields
