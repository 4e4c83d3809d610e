"""Player names and account usernames unique whatever the case; existing clashes are named, not hidden."""

from __future__ import annotations

from django.apps.registry import Apps
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.models.functions import Lower


def refuse_existing_clashes(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Player = apps.get_model("arena", "Player")
    User = apps.get_model("auth", "User")
    for model, field in ((Player, "name"), (User, "username")):
        clashes = (
            model.objects.annotate(folded=Lower(field))
            .values("folded")
            .annotate(n=models.Count("id"))
            .filter(n__gt=1)
            .values_list("folded", flat=True)[:10]
        )
        if clashes:
            raise RuntimeError(
                f"{model.__name__} {field}s that differ only by case exist: {sorted(clashes)}; "
                "rename all but one of each, then migrate again"
            )


class Migration(migrations.Migration):
    dependencies = [
        ("arena", "0004_match_resends"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [
        migrations.RunPython(refuse_existing_clashes, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(Lower("name"), name="player_name_unique_any_case"),
        ),
        migrations.RunSQL(
            'CREATE UNIQUE INDEX IF NOT EXISTS auth_user_username_unique_any_case ON auth_user (lower("username"))',
            "DROP INDEX IF EXISTS auth_user_username_unique_any_case",
        ),
    ]
