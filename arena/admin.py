from __future__ import annotations

from typing import TypeVar

from django.contrib import admin
from django.db import models
from django.http import HttpRequest

from arena.models import ArenaEntry, Match, MatchSeat, Player
from arena.secrecy import may_show_secrets

_AdminModel = TypeVar("_AdminModel", bound=models.Model)


class SecretFieldsAdmin(admin.ModelAdmin[_AdminModel]):
    """Leaves out `secret_fields` of a match whose secrets the user may not see (arena.secrecy)."""

    secret_fields: tuple[str, ...] = ()

    def match_of(self, obj: _AdminModel) -> Match:
        raise NotImplementedError  # each admin says which match its object belongs to

    def hides_secrets(self, request: HttpRequest, obj: _AdminModel | None) -> bool:
        return obj is not None and not may_show_secrets(self.match_of(obj), request.user)

    def get_fields(
        self, request: HttpRequest, obj: _AdminModel | None = None
    ) -> list[str | list[str] | tuple[str, ...]] | tuple[str | list[str] | tuple[str, ...], ...]:
        fields = super().get_fields(request, obj)
        if self.hides_secrets(request, obj):
            return [name for name in fields if name not in self.secret_fields]
        return fields

    def get_exclude(self, request: HttpRequest, obj: _AdminModel | None = None) -> list[str]:
        exclude = list(super().get_exclude(request, obj) or [])
        if self.hides_secrets(request, obj):
            exclude += [name for name in self.secret_fields if name not in exclude]
        return exclude

    def get_readonly_fields(self, request: HttpRequest, obj: _AdminModel | None = None) -> list[str] | tuple[str, ...]:
        fields = super().get_readonly_fields(request, obj)
        if self.hides_secrets(request, obj):
            return [name for name in fields if name not in self.secret_fields]
        return fields


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin[Player]):
    list_display = ["id", "name", "kind", "builtin", "owner", "created_at"]
    list_filter = ["kind"]
    search_fields = ["name"]
    raw_id_fields = ["owner"]


class MatchSeatInline(admin.TabularInline[MatchSeat, Match]):
    model = MatchSeat
    extra = 0
    raw_id_fields = ["player"]
    readonly_fields = ["score", "rank", "forfeited", "rating_before", "rating_after"]


@admin.register(Match)
class MatchAdmin(SecretFieldsAdmin[Match]):
    secret_fields = ("seed", "record")
    list_display = ["id", "game", "kind", "rated", "status", "attempt", "created_at", "finished_at"]
    list_filter = ["status", "kind", "rated", "game"]
    inlines = [MatchSeatInline]
    readonly_fields = ["record", "attempt", "lease_expires_at", "started_at", "finished_at"]
    raw_id_fields = ["created_by"]

    def match_of(self, obj: Match) -> Match:
        return obj


@admin.register(ArenaEntry)
class ArenaEntryAdmin(admin.ModelAdmin[ArenaEntry]):
    list_display = ["id", "player", "game", "table_size", "active", "current_match", "tables_played"]
    list_filter = ["game", "table_size", "active"]
    raw_id_fields = ["player", "current_match", "entered_by"]
