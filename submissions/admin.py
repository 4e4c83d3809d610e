from __future__ import annotations

from django.contrib import admin

from arena.admin import SecretFieldsAdmin
from arena.models import Match
from submissions.models import BotSeat, BotVersion, SubmittedBot

_VERSION_FIELDS = ("number", "source", "filename", "endpoint", "status", "reason", "created_at", "activated_at")


class BotVersionInline(admin.TabularInline[BotVersion, SubmittedBot]):
    model = BotVersion
    extra = 0
    fields = _VERSION_FIELDS
    readonly_fields = _VERSION_FIELDS
    can_delete = False


@admin.register(SubmittedBot)
class SubmittedBotAdmin(admin.ModelAdmin[SubmittedBot]):
    list_display = ["player", "game", "suspended_at", "retired_at", "created_at"]
    list_filter = ["game"]
    search_fields = ["player__name", "player__owner__username"]
    raw_id_fields = ["player"]
    inlines = [BotVersionInline]


@admin.register(BotVersion)
class BotVersionAdmin(admin.ModelAdmin[BotVersion]):
    list_display = ["id", "bot", "number", "source", "status", "created_at", "validated_at"]
    list_filter = ["status", "source"]
    readonly_fields = ["bundle_sha256", "bundle_size", "log", "attempt", "lease_expires_at"]
    raw_id_fields = ["bot"]


@admin.register(BotSeat)
class BotSeatAdmin(SecretFieldsAdmin[BotSeat]):
    # What the bot wrote may name the pizzas it saw.
    secret_fields = ("moves", "stderr", "forfeit_reason")
    list_display = ["match", "seat", "player", "version", "pinned", "played", "forfeited"]
    list_filter = ["forfeited", "pinned"]
    raw_id_fields = ["match", "player", "version"]

    def match_of(self, obj: BotSeat) -> Match:
        return obj.match
