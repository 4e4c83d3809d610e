"""A trigram index on player names, so that the leaderboard finds a name by any part of it
(ILIKE '%part%') without reading every player."""

from __future__ import annotations

from typing import Any

from django.contrib.postgres.operations import TrigramExtension
from django.db import migrations

INDEX = "arena_player_name_trgm"


def create_index(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        # On UPPER(name): Django's icontains is UPPER(name) LIKE UPPER('%part%').
        schema_editor.execute(
            f"CREATE INDEX IF NOT EXISTS {INDEX} ON arena_player USING gin ((UPPER(name::text)) gin_trgm_ops)"
        )


def drop_index(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP INDEX IF EXISTS {INDEX}")


class Migration(migrations.Migration):
    dependencies = [("arena", "0002_builtin_bots")]

    operations = [
        TrigramExtension(),
        migrations.RunPython(create_index, drop_index),
    ]
