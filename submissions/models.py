"""Submitted bots (players of kind bot with an owner), their versions, and how each seat went."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import models
from django.db.models import Q

from arena.models import Match, Player


class SubmittedBot(models.Model):
    """The submission side of a bot player; its id is the player's id."""

    class Challengers(models.TextChoices):
        """Who may seat the bot in a friendly match or at a friendly table (docs/api.md)."""

        ANYONE = "anyone", "anyone"
        OWNER = "owner", "its owner only"

    player = models.OneToOneField(Player, primary_key=True, on_delete=models.CASCADE, related_name="submission")
    game = models.CharField(max_length=32)
    description = models.CharField(max_length=500, blank=True, default="")
    # Anyone may play a friendly game against a public bot, as on the leaderboard; its owner may close it.
    challengers = models.CharField(max_length=8, choices=Challengers.choices, default=Challengers.ANYONE)
    retired_at = models.DateTimeField(null=True, blank=True)
    # Set when too many arena matches were forfeited; cleared when a new version becomes active.
    suspended_at = models.DateTimeField(null=True, blank=True)
    suspension_reason = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["player_id"]

    def __str__(self) -> str:
        return f"submitted bot {self.player_id}"

    def status_given(self, versions: Iterable[BotVersion]) -> str:
        """The bot's status as owners see it everywhere: retired or suspended first, then active while any
        version plays, else the newest version's status."""
        if self.retired_at is not None:
            return "retired"
        if self.suspended_at is not None:
            return "suspended"
        ordered = sorted(versions, key=lambda version: version.number)
        if any(version.status == BotVersion.Status.ACTIVE for version in ordered):
            return "active"
        return ordered[-1].status if ordered else BotVersion.Status.PENDING


