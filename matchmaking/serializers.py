"""API shape of an arena entry, with the matchmaker's explanation of its wait."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from arena.models import ArenaEntry
from matchmaking.status import explain


class ArenaEntrySerializer(serializers.ModelSerializer[ArenaEntry]):
    player = serializers.IntegerField(source="player_id")
    # One game today: like POST /api/bots/, `game` may be left out.
    game = serializers.CharField(max_length=32, default="part-du-chef")
    current_match = serializers.IntegerField(
        source="current_match_id", read_only=True, allow_null=True, help_text="the arena match it plays; null when not"
    )

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


class ArenaWaitSerializer(serializers.Serializer[dict[str, Any]]):
    state = serializers.ChoiceField(choices=["playing", "placing", "waiting", "left"])
    reason = serializers.CharField()
    expected_seconds = serializers.FloatField(allow_null=True, help_text="about how long until a table, or null")
    waiting_seconds = serializers.FloatField()
    match = serializers.IntegerField(allow_null=True)


class ArenaEntryWaitSerializer(ArenaEntrySerializer):
    """`wait`: from the context's `waits` when the view explained a whole page at once
    (matchmaking.status.explain), else explained for this one entry."""

    wait = serializers.SerializerMethodField()

    class Meta(ArenaEntrySerializer.Meta):
        fields = [*ArenaEntrySerializer.Meta.fields, "wait"]
        read_only_fields = [*ArenaEntrySerializer.Meta.read_only_fields, "wait"]

    @extend_schema_field(ArenaWaitSerializer())
    def get_wait(self, entry: ArenaEntry) -> dict[str, Any]:
        waits: dict[int, dict[str, Any]] = self.context.get("waits") or {}
        if entry.id not in waits:
            waits = explain([entry], timezone.now())
        return waits[entry.id]


class QueueJoinSerializer(serializers.Serializer[dict[str, Any]]):
    game = serializers.CharField(max_length=32)
    table_size = serializers.IntegerField()


class QueueWaitingSerializer(serializers.Serializer[dict[str, Any]]):
    game = serializers.CharField()
    table_size = serializers.IntegerField()
    place = serializers.IntegerField()
    waiting_seconds = serializers.FloatField()


class QueueStatusSerializer(serializers.Serializer[dict[str, Any]]):
    player = serializers.IntegerField()
    waiting = QueueWaitingSerializer(allow_null=True)
    match = serializers.IntegerField(allow_null=True, help_text="your running table, once seated")
