from django.db import migrations, models


class Migration(migrations.Migration):
    """Each ledger row names the rule it was rated by; every row written so far was rated by rule 1."""

    dependencies = [
        ("ratings", "0006_fk_indexes_covered"),
    ]

    operations = [
        migrations.AddField(
            model_name="ratingchange",
            name="rule",
            field=models.PositiveSmallIntegerField(default=1),
            preserve_default=False,
        ),
    ]
