"""A match's record moves from `jsonb` to compressed JSON text in `bytea` (arena/packed.py).

Existing rows are converted in place to their `jsonb` text, uncompressed (PostgreSQL has no zlib);
`PackedJSONField` reads both forms, and every record written from now on is compressed.
"""

import json
from typing import Any

from django.db import migrations

import arena.packed


def _uncompress_all(apps: Any, schema_editor: Any) -> None:
    """Back to `jsonb`: every compressed record (the whole of it, or without its derived fields) becomes its
    JSON text first."""
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(
            "SELECT id, record FROM arena_match WHERE substring(record FROM 1 FOR 1) IN ('\\x78'::bytea, '\\x01'::bytea)"
        )
        for pk, raw in cursor.fetchall():
            text = json.dumps(arena.packed.unpack(raw), separators=(",", ":")).encode()
            cursor.execute("UPDATE arena_match SET record = %s WHERE id = %s", [text, pk])


class Migration(migrations.Migration):
    dependencies = [
        ("arena", "0011_seat_forfeit_reason"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.RunSQL(
                    "ALTER TABLE arena_match ALTER COLUMN record TYPE bytea USING convert_to(record::text, 'UTF8')",
                    "ALTER TABLE arena_match ALTER COLUMN record TYPE jsonb USING convert_from(record, 'UTF8')::jsonb",
                ),
            ],
            state_operations=[
                migrations.AlterField(
                    model_name="match",
                    name="record",
                    field=arena.packed.PackedJSONField(blank=True, null=True),
                ),
            ],
        ),
        migrations.RunPython(migrations.RunPython.noop, _uncompress_all),
    ]
