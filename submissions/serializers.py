"""API shapes of submitted bots and their versions (explicit fields; owner, rating, status read-only)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Q
from django.utils import timezone
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from arena.serializers import HeldBackSerializer
from ratings import leaderboard
from ratings.elo import interval, is_provisional
from submissions.models import BOT_STATUSES, BotComparison, BotSeat, BotVersion, SubmittedBot

BOT_NAME = r"^[A-Za-z0-9][A-Za-z0-9_.-]{1,63}$"
HELD_BACK_HELP = "null while the match, or another table of its deal, is still playing"
RANK_HELP = "the bot's rank on its game's leaderboard (every kind of player); null without a rating or off the board"
RANK_INTERVAL_HELP = (
    "[best, worst]: the ranks the bot would hold at either end of its rating's 95% interval, as the "
    "leaderboard gives them; null without a rating or off the board"
)
BOT_NAME_HELP = "2 to 64 letters, digits, '_', '.' or '-', starting with a letter or digit; unique among players."


def queue_place(version: BotVersion) -> int | None:
    """A pending version's place among the versions waiting for validation (1: the next one), or None.

    Validations are sent to the workers in the order they were created, so the place counts the
    pending versions of every bot created before this one.
    """
    if version.status != BotVersion.Status.PENDING:
        return None
    ahead = BotVersion.objects.filter(
        Q(created_at__lt=version.created_at) | Q(created_at=version.created_at, id__lt=version.id),
        status=BotVersion.Status.PENDING,
    )
    return ahead.count() + 1


class BotVersionSerializer(serializers.ModelSerializer[BotVersion]):
    queue_place = serializers.SerializerMethodField(
        help_text="while pending: the place among the versions waiting for validation (1: next), else null"
    )

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_queue_place(self, version: BotVersion) -> int | None:
        return queue_place(version)

    class Meta:
        model = BotVersion
        fields = [
            "number",
            "source",
            "filename",
            "bundle_size",
            "bundle_sha256",
            "endpoint",
            "status",
            "queue_place",
            "reason",
            "created_at",
            "validated_at",
            "activated_at",
        ]
        read_only_fields = fields


class BotVersionDetailSerializer(BotVersionSerializer):
    log = serializers.JSONField(read_only=True, help_text="What validation did, game by game (owner only).")

    class Meta(BotVersionSerializer.Meta):
        fields = [*BotVersionSerializer.Meta.fields, "log"]
        read_only_fields = fields


class BotRatingSerializer(serializers.Serializer[dict[str, Any]]):
    rating = serializers.FloatField()
    deviation = serializers.FloatField(help_text="Standard error of the rating, on the Elo scale.")
    interval = serializers.ListField(
        child=serializers.FloatField(), min_length=2, max_length=2, help_text="[low, high]: the 95% interval of rating."
    )
    games = serializers.IntegerField()
    provisional = serializers.BooleanField()


def board_lines(bots: Iterable[SubmittedBot]) -> dict[int, leaderboard.Row | None]:
    """Each bot's line on its game's leaderboard (None when it has no rating or is not on the board):
    one leaderboard lookup per game for all of them, none for the bots without a rating row."""
    bots = list(bots)
    rated: dict[str, list[int]] = {}
    for bot in bots:
        if any(row.game == bot.game for row in bot.player.ratings.all()):
            rated.setdefault(bot.game, []).append(bot.player_id)
    found: dict[int, leaderboard.Row] = {}
    for game, player_ids in rated.items():
        found.update(leaderboard.lines(game, None, player_ids))
    return {bot.player_id: found.get(bot.player_id) for bot in bots}


class BotListSerializer(serializers.ListSerializer[SubmittedBot]):
    """Looks a page's bots up on the leaderboards once, not once per bot."""

    def to_representation(self, data: Any) -> list[Any]:
        bots = list(data.all() if hasattr(data, "all") else data)
        self.context["board_lines"] = board_lines(bots)
        return super().to_representation(bots)


