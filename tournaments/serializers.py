"""API shapes of tournaments (explicit fields; status, progress and standings are read-only)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from arena.serializers import HeldBackSerializer
from games.part_du_chef.control_variates import BASELINE
from tournaments import actions
from tournaments.models import Tournament, TournamentEntry, TournamentGame


class ProgressSerializer(serializers.Serializer[dict[str, Any]]):
    done = serializers.IntegerField(help_text="Games finished (or failed).")
    total = serializers.IntegerField()
    failed = serializers.IntegerField()


class StandingSerializer(serializers.Serializer[dict[str, Any]]):
    rank = serializers.IntegerField()
    entry = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    version = serializers.IntegerField(allow_null=True)
    points = serializers.FloatField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    score = serializers.IntegerField()
    corrected_score = serializers.FloatField(
        allow_null=True,
        help_text="Duplicate tournaments: the sum of the entry's scores with the luck of known-policy "
        "entries' decisions corrected (null while a game of it is not corrected yet, and in other tournaments).",
    )
    baseline = serializers.CharField(allow_null=True, help_text="The baseline that corrected the scores.")
    forfeits = serializers.IntegerField()


class EntrySerializer(serializers.ModelSerializer[TournamentEntry]):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.name", read_only=True)
    version = serializers.IntegerField(source="version.number", read_only=True, allow_null=True, default=None)

    class Meta:
        model = TournamentEntry
        fields = ["id", "player", "name", "version", "dropped", "created_at"]
        read_only_fields = ["id", "name", "version", "dropped", "created_at"]


class TournamentSerializer(serializers.ModelSerializer[Tournament]):
    created_by = serializers.CharField(source="created_by.username", read_only=True, default=None)
    progress = serializers.SerializerMethodField()
    entries = EntrySerializer(many=True, read_only=True)

    class Meta:
        model = Tournament
        fields = [
            "id",
            "name",
            "game",
            "format",
            "table_size",
            "games_per_table",
            "duplicate",
            "rated",
            "rounds",
            "options",
            "status",
            "starts_at",
            "current_round",
            "progress",
            "error",
            "created_by",
            "created_at",
            "started_at",
            "finished_at",
            "entries",
        ]
        read_only_fields = fields

    @extend_schema_field(ProgressSerializer)
    def get_progress(self, tournament: Tournament) -> dict[str, int]:
        return actions.progress(tournament)


class TournamentDetailSerializer(TournamentSerializer):
    standings = serializers.SerializerMethodField()

    class Meta(TournamentSerializer.Meta):
        fields = [*TournamentSerializer.Meta.fields, "standings"]
        read_only_fields = fields

    @extend_schema_field(StandingSerializer(many=True))
    def get_standings(self, tournament: Tournament) -> list[dict[str, Any]]:
        entries = {entry.id: entry for entry in tournament.entries.all()}
        rows = []
        for row in actions.standings(tournament):
            entry = entries[row.entry]
            rows.append(
                {
                    "rank": row.rank,
                    "entry": row.entry,
                    "player": entry.player_id,
                    "name": entry.player.name,
                    "version": entry.version.number if entry.version else None,
                    "points": row.points,
                    "games": row.games,
                    "wins": row.wins,
                    "score": row.score,
                    "corrected_score": None if row.corrected is None else round(row.corrected, 2),
                    "baseline": None if row.corrected is None else BASELINE.name,
                    "forfeits": row.forfeits,
                }
            )
        return rows


class TournamentCreateSerializer(serializers.Serializer[dict[str, Any]]):
    name = serializers.CharField(max_length=100)
    game = serializers.CharField(max_length=32, default="part-du-chef")
    format = serializers.ChoiceField(choices=Tournament.Format.choices)
    table_size = serializers.IntegerField(min_value=2, max_value=5)
    games_per_table = serializers.IntegerField(min_value=1, max_value=100, default=1)
    duplicate = serializers.BooleanField(default=False)
    rated = serializers.BooleanField(default=True)
    rounds = serializers.IntegerField(min_value=1, max_value=50, default=3, help_text="Swiss only.")
    options = serializers.DictField(required=False, default=dict)
    starts_at = serializers.DateTimeField(required=False, allow_null=True, default=None)


class EntryCreateSerializer(serializers.Serializer[dict[str, Any]]):
    player = serializers.IntegerField(min_value=1, help_text="The bot's id (one's own bot).")


class TournamentGameSerializer(HeldBackSerializer[TournamentGame]):
    match = serializers.IntegerField(source="match_id", read_only=True)
    status = serializers.CharField(source="match.status", read_only=True)
    seed = serializers.IntegerField(
        source="match.seed",
        read_only=True,
        allow_null=True,
        help_text="the deal's seed; null until every table playing this deal is over",
    )
    results = serializers.SerializerMethodField()
    secret_fields = ("seed",)

    class Meta(HeldBackSerializer.Meta):
        model = TournamentGame
        fields = [
            "match",
            "round",
            "table",
            "deal",
            "rotation",
            "entries",
            "status",
            "seed",
            "results",
            "held_back",
            "held_back_reason",
        ]
        read_only_fields = fields

    @extend_schema_field(serializers.ListField(child=serializers.DictField()))
    def get_results(self, game: TournamentGame) -> list[dict[str, Any]]:
        return [
            {
                "seat": seat.seat,
                "player": seat.player_id,
                "score": seat.score,
                "rank": seat.rank,
                "forfeited": seat.forfeited,
            }
            for seat in sorted(game.match.seats.all(), key=lambda seat: seat.seat)
        ]
