from __future__ import annotations

from typing import Any

from django.db import migrations

from arena.builtin import ensure_builtin_bots


def create_builtin_bots(apps: Any, schema_editor: Any) -> None:
    # The house ladder's rungs between random and greedy (noisy-greedy-65, -45, -25, -15) join the
    # built-in bots.
    ensure_builtin_bots(apps.get_model("arena", "Player"))


class Migration(migrations.Migration):
    dependencies = [("arena", "0014_match_queued_index")]

    operations = [migrations.RunPython(create_builtin_bots, migrations.RunPython.noop)]
