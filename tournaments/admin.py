from __future__ import annotations

from django.contrib import admin

from tournaments.models import Tournament, TournamentEntry, TournamentGame


class EntryInline(admin.TabularInline[TournamentEntry, Tournament]):
    model = TournamentEntry
    extra = 0
    raw_id_fields = ["player", "version", "entered_by"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin[Tournament]):
    list_display = ["id", "name", "format", "table_size", "duplicate", "rated", "status", "current_round"]
    list_filter = ["status", "format", "rated"]
    search_fields = ["name"]
    raw_id_fields = ["created_by"]
    inlines = [EntryInline]


@admin.register(TournamentGame)
class TournamentGameAdmin(admin.ModelAdmin[TournamentGame]):
    list_display = ["tournament", "round", "table", "deal", "rotation", "match"]
    raw_id_fields = ["tournament", "match"]
