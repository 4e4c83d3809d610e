from __future__ import annotations

from django.contrib import admin

from ratings.models import Rating, RatingChange


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin[Rating]):
    list_display = ["player", "game", "kind", "rating", "deviation", "games", "rated_at", "updated_at"]
    list_filter = ["game", "kind"]
    search_fields = ["player__name"]
    raw_id_fields = ["player"]
    show_full_result_count = False


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin[RatingChange]):
    list_display = [
        "id",
        "match",
        "player",
        "game",
        "before",
        "after",
        "deviation_before",
        "deviation_after",
        "created_at",
    ]
    list_filter = ["game"]
    raw_id_fields = ["match", "player"]
    show_full_result_count = False