class BotSerializer(serializers.ModelSerializer[SubmittedBot]):
    id = serializers.IntegerField(source="player_id", read_only=True)
    name = serializers.RegexField(BOT_NAME, source="player.name", max_length=64, help_text=BOT_NAME_HELP)
    owner = serializers.CharField(source="player.owner.username", read_only=True)
    status = serializers.SerializerMethodField()
    rating = serializers.SerializerMethodField()
    rank = serializers.SerializerMethodField(help_text=RANK_HELP)
    rank_interval = serializers.SerializerMethodField(help_text=RANK_INTERVAL_HELP)
    active_version = serializers.SerializerMethodField()
    latest_version = serializers.SerializerMethodField()

    class Meta:
        model = SubmittedBot
        list_serializer_class = BotListSerializer
        fields = [
            "id",
            "name",
            "game",
            "description",
            "challengers",
            "owner",
            "status",
            "rating",
            "rank",
            "rank_interval",
            "active_version",
            "latest_version",
            "suspended_at",
            "suspension_reason",
            "retired_at",
            "created_at",
        ]
        read_only_fields = [
            "id",
            "game",
            "owner",
            "status",
            "rating",
            "rank",
            "rank_interval",
            "active_version",
            "latest_version",
            "suspended_at",
            "suspension_reason",
            "retired_at",
            "created_at",
        ]
        extra_kwargs = {
            "challengers": {
                "help_text": "who may seat this bot in a friendly match or at a friendly table: anyone (the "
                "default) or its owner only; a chosen seed is refused with another account's bot either way"
            }
        }

    def _versions(self, bot: SubmittedBot) -> list[BotVersion]:
        return sorted(bot.versions.all(), key=lambda version: version.number)

    @extend_schema_field(serializers.ChoiceField(choices=BOT_STATUSES))
    def get_status(self, bot: SubmittedBot) -> str:
        return bot.status_given(bot.versions.all())

    @extend_schema_field(BotRatingSerializer(allow_null=True))
    def get_rating(self, bot: SubmittedBot) -> dict[str, Any] | None:
        for row in bot.player.ratings.all():
            if row.game == bot.game:
                deviation = row.deviation_at(timezone.now())
                return {
                    "rating": row.rating,
                    "deviation": round(deviation, 4),
                    "interval": list(interval(row.rating, deviation)),
                    "games": row.games,
                    "provisional": is_provisional(deviation),
                }
        return None

    def _line(self, bot: SubmittedBot) -> leaderboard.Row | None:
        # A page's lines were looked up together (BotListSerializer); a lone bot's, once for both fields.
        lines: dict[int, leaderboard.Row | None] = self.context.setdefault("board_lines", {})
        if bot.player_id not in lines:
            lines.update(board_lines([bot]))
        return lines[bot.player_id]

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_rank(self, bot: SubmittedBot) -> int | None:
        line = self._line(bot)
        return None if line is None else line.rank

    @extend_schema_field(
        serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2, allow_null=True)
    )
    def get_rank_interval(self, bot: SubmittedBot) -> list[int] | None:
        line = self._line(bot)
        return None if line is None else list(line.rank_interval)

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_active_version(self, bot: SubmittedBot) -> int | None:
        for version in self._versions(bot):
            if version.status == BotVersion.Status.ACTIVE:
                return version.number
        return None

    @extend_schema_field(BotVersionSerializer(allow_null=True))
    def get_latest_version(self, bot: SubmittedBot) -> dict[str, Any] | None:
        versions = self._versions(bot)
        return BotVersionSerializer(versions[-1]).data if versions else None

    def update(self, instance: SubmittedBot, validated_data: dict[str, Any]) -> SubmittedBot:
        player_data = validated_data.pop("player", {})
        if "name" in player_data:
            instance.player.name = player_data["name"]
            instance.player.save(update_fields=["name"])
        changed = [field for field in ("description", "challengers") if field in validated_data]
        for field in changed:
            setattr(instance, field, validated_data[field])
        if changed:
            instance.save(update_fields=changed)
        return instance


class SourceSerializer(serializers.Serializer[dict[str, Any]]):
    """A new version: a file upload (multipart) or an endpoint URL."""

    file = serializers.FileField(
        required=False, help_text="One .py or .js file, or a .zip holding main.py (size-capped)."
    )
    endpoint = serializers.CharField(
        required=False, max_length=2000, help_text="An http(s) URL answering protocol v1 messages POSTed as JSON."
    )


class BotCreateSerializer(SourceSerializer):
    name = serializers.RegexField(BOT_NAME, max_length=64, help_text=BOT_NAME_HELP)
    game = serializers.CharField(max_length=32, default="part-du-chef")
    description = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")


class BotSeatSerializer(HeldBackSerializer[BotSeat]):
    match = serializers.IntegerField(source="match_id", read_only=True)
    version = serializers.IntegerField(source="version.number", read_only=True)
    kind = serializers.CharField(source="match.kind", read_only=True)
    match_status = serializers.CharField(source="match.status", read_only=True)
    # What the bot wrote and the errors it met may name the pizzas it saw: held back like the record.
    forfeit_reason = serializers.CharField(read_only=True, allow_null=True, help_text=HELD_BACK_HELP)
    moves = serializers.JSONField(read_only=True, allow_null=True, help_text=HELD_BACK_HELP)
    stderr = serializers.CharField(read_only=True, allow_null=True, help_text=HELD_BACK_HELP)
    secret_fields = ("forfeit_reason", "moves", "stderr")

    class Meta(HeldBackSerializer.Meta):
        model = BotSeat
        fields = [
            "match",
            "kind",
            "match_status",
            "seat",
            "version",
            "played",
            "forfeited",
            "forfeit_reason",
            "moves",
            "stderr",
            "held_back",
            "held_back_reason",
        ]
        read_only_fields = fields


