from __future__ import annotations

from typing import Any

from django.db import migrations

from arena.builtin import ensure_builtin_bots


def create_builtin_bots(apps: Any, schema_editor: Any) -> None:
    # The house ladder's second search rung, search-fast, joins the built-in bots.
    ensure_builtin_bots(apps.get_model("arena", "Player"))


class Migration(migrations.Migration):
    dependencies = [("arena", "0005_names_unique_any_case")]

    operations = [migrations.RunPython(create_builtin_bots, migrations.RunPython.noop)]
