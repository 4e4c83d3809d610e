"""A deviation per rating (ratings.elo), and the deviations and time of each ledger row.

Ratings rated before this get the deviation a player has after that many games against settled
opponents (1/D² = 1/350² + games · q²/4, at least 30), at least the new-version deviation (200)
while still owing placement games; their last rated game is taken as their last write. Their ledger
rows keep no deviation: the ledger replays them with the fixed-K formula they were written with.
"""

from django.db import migrations, models

import ratings.elo

# The same as ratings.elo at the time of writing, frozen here.
SETTLE = """
UPDATE ratings_rating SET
    rated_at = CASE WHEN games > 0 THEN updated_at END,
    deviation = GREATEST(
        30.0,
        1.0 / SQRT(1.0 / (350.0 * 350.0) + games * POWER(LN(10.0) / 400.0, 2) / 4.0),
        CASE WHEN provisional_left > 0 THEN 200.0 ELSE 0.0 END
    )
"""


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0004_rating_updated_index"),
    ]

    operations = [
        migrations.AddField(
            model_name="rating",
            name="deviation",
            field=models.FloatField(default=ratings.elo.INITIAL_DEVIATION),
        ),
        migrations.AddField(
            model_name="rating",
            name="rated_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="ratingchange",
            name="deviation_after",
            field=models.FloatField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="ratingchange",
            name="deviation_before",
            field=models.FloatField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="ratingchange",
            name="rated_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunSQL(SETTLE, migrations.RunSQL.noop),
    ]
