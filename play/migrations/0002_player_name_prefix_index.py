from __future__ import annotations

from typing import Any

from django.db import migrations

INDEX = "CREATE INDEX IF NOT EXISTS player_name_prefix ON arena_player (UPPER(name::text) text_pattern_ops)"


def create(apps: Any, schema_editor: Any) -> None:
    # PostgreSQL only: the embedded SQLite fallback has no operator classes (and no million players).
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(INDEX)


def drop(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("DROP INDEX IF EXISTS player_name_prefix")


class Migration(migrations.Migration):
    """Name-prefix search on the leaderboard pages (`name__istartswith`) from an index, not a scan
    of every player: the expression matches the UPPER(name::text) LIKE UPPER('prefix%') Django writes."""

    dependencies = [
        ("play", "0001_initial"),
        ("arena", "0001_initial"),
    ]

    operations = [migrations.RunPython(create, drop, elidable=False)]
