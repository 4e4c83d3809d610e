"""API shape of an arena entry with the matchmaker's explanation of its wait."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from arena.models import ArenaEntry
from arena.serializers import ArenaEntrySerializer


class ArenaWaitSerializer(serializers.Serializer):
    state = serializers.ChoiceField(choices=["playing", "placing", "waiting", "left"])
    reason = serializers.CharField()
    expected_seconds = serializers.FloatField(allow_null=True, help_text="about how long until a table, or null")
    waiting_seconds = serializers.FloatField()
    match = serializers.IntegerField(allow_null=True)


class ArenaEntryWaitSerializer(ArenaEntrySerializer):
    """`wait` comes from the view's context (arena.matchmaking.status.explain, once per page)."""

    wait = serializers.SerializerMethodField()

    class Meta(ArenaEntrySerializer.Meta):
        fields = [*ArenaEntrySerializer.Meta.fields, "wait"]
        read_only_fields = [*ArenaEntrySerializer.Meta.read_only_fields, "wait"]

    @extend_schema_field(ArenaWaitSerializer(allow_null=True))
    def get_wait(self, entry: ArenaEntry) -> dict[str, Any] | None:
        waits = self.context.get("waits") or {}
        return waits.get(entry.id)