class BotVersion(models.Model):
    class Source(models.TextChoices):
        UPLOAD = "upload", "upload"
        ENDPOINT = "endpoint", "endpoint"

    class Status(models.TextChoices):
        PENDING = "pending", "pending"
        VALIDATING = "validating", "validating"
        ACTIVE = "active", "active"
        REJECTED = "rejected", "rejected"
        RETIRED = "retired", "retired"

    bot = models.ForeignKey(SubmittedBot, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    source = models.CharField(max_length=16, choices=Source.choices)
    # Uploads: the original file name (its suffix says .py, .js or .zip) and the bytes as sent.
    filename = models.CharField(max_length=200, blank=True, default="")
    bundle = models.BinaryField(null=True, blank=True, editable=False)
    bundle_sha256 = models.CharField(max_length=64, blank=True, default="")
    bundle_size = models.PositiveIntegerField(default=0)
    endpoint = models.CharField(max_length=2000, blank=True, default="")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    reason = models.TextField(blank=True, default="")
    # Owner-only: what validation did, game by game, with the bot's stderr.
    log = models.JSONField(default=list, blank=True)
    # Fencing token of validation runs, as for matches.
    attempt = models.PositiveIntegerField(default=0)
    lease_expires_at = models.DateTimeField(null=True, blank=True)
    # Validation tasks re-sent while pending; each resend doubles the next deadline (arena.leases).
    resends = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    validated_at = models.DateTimeField(null=True, blank=True)
    activated_at = models.DateTimeField(null=True, blank=True)
    # Not a column: the log as indented JSON, set for the bots page (web/bots.py).
    log_text: str

    class Meta:
        ordering = ["bot_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["bot", "number"], name="version_number_once_per_bot"),
            models.UniqueConstraint(fields=["bot"], condition=Q(status="active"), name="one_active_version_per_bot"),
        ]
        indexes = [models.Index(fields=["status", "lease_expires_at"], name="version_status_lease")]

    def __str__(self) -> str:
        return f"bot {self.bot_id} v{self.number} ({self.status})"


# A bot's status as the API shows it: its own state, else that of its latest version.
BOT_STATUSES = [("active", "active"), ("suspended", "suspended"), ("retired", "retired")] + [
    (value, value) for value in BotVersion.Status.values if value not in ("active", "retired")
]


class BotSeat(models.Model):
    """The version of a submitted bot at one seat of a match and, once played, its move log.

    Pinned rows are written when the match is made (validation games, tournaments: that version
    plays whatever happens to the bot meanwhile); otherwise the active version plays and the row
    is written with the result.
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="bot_seats")
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="bot_seats")
    version = models.ForeignKey(BotVersion, on_delete=models.CASCADE, related_name="seats")
    pinned = models.BooleanField(default=False)
    played = models.BooleanField(default=False)
    forfeited = models.BooleanField(default=False)
    forfeit_reason = models.TextField(blank=True, default="")
    # [{"turn", "status", "latency_ms", "error", "stderr"}] per decision; stderr is for the owner only.
    moves = models.JSONField(default=list, blank=True)
    stderr = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["match_id", "seat"]
        constraints = [models.UniqueConstraint(fields=["match", "seat"], name="bot_seat_once")]
        indexes = [models.Index(fields=["version", "match"], name="bot_seat_version_match")]

    def __str__(self) -> str:
        return f"match {self.match_id} seat {self.seat}: version {self.version_id}"


class BotComparison(models.Model):
    """An owner's friendly comparison of a version against another one (never rated): queued -> running ->
    finished (with `result`) or failed (with `error`). Its deals are played apart (`ComparisonDeal`)."""

    class Status(models.TextChoices):
        QUEUED = "queued", "queued"
        RUNNING = "running", "running"
        FINISHED = "finished", "finished"
        FAILED = "failed", "failed"

    bot = models.ForeignKey(SubmittedBot, on_delete=models.CASCADE, related_name="comparisons")
    version = models.ForeignKey(BotVersion, on_delete=models.CASCADE, related_name="comparisons")
    against = models.ForeignKey(BotVersion, on_delete=models.CASCADE, related_name="compared_against")
    deals = models.PositiveSmallIntegerField()
    opponents = models.JSONField(default=list)
    marianne = models.BooleanField(default=False)
    # Every deal asked for is played: no sequential stop (the command line's --fixed).
    fixed = models.BooleanField(default=False)
    seed = models.BigIntegerField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    games_done = models.PositiveIntegerField(default=0)
    games_total = models.PositiveIntegerField()
    # Progress while it runs, written with each deal that comes in: the deals counted so far, how many
    # deal rows were made (the next deal's number), and the running score difference {mean, ci95, n}.
    deals_done = models.PositiveSmallIntegerField(default=0)
    deals_sent = models.PositiveSmallIntegerField(default=0)
    estimate = models.JSONField(null=True, blank=True)
    # Every forfeit of the deals done, deal by deal: [{"version", "deal", "seed", "seat", "reason"}], where
    # "version" is the number of the version that forfeited (submissions.comparison_deals.forfeits_json).
    forfeits = models.JSONField(default=list, blank=True)
    result = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    # Set by the claim: a comparison still running past its task's hard time limit lost its worker.
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["bot", "-created_at"], name="comparison_bot_newest")]

    def __str__(self) -> str:
        return f"comparison {self.pk}: version {self.version_id} against {self.against_id} ({self.status})"


class ComparisonDeal(models.Model):
    """One duplicate deal of a comparison, played by a task of its own (every game of the deal in lockstep):
    queued -> running -> finished (with `result`, games.part_du_chef.comparison.DealScores) or failed; a
    deal still queued when the comparison ends is cancelled."""

    class Status(models.TextChoices):
        QUEUED = "queued", "queued"
        RUNNING = "running", "running"
        FINISHED = "finished", "finished"
        FAILED = "failed", "failed"
        CANCELLED = "cancelled", "cancelled"

    comparison = models.ForeignKey(BotComparison, on_delete=models.CASCADE, related_name="deal_rows")
    number = models.PositiveSmallIntegerField()  # 0 is the first deal; its seed is the comparison's seed + number
    seed = models.BigIntegerField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    # Fencing token: each claim bumps it, and only the claim holding it may store the deal's result.
    attempt = models.PositiveSmallIntegerField(default=0)
    # Running: when a worker that died lets it go; queued: when its message, if lost, is sent again.
    lease_expires_at = models.DateTimeField(null=True, blank=True)
    resends = models.PositiveIntegerField(default=0)
    result = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True, default="")
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["comparison_id", "number"]
        constraints = [models.UniqueConstraint(fields=["comparison", "number"], name="comparison_deal_once")]
        indexes = [models.Index(fields=["status", "lease_expires_at"], name="comparison_deal_status_lease")]

    def __str__(self) -> str:
        return f"comparison {self.comparison_id} deal {self.number} ({self.status})"
