"""`MatchSeat.rank` becomes the arena's placing: a forfeiter below every seat that did not forfeit.

Bot matches stored the totals-only ranks; tables already stored placings. Recomputing every
finished match from its seats' scores and forfeit flags makes all rows mean the same.
"""

from __future__ import annotations

from typing import Any

from django.db import migrations

from games.part_du_chef.placing import placings


def recompute_ranks(apps: Any, schema_editor: Any) -> None:
    seat_model = apps.get_model("arena", "MatchSeat")
    forfeit_matches = (
        seat_model.objects.filter(forfeited=True, score__isnull=False).values_list("match_id", flat=True).distinct()
    )
    for match_id in forfeit_matches.iterator():
        seats = list(seat_model.objects.filter(match_id=match_id).order_by("seat"))
        placed = placings([seat.score or 0 for seat in seats], [seat.forfeited for seat in seats])
        for seat, rank in zip(seats, placed, strict=True):
            seat.rank = rank
        seat_model.objects.bulk_update(seats, ["rank"])


class Migration(migrations.Migration):
    dependencies = [("arena", "0002_builtin_bots")]

    operations = [migrations.RunPython(recompute_ranks, migrations.RunPython.noop)]
