"""API shapes for games, players, matches and arena entries (explicit fields only)."""

from __future__ import annotations

from typing import Any, TypeVar

from django.db import models
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from arena.models import Match, MatchSeat, Player
from arena.secrecy import held_back_reasons
from arena.seeds import MAX_SEED


# Any: it is given the list of games (many=True), which the stubs do not foresee for a plain serializer.
class GameSerializer(serializers.Serializer[Any]):
    key = serializers.CharField()
    name = serializers.CharField()
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    options = serializers.JSONField()
    bots = serializers.ListField(child=serializers.CharField())
    record_format = serializers.CharField()


class PlayerSerializer(serializers.ModelSerializer[Player]):
    class Meta:
        model = Player
        fields = ["id", "name", "kind", "builtin", "created_at"]
        read_only_fields = fields


class PlayerBriefSerializer(serializers.ModelSerializer[Player]):
    class Meta:
        model = Player
        fields = ["id", "name", "kind"]
        read_only_fields = fields


class SeatResultSerializer(serializers.ModelSerializer[MatchSeat]):
    player = serializers.IntegerField(source="player_id", read_only=True)

    class Meta:
        model = MatchSeat
        fields = ["seat", "player", "score", "rank", "forfeited", "forfeit_reason", "rating_before", "rating_after"]
        read_only_fields = fields

    def to_representation(self, instance: MatchSeat) -> dict[str, Any]:
        data = super().to_representation(instance)
        # Empty where the seat did not forfeit; null while the match is held back (the reason may name a pizza).
        data["forfeit_reason"] = data["forfeit_reason"] or None
        return data


class SecretsListSerializer(serializers.ListSerializer[Any]):
    """Asks the secrecy rule once for the whole page, not once per match."""

    def to_representation(self, data: Any) -> list[Any]:
        items = list(data.all() if hasattr(data, "all") else data)
        self.context["held_back"] = held_back_reasons(match_of(item) for item in items)
        return super().to_representation(items)


def match_of(item: Any) -> Match:
    return item if isinstance(item, Match) else item.match


_Model = TypeVar("_Model", bound=models.Model)


class HeldBackSerializer(serializers.ModelSerializer[_Model]):
    """The fields named in `secret_fields` are null while the secrecy rule (arena.secrecy) holds the
    match back; `held_back` and `held_back_reason` say so."""

    # Written once for the match, a bot's seat and a tournament's game. A subclass's `Meta` derives from
    # this one, so that a list asks the secrecy rule once for the whole page (SecretsListSerializer).

    held_back = serializers.SerializerMethodField()
    held_back_reason = serializers.SerializerMethodField()
    secret_fields: tuple[str, ...] = ()

    class Meta:
        list_serializer_class = SecretsListSerializer

    def held_back_reason_of(self, item: Any) -> str | None:
        match = match_of(item)
        known = self.context.get("held_back")
        if known is None or match.id not in known:
            known = held_back_reasons([match])
            self.context["held_back"] = {**self.context.get("held_back", {}), **known}
        return known[match.id]

    @extend_schema_field(serializers.BooleanField())
    def get_held_back(self, item: Any) -> bool:
        return self.held_back_reason_of(item) is not None

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_held_back_reason(self, item: Any) -> str | None:
        return self.held_back_reason_of(item)

    def to_representation(self, instance: _Model) -> dict[str, Any]:
        data = super().to_representation(instance)
        if self.held_back_reason_of(instance) is not None:
            for name in self.secret_fields:
                data[name] = None
        return data


class MatchSerializer(HeldBackSerializer[Match]):
    results = SeatResultSerializer(source="seats", many=True, read_only=True)
    seed = serializers.IntegerField(
        read_only=True, allow_null=True, help_text="null until the match is over (and every table of its deal)"
    )
    secret_fields = ("seed",)

    class Meta(HeldBackSerializer.Meta):
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
            "held_back",
            "held_back_reason",
        ]
        read_only_fields = fields

    def to_representation(self, instance: Match) -> dict[str, Any]:
        data = super().to_representation(instance)
        # A seat's forfeit reason tells what a held-back game's seat did: hidden with the rest.
        if self.held_back_reason_of(instance) is not None:
            for result in data.get("results") or []:
                result["forfeit_reason"] = None
        return data


class MatchCreateSerializer(serializers.Serializer[dict[str, Any]]):
    game = serializers.CharField(max_length=32)
    kind = serializers.ChoiceField(choices=[Match.Kind.FRIENDLY, Match.Kind.RANKED])
    players = serializers.ListField(child=serializers.IntegerField(min_value=1), min_length=1, max_length=16)
    options = serializers.DictField(required=False, default=dict)
    seed = serializers.IntegerField(required=False, min_value=0, max_value=MAX_SEED)
