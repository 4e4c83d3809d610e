"""Players, matches with their seats, and arena entries."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower

from arena.packed import PackedJSONField
from common.skeleton import skeleton
from games.part_du_chef.bots import is_bot_name


class Player(models.Model):
    class Kind(models.TextChoices):
        BOT = "bot", "bot"
        HUMAN = "human", "human"

    name = models.CharField(max_length=64, unique=True)
    # The name's comparison key (common.skeleton: NFKC, case folded, confusables mapped), set on every
    # save: `ＡＬＩＣＥ`, `a1ice` and `alice` are one name, whatever is stored as typed in `name`.
    name_key = models.CharField(max_length=256, unique=True, editable=False)
    kind = models.CharField(max_length=8, choices=Kind.choices)
    # The account that owns a human player or a submitted bot; built-in bots have none.
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="players",
    )
    # Name of the built-in bot engine playing this player ("random", "greedy", "noisy-greedy-25", "search"...);
    # empty for humans and for submitted bots, which get their code from bot versions.
    builtin = models.CharField(max_length=32, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["kind", "id"], name="player_kind_id")]
        constraints = [
            # "Greedy" and "greedy" are one name to a reader: unique whatever the case.
            models.UniqueConstraint(Lower("name"), name="player_name_unique_any_case"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.kind})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.name_key = skeleton(self.name)
        fields = kwargs.get("update_fields")
        if fields is not None and "name" in fields:
            kwargs["update_fields"] = {*fields, "name_key"}
        super().save(*args, **kwargs)

    # What kind of player this is: the one answer every part asks.

    @property
    def is_person(self) -> bool:
        """A person playing through an account (never seated in a match the service plays by itself)."""
        return self.kind == self.Kind.HUMAN

    @property
    def is_builtin(self) -> bool:
        """A built-in engine: it plays its decisions in the worker's own process. Any engine the game's
        package can build counts (the house ladder's noisy greedy rungs as well as BOT_NAMES)."""
        return self.kind == self.Kind.BOT and is_bot_name(self.builtin)

    @property
    def is_house_bot(self) -> bool:
        """A built-in engine that no account owns: the house's own player, shared by every arena table."""
        return self.is_builtin and self.owner_id is None

    @property
    def is_submitted_bot(self) -> bool:
        """A bot whose code an account submitted (its versions say what plays it)."""
        return self.kind == self.Kind.BOT and not self.builtin


class Match(models.Model):
    class Kind(models.TextChoices):
        FRIENDLY = "friendly", "friendly"
        RANKED = "ranked", "ranked"
        ARENA = "arena", "arena"

    class Status(models.TextChoices):
        QUEUED = "queued", "queued"
        RUNNING = "running", "running"
        FINISHED = "finished", "finished"
        FAILED = "failed", "failed"

    RATED_KINDS = (Kind.RANKED, Kind.ARENA)

    game = models.CharField(max_length=32)
    kind = models.CharField(max_length=16, choices=Kind.choices)
    rated = models.BooleanField()
    options = models.JSONField(default=dict, blank=True)
    seed = models.BigIntegerField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    # Fencing token: bumped by each claim; only the holder of the current attempt may commit.
    attempt = models.PositiveIntegerField(default=0)
    # While queued: the deadline for re-sending the play task. While running: the lease.
    lease_expires_at = models.DateTimeField(null=True, blank=True)
    # Play tasks re-sent since the match was last queued; each resend doubles the next deadline.
    resends = models.PositiveIntegerField(default=0)
    # Its play message was taken by a task while another task's batch held the match: if that batch
    # gives it back unplayed, its message must be sent again (else the one still queued will do).
    unsent = models.BooleanField(default=False)
    # The game record (games/part_du_chef/record.py), kept compressed; read as a dict, as a jsonb column was.
    record = PackedJSONField(null=True, blank=True)
    error = models.TextField(blank=True, default="")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="created_matches",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    # Taken inside the committing transaction, after the rating rows are locked.
    finished_at = models.DateTimeField(null=True, blank=True)
    # The tables of one duplicate deal share it: they are claimed, played in lockstep and committed
    # together (results.deals), so no bot learns at one table what another has not shown yet.
    deal_group = models.UUIDField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        verbose_name_plural = "matches"
        indexes = [
            models.Index(fields=["deal_group"], name="match_deal_group", condition=Q(deal_group__isnull=False)),
            models.Index(fields=["status", "lease_expires_at"], name="match_status_lease"),
            models.Index(fields=["kind", "status"], name="match_kind_status"),
            # A lease of queued work takes the oldest queued matches: this walks them in id order, and
            # only them, however many finished matches lie before (arena.leases `lease_queued`).
            models.Index(fields=["id"], name="match_queued", condition=Q(status="queued")),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(rated=False) | ~Q(kind="friendly"), name="friendly_never_rated"),
        ]

    def __str__(self) -> str:
        return f"match {self.pk} ({self.game}, {self.kind}, {self.status})"


class MatchSeat(models.Model):
    """A seat of a match: who sat there, and once finished, how it went."""

    # No index of their own: (match, seat) and (player, match) below lead with them, and every seat
    # written would update two more indexes for nothing.
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats", db_index=False)
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats", db_index=False)
    score = models.IntegerField(null=True, blank=True)
    rank = models.PositiveSmallIntegerField(null=True, blank=True)
    forfeited = models.BooleanField(default=False)
    # Why the seat forfeited ("timeout: ...", "crash: ...", "left the table"), in the server's words; held
    # back with the record while the match (or its deal) is secret: it may name what the seat saw.
    forfeit_reason = models.TextField(blank=True, default="")
    rating_before = models.FloatField(null=True, blank=True)
    rating_after = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["match_id", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="seat_once_per_match"),
            models.UniqueConstraint(fields=["match", "player"], name="player_once_per_match"),
        ]
        indexes = [models.Index(fields=["player", "match"], name="seat_player_match")]

    def __str__(self) -> str:
        return f"seat {self.seat} of match {self.match_id}: player {self.player_id}"


class ArenaEntry(models.Model):
    """A player waiting in (or playing in) the ranked arena of one game at one table size."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="arena_entries")
    game = models.CharField(max_length=32)
    table_size = models.PositiveSmallIntegerField()
    active = models.BooleanField(default=True)
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    joined_at = models.DateTimeField(auto_now_add=True)
    # When this entry started waiting for its next table (join, or end of its last match).
    waiting_since = models.DateTimeField()
    current_match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    # Sorted player ids of the last table formed with this entry: never the same table twice in a row.
    last_table = models.JSONField(default=list, blank=True)
    tables_played = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["id"]
        verbose_name_plural = "arena entries"
        constraints = [
            models.UniqueConstraint(
                fields=["player", "game", "table_size"],
                condition=Q(active=True),
                name="one_active_entry_per_table_size",
            ),
        ]
        indexes = [models.Index(fields=["game", "table_size", "active"], name="entry_pool")]

    def __str__(self) -> str:
        return f"{self.player} in {self.game} arena ({self.table_size} seats)"
