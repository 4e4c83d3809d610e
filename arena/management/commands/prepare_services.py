"""Before anything else starts: create the PostgreSQL database if missing, probe Redis, choose fallbacks.

Prints shell `export` lines telling the settings which fallback to use, so that importing the
settings never does I/O. scripts/run.sh and scripts/test.sh run:

    eval "$(.venv/bin/python manage.py prepare_services)"
"""

from __future__ import annotations

import sys
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from common.services import ensure_postgres_database, parse_postgres_url, redis_reachable

FALLBACKS = {
    "PostgreSQL": "falling back to embedded SQLite at var/arena.sqlite3",
    "Redis": "falling back to running tasks in-process and a local-memory cache",
}


class Command(BaseCommand):
    help = "Create the database if missing, probe Redis, and print the fallback choice as shell exports."

    def handle(self, *args: Any, **options: Any) -> None:
        for directory in (settings.BASE_DIR / "var", settings.STATIC_ROOT):
            directory.mkdir(parents=True, exist_ok=True)
        database_why = None
        if not settings.DATABASE_URL.startswith("sqlite:///"):
            database_why = ensure_postgres_database(parse_postgres_url(settings.DATABASE_URL))
        redis_why = redis_reachable(settings.REDIS_URL)
        for what, why in (("PostgreSQL", database_why), ("Redis", redis_why)):
            if why is None:
                continue
            if settings.REQUIRE_SERVICES:
                raise CommandError(f"{what} is required but unreachable: {why}")
            print(f"warning: {what} unreachable ({why}); {FALLBACKS[what]}", file=sys.stderr)
        self.stdout.write(f"export ARENA_DATABASE_FALLBACK={int(database_why is not None)}")
        self.stdout.write(f"export ARENA_REDIS_FALLBACK={int(redis_why is not None)}")
