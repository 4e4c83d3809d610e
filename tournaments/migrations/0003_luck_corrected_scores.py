from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0002_swiss_byes"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournamentgame",
            name="corrected",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="tournamentgame",
            name="baseline",
            field=models.CharField(blank=True, default="", max_length=40),
        ),
    ]
