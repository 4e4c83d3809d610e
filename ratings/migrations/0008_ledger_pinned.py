from django.db import migrations, models


class Migration(migrations.Migration):
    """Each ledger row says whether the player's rating was pinned in that game (a settled house bot
    among others); every row written so far moved its player's rating, so none was."""

    dependencies = [
        ("ratings", "0007_ledger_rule"),
    ]

    operations = [
        migrations.AddField(
            model_name="ratingchange",
            name="pinned",
            field=models.BooleanField(default=False),
        ),
    ]
