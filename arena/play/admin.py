from __future__ import annotations

from django.contrib import admin

from arena.play.models import FriendlyTable, LiveGame, TableSeat


@admin.register(LiveGame)
class LiveGameAdmin(admin.ModelAdmin):
    list_display = ["match", "turn", "to_act", "deadline", "updated_at"]
    readonly_fields = ["match", "record", "turn", "to_act", "deadline", "timeouts", "out", "updated_at"]


class TableSeatInline(admin.TabularInline):
    model = TableSeat
    extra = 0
    raw_id_fields = ["player"]


@admin.register(FriendlyTable)
class FriendlyTableAdmin(admin.ModelAdmin):
    list_display = ["id", "host", "game", "status", "match", "created_at"]
    list_filter = ["status"]
    raw_id_fields = ["host", "match"]
    inlines = [TableSeatInline]
