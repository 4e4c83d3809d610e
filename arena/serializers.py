"""API shapes for games, players, matches and arena entries (explicit fields only)."""

from __future__ import annotations

from rest_framework import serializers

from arena.models import ArenaEntry, Match, MatchSeat, Player


class GameSerializer(serializers.Serializer):
    key = serializers.CharField()
    name = serializers.CharField()
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    options = serializers.JSONField()
    bots = serializers.ListField(child=serializers.CharField())
    record_format = serializers.CharField()


class PlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "name", "kind", "builtin", "created_at"]
        read_only_fields = fields


class PlayerBriefSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "name", "kind"]
        read_only_fields = fields


class SeatResultSerializer(serializers.ModelSerializer):
    player = serializers.IntegerField(source="player_id", read_only=True)

    class Meta:
        model = MatchSeat
        fields = ["seat", "player", "score", "rank", "forfeited", "rating_before", "rating_after"]
        read_only_fields = fields


class MatchSerializer(serializers.ModelSerializer):
    results = SeatResultSerializer(source="seats", many=True, read_only=True)

    class Meta:
        model = Match
        fields = [
            "id",
            "game",
            "kind",
            "rated",
            "status",
            "options",
            "seed",
            "attempt",
            "error",
            "created_at",
            "started_at",
            "finished_at",
            "results",
        ]
        read_only_fields = fields


class MatchCreateSerializer(serializers.Serializer):
    game = serializers.CharField(max_length=32)
    kind = serializers.ChoiceField(choices=[Match.Kind.FRIENDLY, Match.Kind.RANKED])
    players = serializers.ListField(child=serializers.IntegerField(min_value=1), min_length=1, max_length=16)
    options = serializers.DictField(required=False, default=dict)
    seed = serializers.IntegerField(required=False, min_value=0, max_value=2**31 - 1)


class ArenaEntrySerializer(serializers.ModelSerializer):
    player = serializers.IntegerField(source="player_id")
    current_match = serializers.IntegerField(source="current_match_id", read_only=True)

    class Meta:
        model = ArenaEntry
        fields = [
            "id",
            "player",
            "game",
            "table_size",
            "active",
            "joined_at",
            "current_match",
            "tables_played",
        ]
        read_only_fields = ["id", "active", "joined_at", "current_match", "tables_played"]