class SeatDecisionSerializer(serializers.Serializer[Any]):
    turn = serializers.IntegerField()
    observation = serializers.JSONField(help_text="the observation the bot was sent, rebuilt from the record")
    played = serializers.JSONField(help_text="the action played at this decision (the bot's, or the stand-in's)")
    decided_by = serializers.CharField(help_text='"player", or "stand-in" after a forfeit')
    status = serializers.CharField(allow_null=True)
    latency_ms = serializers.FloatField(allow_null=True)
    error = serializers.CharField(allow_null=True)
    answer = serializers.CharField(allow_null=True, help_text="what the bot answered, for an invalid or illegal one")
    stderr = serializers.CharField(allow_blank=True)


class OwnerViewSerializer(serializers.Serializer[Any]):
    match = serializers.IntegerField()
    seat = serializers.IntegerField(help_text="the bot's seat (0 is the first)")
    version = serializers.IntegerField()
    players = serializers.ListField(child=serializers.CharField())
    start = serializers.JSONField(allow_null=True, help_text="a failure before ready, else null")
    decisions = SeatDecisionSerializer(many=True)
    stderr = serializers.CharField(allow_blank=True, help_text="the seat's stderr tail for the match")


class HeadToHeadSerializer(serializers.Serializer[Any]):
    opponent = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.CharField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField(help_text="games this bot placed first")
    mean_placing = serializers.FloatField(help_text="this bot's mean placing in those games (1 is best)")
    above = serializers.IntegerField(help_text="games this bot placed above the opponent")
    opponent_mean_placing = serializers.FloatField()


class SeatSummarySerializer(serializers.Serializer[Any]):
    players = serializers.IntegerField(help_text="the table size")
    seat = serializers.IntegerField(help_text="0 is the first chef")
    games = serializers.IntegerField(help_text="rated games this bot played in that seat")
    mean_placing = serializers.FloatField(
        allow_null=True, help_text="its mean placing there (1 is best; a forfeit counts last); null without games"
    )


class CompareAgainstSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField(required=False, min_value=1, help_text="a version number of this bot")
    bot = serializers.IntegerField(required=False, min_value=1, help_text="another of your bots (its active version)")


class CompareRequestSerializer(serializers.Serializer[Any]):
    against = CompareAgainstSerializer(help_text='{"version": n} or {"bot": id}')
    deals = serializers.IntegerField(default=10, help_text="1 to ARENA_COMPARE_MAX_DEALS (10 unless configured)")
    opponents = serializers.ListField(
        child=serializers.CharField(max_length=32),
        default=["greedy"],
        help_text="built-in bots: greedy, random, noisy-greedy-P (greedy with P% random moves, P from 1 to 99)",
    )
    marianne = serializers.BooleanField(default=False)
    fixed = serializers.BooleanField(
        default=False, help_text="play every deal asked for, without the sequential stop (the command line's --fixed)"
    )


class EstimateSerializer(serializers.Serializer[Any]):
    mean = serializers.FloatField(allow_null=True, help_text="null before any deal")
    ci95 = serializers.FloatField(allow_null=True, help_text="half-width of the 95% interval; null under two deals")
    n = serializers.IntegerField(help_text="deals it is taken over")


class CompareProgressSerializer(serializers.Serializer[Any]):
    games_done = serializers.IntegerField()
    games_total = serializers.IntegerField(help_text="every game of every deal asked for; a verdict may need fewer")
    deals_done = serializers.IntegerField(help_text="deals finished so far (each deal is a task of its own)")
    deals_planned = serializers.IntegerField(help_text="the deals asked for: the most it plays")
    score_diff = EstimateSerializer(
        allow_null=True,
        help_text="the running estimate: this version's points per game minus the other's, over the deals done; "
        "null before the first deal",
    )


class ComparisonSerializer(serializers.ModelSerializer[BotComparison]):
    bot = serializers.IntegerField(source="bot_id", read_only=True)
    version = serializers.IntegerField(source="version.number", read_only=True)
    against = serializers.SerializerMethodField()
    progress = serializers.SerializerMethodField()
    forfeits = serializers.JSONField(
        read_only=True,
        help_text='every forfeit of the deals done so far: [{"bot", "version", "deal", "seed", "seat", "reason"}], '
        '"deal" counted from 1, "seat" from 0, "reason" as "timeout: ...", "crash: ..."',
    )

    @extend_schema_field({"type": "object", "properties": {"bot": {"type": "integer"}, "version": {"type": "integer"}}})
    def get_against(self, comparison: BotComparison) -> dict[str, int]:
        return {"bot": comparison.against.bot_id, "version": comparison.against.number}

    @extend_schema_field(CompareProgressSerializer)
    def get_progress(self, comparison: BotComparison) -> dict[str, Any]:
        return {
            "games_done": comparison.games_done,
            "games_total": comparison.games_total,
            "deals_done": comparison.deals_done,
            "deals_planned": comparison.deals,
            "score_diff": comparison.estimate,
        }

    class Meta:
        model = BotComparison
        fields = [
            "id",
            "bot",
            "version",
            "against",
            "deals",
            "opponents",
            "marianne",
            "fixed",
            "status",
            "progress",
            "forfeits",
            "result",
            "error",
            "created_at",
            "finished_at",
        ]
        read_only_fields = fields
