"""Player names compared on their skeleton (common.skeleton), unique: `ＡＬＩＣＥ` and `a1ice` are `alice`.

Existing players whose skeletons clash keep their names: the newer ones get a key that names their id
(`alice#42`), so that the migration never stops a deploy; renaming them frees the key.
"""

from __future__ import annotations

from typing import Any

from django.apps.registry import Apps
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor

from common.skeleton import skeleton


def fill_keys(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Player = apps.get_model("arena", "Player")
    seen: set[str] = set()
    batch: list[Any] = []
    for player in Player.objects.order_by("id").only("id", "name").iterator(chunk_size=2000):
        key = skeleton(player.name)
        if key in seen:
            key = f"{key}#{player.id}"
        seen.add(key)
        player.name_key = key
        batch.append(player)
        if len(batch) >= 2000:
            Player.objects.bulk_update(batch, ["name_key"])
            batch.clear()
    if batch:
        Player.objects.bulk_update(batch, ["name_key"])


class Migration(migrations.Migration):
    dependencies = [("arena", "0006_search_fast_bot")]

    operations = [
        migrations.AddField(
            model_name="player",
            name="name_key",
            field=models.CharField(default="", editable=False, max_length=256),
            preserve_default=False,
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="player",
            name="name_key",
            field=models.CharField(editable=False, max_length=256, unique=True),
        ),
    ]
