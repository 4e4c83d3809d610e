"""Interactive matches in progress, and friendly tables waiting for their guests."""

from __future__ import annotations

from django.db import models

from arena.models import Match, Player


class LiveGame(models.Model):
    """The game of an interactive match, saved after every decision.

    `record` is the game record so far (format part-du-chef/1): it holds the pizzas still to come,
    so it is never served while the game runs; the state is rebuilt from it by replaying.
    """

    match = models.OneToOneField(Match, primary_key=True, on_delete=models.CASCADE, related_name="live")
    record = models.JSONField()
    # Number of decisions taken; a client names it when it answers the decision after them.
    turn = models.PositiveIntegerField(default=0)
    to_act = models.PositiveSmallIntegerField(null=True, blank=True)
    # When the person to act runs out of time; null while a bot or the house plays, or when over.
    deadline = models.DateTimeField(null=True, blank=True)
    # Per seat: decisions the clock has taken for that person, and whether they forfeited.
    timeouts = models.JSONField(default=list)
    out = models.JSONField(default=list)
    # Per seat: milliseconds left in a submitted bot's time bank for the match (its decisions are
    # asked one task at a time, so the bank lives here between them); 0 for other seats.
    bank_ms = models.JSONField(default=list)

    class DecidedBy(models.TextChoices):
        """Who took a decision: the seat itself, or the house's stand-in, and why."""

        SEAT = "seat", "the seat's own player"
        CLOCK = "clock", "the house: the person's clock ran out"
        LEFT = "left", "the house: the seat had left (resigned, out of time, or forfeited before)"
        FORFEIT = "forfeit", "the house: the bot failed this decision and forfeits"

    # Per action taken so far, a DecidedBy value, recorded by the engine as it decides: the result
    # names the stand-in's moves and the table's log says why the house played them.
    decided_by = models.JSONField(default=list)
    # A friendly table's clock: seconds per decision for people (null: settings.ARENA_TURN_SECONDS).
    # A person's bank, when the table has one, is kept in `bank_ms` like a bot's.
    turn_seconds = models.PositiveIntegerField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [
            models.Index(fields=["deadline"], name="live_deadline", condition=models.Q(deadline__isnull=False)),
            models.Index(fields=["updated_at"], name="live_waiting_bot", condition=models.Q(to_act__isnull=False)),
        ]

    def __str__(self) -> str:
        return f"live game of match {self.match_id} at turn {self.turn}"

    @property
    def stand_in(self) -> tuple[bool, ...]:
        """Per action: whether the house's stand-in took it (whatever the reason)."""
        return tuple(cause != self.DecidedBy.SEAT for cause in self.decided_by)


class FriendlyTable(models.Model):
    """A table opened by a player for guests of their choosing; it plays unrated once all accept."""

    class Status(models.TextChoices):
        OPEN = "open", "open"
        STARTED = "started", "started"
        CANCELLED = "cancelled", "cancelled"

    host = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="hosted_tables")
    game = models.CharField(max_length=32)
    options = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    # The clock chosen by the host (play.clocks): seconds per decision and each person's bank.
    turn_seconds = models.PositiveIntegerField(default=60)
    bank_seconds = models.PositiveIntegerField(default=0)
    # Who cancelled a table that had not started (a guest declining, or the host), and when.
    declined_by = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"friendly table {self.pk} of {self.host} ({self.status})"


class TableSeat(models.Model):
    table = models.ForeignKey(FriendlyTable, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="table_seats")
    accepted = models.BooleanField(default=False)

    class Meta:
        ordering = ["table_id", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="table_seat_once"),
            models.UniqueConstraint(fields=["table", "player"], name="table_player_once"),
        ]
        indexes = [models.Index(fields=["player", "table"], name="table_seat_player")]

    def __str__(self) -> str:
        return f"seat {self.seat} of table {self.table_id}: {self.player_id}"


class ChatMessage(models.Model):
    """A message said at a table, kept with the game but never in its record.

    The players' channel is for the people seated; the spectators' channel for everyone else. During a
    rated game each side reads only its own channel (no one coaches a player); afterwards, and at
    friendly tables, spectators read the players too.
    """

    class Channel(models.TextChoices):
        PLAYERS = "players", "players"
        SPECTATORS = "spectators", "spectators"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="chat")
    author = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    channel = models.CharField(max_length=16, choices=Channel.choices)
    text = models.CharField(max_length=300)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["match", "channel", "id"], name="chat_by_table")]

    def __str__(self) -> str:
        return f"{self.author_id} at match {self.match_id}: {self.text[:40]}"


class ChatReport(models.Model):
    """A message reported to the staff: the admin's queue of reports, oldest unhandled first."""

    message = models.ForeignKey(ChatMessage, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    handled = models.BooleanField(default=False)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["message", "reporter"], name="chat_report_once")]
        indexes = [models.Index(fields=["handled", "id"], name="chat_report_queue")]

    def __str__(self) -> str:
        return f"report of message {self.message_id} by {self.reporter_id}"
