from __future__ import annotations

from django.contrib import admin

from arena.models import ArenaEntry, Match, MatchSeat, Player


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["id", "name", "kind", "builtin", "owner", "created_at"]
    list_filter = ["kind"]
    search_fields = ["name"]
    raw_id_fields = ["owner"]


class MatchSeatInline(admin.TabularInline):
    model = MatchSeat
    extra = 0
    raw_id_fields = ["player"]
    readonly_fields = ["score", "rank", "forfeited", "rating_before", "rating_after"]


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["id", "game", "kind", "rated", "status", "attempt", "created_at", "finished_at"]
    list_filter = ["status", "kind", "rated", "game"]
    inlines = [MatchSeatInline]
    readonly_fields = ["record", "attempt", "lease_expires_at", "started_at", "finished_at"]
    raw_id_fields = ["created_by"]


@admin.register(ArenaEntry)
class ArenaEntryAdmin(admin.ModelAdmin):
    list_display = ["id", "player", "game", "table_size", "active", "current_match", "tables_played"]
    list_filter = ["game", "table_size", "active"]
    raw_id_fields = ["player", "current_match", "entered_by"]
