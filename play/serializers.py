"""API shapes of the play table (explicit fields only)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from play.models import FriendlyTable, TableSeat


class ActionSubmitSerializer(serializers.Serializer[dict[str, Any]]):
    turn = serializers.IntegerField(min_value=0, help_text="the turn number of the decision this action answers")
    action = serializers.JSONField(help_text="a cut or a take, in the JSON form of game records")


class TablePlayerSerializer(serializers.Serializer[dict[str, Any]]):
    seat = serializers.IntegerField()
    id = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.CharField()
    timeouts = serializers.IntegerField()
    forfeited = serializers.BooleanField()


class TableStateSerializer(serializers.Serializer[dict[str, Any]]):
    match = serializers.IntegerField()
    game = serializers.CharField()
    kind = serializers.CharField()
    rated = serializers.BooleanField()
    status = serializers.CharField()
    seat = serializers.IntegerField(allow_null=True, help_text="the asking player's seat; null for a spectator")
    turn = serializers.IntegerField(help_text="decisions taken so far; send it with your action")
    to_act = serializers.IntegerField(allow_null=True)
    your_turn = serializers.BooleanField()
    deadline = serializers.DateTimeField(allow_null=True, help_text="when the clock of the person to act runs out")
    seconds_left = serializers.FloatField(allow_null=True)
    players = TablePlayerSerializer(many=True)
    observation = serializers.JSONField(help_text="the asking seat's observation (bot protocol v1 fields)")
    legal = serializers.JSONField(allow_null=True, help_text="the choices open to you; null unless you are to act")
    result = serializers.JSONField(allow_null=True)


class TableSeatSerializer(serializers.ModelSerializer[TableSeat]):
    player = serializers.IntegerField(source="player_id", read_only=True)

    class Meta:
        model = TableSeat
        fields = ["seat", "player", "accepted"]
        read_only_fields = fields


class FriendlyTableSerializer(serializers.ModelSerializer[FriendlyTable]):
    host = serializers.IntegerField(source="host_id", read_only=True)
    match = serializers.IntegerField(source="match_id", read_only=True, allow_null=True)
    seats = TableSeatSerializer(many=True, read_only=True)

    class Meta:
        model = FriendlyTable
        fields = ["id", "host", "game", "options", "status", "match", "seats", "created_at"]
        read_only_fields = fields


class TableOpenSerializer(serializers.Serializer[dict[str, Any]]):
    game = serializers.CharField(max_length=32)
    guests = serializers.ListField(child=serializers.IntegerField(min_value=1), max_length=4)
    options = serializers.DictField(required=False, default=dict)
