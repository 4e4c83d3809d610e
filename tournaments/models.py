"""Tournaments, their entries (bot versions frozen at the start) and their games (matches)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from arena.models import Match, Player
from submissions.models import BotVersion


class Tournament(models.Model):
    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", "round robin"
        SWISS = "swiss", "swiss"

    class Status(models.TextChoices):
        REGISTRATION = "registration", "registration"
        RUNNING = "running", "running"
        FINISHED = "finished", "finished"
        CANCELLED = "cancelled", "cancelled"

    name = models.CharField(max_length=100)
    game = models.CharField(max_length=32)
    format = models.CharField(max_length=16, choices=Format.choices)
    table_size = models.PositiveSmallIntegerField()
    games_per_table = models.PositiveSmallIntegerField(default=1)
    # Every deal is replayed in every seat rotation of its table.
    duplicate = models.BooleanField(default=False)
    rated = models.BooleanField(default=True)
    # Swiss: the number of rounds. A round robin is one round.
    rounds = models.PositiveSmallIntegerField(default=1)
    options = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.REGISTRATION)
    # Registration closes at the start: at starts_at, or when the organiser starts it.
    starts_at = models.DateTimeField(null=True, blank=True)
    current_round = models.PositiveSmallIntegerField(default=0)
    games_total = models.PositiveIntegerField(default=0)
    # Swiss at tables of 2 with an odd count: {"<round>": entry id} of who sat the round out.
    byes = models.JSONField(default=dict, blank=True)
    error = models.TextField(blank=True, default="")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="tournaments"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["status", "starts_at"], name="tournament_status_start")]

    def __str__(self) -> str:
        return f"tournament {self.pk} {self.name!r} ({self.format}, {self.status})"


class TournamentEntry(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="tournament_entries")
    # Frozen at the start: this version plays every game of the tournament. Null for built-in bots.
    version = models.ForeignKey(BotVersion, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    # Why the entry does not play (no active version at the start), or empty.
    dropped = models.CharField(max_length=300, blank=True, default="")
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament_id", "id"]
        verbose_name_plural = "tournament entries"
        constraints = [models.UniqueConstraint(fields=["tournament", "player"], name="enter_tournament_once")]

    def __str__(self) -> str:
        return f"{self.player_id} in tournament {self.tournament_id}"


class TournamentGame(models.Model):
    """A match of the tournament: its round, table, deal and seat rotation."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="games")
    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="tournament_game")
    round = models.PositiveSmallIntegerField()
    table = models.PositiveIntegerField()
    deal = models.PositiveSmallIntegerField()
    rotation = models.PositiveSmallIntegerField()
    # Entry ids in seat order.
    entries = models.JSONField()
    # A duplicate tournament's finished game: each seat's score with its luck corrected, in seat
    # order, and the baseline that corrected it (tournaments/luck.py); null until corrected.
    corrected = models.JSONField(null=True, blank=True)
    baseline = models.CharField(max_length=40, blank=True, default="")

    class Meta:
        ordering = ["tournament_id", "round", "table", "deal", "rotation"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "round", "table", "deal", "rotation"], name="tournament_game_once"
            )
        ]

    def __str__(self) -> str:
        return f"tournament {self.tournament_id} round {self.round} table {self.table}: match {self.match_id}"
