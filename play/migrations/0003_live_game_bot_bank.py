from __future__ import annotations

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("play", "0002_player_name_prefix_index"),
    ]

    operations = [
        migrations.AddField(
            model_name="livegame",
            name="bank_ms",
            field=models.JSONField(default=list),
        ),
    ]
