"""Rebuild the Redis leaderboard index of every game (or of the games named) from the ratings table."""

from __future__ import annotations

from functools import partial
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from games.registry import UnknownGame, all_games, get_game
from ratings.leaderboard import index
from ratings.models import Rating


class Command(BaseCommand):
    help = (
        "Rebuild the leaderboard order kept in Redis from the ratings in PostgreSQL "
        "(after a Redis flush, a restore, or ratings edited by hand)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("games", nargs="*", help="game keys (default: every game)")

    def handle(self, *args: Any, **options: Any) -> None:
        if index.client() is None:
            raise CommandError("Redis is not reachable (REDIS_URL): the leaderboards are served from PostgreSQL")
        try:
            keys = [str(get_game(key).key) for key in options["games"]] or [str(s.key) for s in all_games()]
        except UnknownGame as exc:
            raise CommandError(str(exc)) from None
        console = Console(stderr=True)
        for key in keys:
            with Progress(
                TextColumn(f"indexing {key}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=console,
                disable=not console.is_terminal,
            ) as progress:
                task = progress.add_task(key, total=Rating.objects.filter(game=key).count())
                total = index.rebuild(key, partial(progress.advance, task))
            self.stdout.write(f"{key}: {total} rated players indexed")
