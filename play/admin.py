from __future__ import annotations

from django.contrib import admin

from arena.admin import SecretFieldsAdmin
from arena.models import Match
from play.models import FriendlyTable, LiveGame, TableSeat


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
