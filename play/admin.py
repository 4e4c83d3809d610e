from __future__ import annotations

from django.contrib import admin

from arena.admin import SecretFieldsAdmin
from arena.models import Match
from play.models import ChatMessage, ChatReport, FriendlyTable, LiveGame, TableSeat


@admin.register(LiveGame)
class LiveGameAdmin(SecretFieldsAdmin[LiveGame]):
    # The record so far holds the pizzas still to come.
    secret_fields = ("record",)
    list_display = ["match", "turn", "to_act", "deadline", "updated_at"]
    readonly_fields = ["match", "record", "turn", "to_act", "deadline", "timeouts", "out", "updated_at"]

    def match_of(self, obj: LiveGame) -> Match:
        return obj.match


class TableSeatInline(admin.TabularInline[TableSeat, FriendlyTable]):
    model = TableSeat
    extra = 0
    raw_id_fields = ["player"]


@admin.register(FriendlyTable)
class FriendlyTableAdmin(admin.ModelAdmin[FriendlyTable]):
    list_display = ["id", "host", "game", "status", "match", "created_at"]
    list_filter = ["status"]
    raw_id_fields = ["host", "match"]
    inlines = [TableSeatInline]


@admin.register(ChatReport)
class ChatReportAdmin(admin.ModelAdmin[ChatReport]):
    """The queue of reported chat messages: unhandled first, oldest first."""

    list_display = ["id", "message_text", "author", "reporter", "created_at", "handled"]
    list_filter = ["handled"]
    list_editable = ["handled"]
    ordering = ["handled", "id"]
    raw_id_fields = ["message", "reporter"]

    @admin.display(description="message")
    def message_text(self, obj: ChatReport) -> str:
        return obj.message.text

    @admin.display(description="author")
    def author(self, obj: ChatReport) -> str:
        return obj.message.author.name


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin[ChatMessage]):
    list_display = ["id", "match", "author", "channel", "text", "created_at"]
    list_filter = ["channel"]
    raw_id_fields = ["match", "author"]
