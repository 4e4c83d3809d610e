"""A short arena of rated matches between the built-in bots, with a progress bar, then the leaderboard."""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from arena.builtin import ensure_builtin_bots
from arena.models import ArenaEntry, Match, Player
from matchmaking import matchmaker
from matchmaking.entries import enter_arena
from ratings import leaderboard

GAME = "part-du-chef"


class Command(BaseCommand):
    help = "Play a short demo arena of rated matches between the built-in bots and print the leaderboard."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--matches", type=int, default=12, help="arena matches to play (default 12)")
        parser.add_argument("--timeout", type=float, default=600.0, help="give up after this many seconds")

    def handle(self, *args: Any, **options: Any) -> None:
        wanted = options["matches"]
        if wanted < 1:
            raise CommandError("--matches must be at least 1")
        bots = ensure_builtin_bots(Player)
        started = timezone.now()
        entries = [enter_arena(player_id=bot.id, game=GAME, table_size=2, entered_by=None) for bot in bots]
        err = Console(stderr=True)
        if settings.CELERY_TASK_ALWAYS_EAGER:
            err.print("Redis is not reachable: matches are played in this process.")
        deadline = time.monotonic() + options["timeout"]
        done = 0
        try:
            with Progress(
                TextColumn("[bold]demo arena[/bold]"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("rated matches"),
                TimeElapsedColumn(),
                console=err,
            ) as progress:
                task = progress.add_task("arena", total=wanted)
                while done < wanted:
                    if time.monotonic() > deadline:
                        raise CommandError(
                            f"only {done} of {wanted} matches finished in {options['timeout']:.0f}s; "
                            "is a worker running (celery -A config worker)?"
                        )
                    finished = Match.objects.filter(kind=Match.Kind.ARENA, created_at__gte=started)
                    done = finished.filter(status=Match.Status.FINISHED).count()
                    progress.update(task, completed=min(done, wanted))
                    # The beat ticks too; this keeps the demo moving even without one.
                    if done + finished.filter(status__in=["queued", "running"]).count() < wanted:
                        matchmaker.tick()
                    time.sleep(0.2)
        finally:
            ArenaEntry.objects.filter(pk__in=[e.pk for e in entries]).update(active=False)
        self._print_leaderboard()

    def _print_leaderboard(self) -> None:
        table = Table(title="La Part du Chef leaderboard")
        for column in ("rank", "player", "kind", "rating", "games"):
            table.add_column(column, justify="right" if column in {"rank", "rating", "games"} else "left")
        found = leaderboard.page(GAME, None, 1, 20)
        for row in [] if isinstance(found, int) else found[1]:
            mark = "?" if row.provisional else ""
            table.add_row(str(row.rank), row.name, row.kind, f"{row.rating:.0f}{mark}", str(row.games))
        Console().print(table)
        self.stdout.write("(? = provisional: fewer than 10 rated games)")
