"""LiveGame.stand_in (a bool per action) becomes decided_by (who took each decision, and why).

The causes of past stand-in moves are exact: a person's stand-in moves are the clock's until the seat
went out (its `timeouts` count them), the seat's having left afterwards; a submitted bot's first one is
its forfeit, the later ones the seat's having left. Reversing keeps whether the stand-in decided.
"""

from __future__ import annotations

from typing import Any

from django.db import migrations, models


def causes(stand_in: list[bool], seats: list[int], people: set[int], timeouts: list[int]) -> list[str]:
    taken: dict[int, int] = {}
    out = []
    for flag, seat in zip(stand_in, seats, strict=False):
        if not flag:
            out.append("seat")
            continue
        before = taken.get(seat, 0)
        taken[seat] = before + 1
        if seat in people:
            out.append("clock" if before < (timeouts[seat] if seat < len(timeouts) else 0) else "left")
        else:
            out.append("forfeit" if before == 0 else "left")
    return out


def forward(apps: Any, schema_editor: Any) -> None:
    LiveGame = apps.get_model("play", "LiveGame")
    MatchSeat = apps.get_model("arena", "MatchSeat")
    for live in LiveGame.objects.iterator():
        seats = [int(action.get("seat", -1)) for action in (live.record or {}).get("actions") or []]
        people = set(
            MatchSeat.objects.filter(match_id=live.match_id, player__kind="human").values_list("seat", flat=True)
        )
        live.decided_by = causes(list(live.stand_in), seats, people, list(live.timeouts))
        live.save(update_fields=["decided_by"])


def backward(apps: Any, schema_editor: Any) -> None:
    LiveGame = apps.get_model("play", "LiveGame")
    for live in LiveGame.objects.iterator():
        live.stand_in = [cause != "seat" for cause in live.decided_by]
        live.save(update_fields=["stand_in"])


class Migration(migrations.Migration):
    dependencies = [
        ("play", "0004_live_game_stand_in"),
    ]

    operations = [
        migrations.AddField(
            model_name="livegame",
            name="decided_by",
            field=models.JSONField(default=list),
        ),
        migrations.RunPython(forward, backward),
        migrations.RemoveField(
            model_name="livegame",
            name="stand_in",
        ),
    ]
