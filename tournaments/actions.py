"""State changes of tournaments; each runs in one transaction, tasks are sent on commit.

A tournament moves registration -> running (claimed with a conditional UPDATE; entries frozen
to their active version, round 1 created) -> each round's matches are created when the round
before is over (claimed by a conditional UPDATE of `current_round`) -> finished. Every step is
safe to run twice or at once.
"""

from __future__ import annotations

import random
from typing import Any
from uuid import uuid4

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Count, Q
from django.utils import timezone

from arena.dispatch import send_on_commit
from arena.errors import RequestError
from arena.matches import check_count, check_options, resolve_game
from arena.models import Match, Player
from arena.seating import SeatTally
from common.task_names import TaskName
from games.part_du_chef.control_variates import BASELINE
from ratings.models import Rating
from submissions.matches import create_pinned_match
from submissions.models import BotVersion, SubmittedBot
from submissions.seats import active_version
from tournaments import luck, schedule
from tournaments.models import Tournament, TournamentEntry, TournamentGame
from tournaments.standings import Standing, compute

DONE = (Match.Status.FINISHED, Match.Status.FAILED)


def dispatch_advance(tournament_id: int) -> None:
    send_on_commit(TaskName.TOURNAMENT_ADVANCE, (tournament_id,))


def dispatch_start(tournament_id: int) -> None:
    send_on_commit(TaskName.TOURNAMENT_START, (tournament_id,))


def _size_refusal(tournament: Tournament, entrants: int) -> str | None:
    if entrants > settings.ARENA_TOURNAMENT_MAX_ENTRIES:
        return f"a tournament takes at most {settings.ARENA_TOURNAMENT_MAX_ENTRIES} entries"
    if entrants < tournament.table_size and tournament.format == Tournament.Format.ROUND_ROBIN:
        return None
    total = planned_games(tournament, entrants)
    if total > settings.ARENA_TOURNAMENT_MAX_GAMES:
        what = "a round robin" if tournament.format == Tournament.Format.ROUND_ROBIN else "this swiss"
        return (
            f"{what} of {entrants} entries at tables of {tournament.table_size} would need {total} games; "
            f"the limit is {settings.ARENA_TOURNAMENT_MAX_GAMES} (fewer entries, games per table or rounds)"
        )
    return None


def planned_games(tournament: Tournament, entrants: int) -> int:
    if entrants < 2:
        return 0
    round_robin = tournament.format == Tournament.Format.ROUND_ROBIN
    per_round = schedule.games_per_round(
        entrants,
        tournament.table_size,
        tournament.games_per_table,
        duplicate=tournament.duplicate,
        round_robin=round_robin,
    )
    return per_round * (1 if round_robin else tournament.rounds)


def create_tournament(*, created_by: Any, **fields: Any) -> Tournament:
    spec = resolve_game(fields.get("game", "part-du-chef"))
    size = fields["table_size"]
    check_count(spec, size)
    if fields.get("rated", True) and not created_by.is_staff:
        raise RequestError("only staff may create rated tournaments; create a friendly one (rated: false)")
    if fields["format"] == Tournament.Format.ROUND_ROBIN:
        fields["rounds"] = 1
    options = check_options(spec, fields.get("options") or {}, size)
    starts_at = fields.get("starts_at")
    if starts_at is not None and starts_at <= timezone.now():
        raise RequestError("starts_at must be in the future")
    fields.update(game=spec.key, options={"marianne": options["marianne"]})
    return Tournament.objects.create(created_by=created_by, **fields)


def enter(tournament: Tournament, *, player_id: int, user: Any) -> TournamentEntry:
    """Enter one's own bot while registration is open; built-in bots: staff, or the tournament's organiser."""
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        raise RequestError(f"no player {player_id}")
    if player.is_person:
        raise RequestError(f"player {player_id} ({player.name}) is a person; tournaments are played by bots")
    if player.is_house_bot:
        if not (user.is_staff or tournament.created_by_id == user.id):
            raise RequestError(
                f"bot {player_id} ({player.name}) is a built-in bot: only the tournament's organiser "
                "(or staff) may enter it; create a tournament of your own to play against it"
            )
    elif player.owner_id != user.id:
        raise RequestError(f"bot {player_id} ({player.name}) belongs to another account; enter your own bots")
    if player.is_submitted_bot:
        bot = SubmittedBot.objects.filter(pk=player.id).first()
        if bot is None or bot.game != tournament.game:
            raise RequestError(f"bot {player_id} does not play {tournament.game}")
        if bot.retired_at is not None:
            raise RequestError(f"bot {player_id} is retired")
        if not BotVersion.objects.filter(bot=bot).exclude(status=BotVersion.Status.REJECTED).exists():
            raise RequestError(f"bot {player_id} has no version that could play")
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if locked.status != Tournament.Status.REGISTRATION:
            raise RequestError(f"registration is closed (the tournament is {locked.status})")
        existing = TournamentEntry.objects.filter(tournament=locked, player=player).first()
        if existing is not None:
            return existing
        refusal = _size_refusal(locked, locked.entries.count() + 1)
        if refusal:
            raise RequestError(refusal)
        try:
            return TournamentEntry.objects.create(tournament=locked, player=player, entered_by=user)
        except IntegrityError:
            return TournamentEntry.objects.get(tournament=locked, player=player)


def withdraw(entry: TournamentEntry) -> None:
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=entry.tournament_id)
        if locked.status != Tournament.Status.REGISTRATION:
            raise RequestError(f"the tournament is {locked.status}; entries are frozen")
        TournamentEntry.objects.filter(pk=entry.pk).delete()


def start(tournament_id: int) -> bool:
    """Close registration, freeze each entry to its active version, create round 1."""
    with transaction.atomic():
        claimed = Tournament.objects.filter(pk=tournament_id, status=Tournament.Status.REGISTRATION).update(
            status=Tournament.Status.RUNNING, started_at=timezone.now(), current_round=1
        )
        if not claimed:
            return False
        tournament = Tournament.objects.get(pk=tournament_id)
        playing = []
        for entry in tournament.entries.select_related("player").order_by("id"):
            if not entry.player.is_submitted_bot:  # a built-in engine has no versions to freeze
                playing.append(entry)
                continue
            version = active_version(entry.player)
            if version is None:
                entry.dropped = "no active version when the tournament started"
                entry.save(update_fields=["dropped"])
                continue
            entry.version = version
            entry.save(update_fields=["version"])
            playing.append(entry)
        least = tournament.table_size if tournament.format == Tournament.Format.ROUND_ROBIN else 2
        refusal = _size_refusal(tournament, len(playing))
        if len(playing) < least or refusal:
            reason = refusal or f"{len(playing)} playing entries; at least {least} are needed"
            Tournament.objects.filter(pk=tournament_id).update(
                status=Tournament.Status.CANCELLED, error=reason, finished_at=timezone.now()
            )
            return True
        Tournament.objects.filter(pk=tournament_id).update(games_total=planned_games(tournament, len(playing)))
        _create_round(tournament, 1, playing)
    return True


def _ordered_for_round(tournament: Tournament, playing: list[TournamentEntry], round_number: int) -> list[Any]:
    if round_number == 1:
        ratings = dict(
            Rating.objects.filter(game=tournament.game, player_id__in=[e.player_id for e in playing]).values_list(
                "player_id", "rating"
            )
        )
        return sorted(playing, key=lambda e: (-ratings.get(e.player_id, 1500.0), e.id))
    by_id = {entry.id: entry for entry in playing}
    return [by_id[row.entry] for row in standings(tournament) if row.entry in by_id]


def _create_round(tournament: Tournament, round_number: int, playing: list[TournamentEntry]) -> None:
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        tables = schedule.round_robin_tables(sorted(playing, key=lambda e: e.id), tournament.table_size)
    else:
        had_bye = {int(entry_id) for entry_id in tournament.byes.values()}
        ordered = _ordered_for_round(tournament, playing, round_number)
        tables, bye = schedule.swiss_tables(ordered, tournament.table_size, [e for e in ordered if e.id in had_bye])
        if bye is not None:
            tournament.byes = {**tournament.byes, str(round_number): bye.id}
            Tournament.objects.filter(pk=tournament.pk).update(byes=tournament.byes)
    # Fair seats: each table's order balances its entrants' seats over the tournament's earlier rounds.
    tally = SeatTally()
    by_id = {entry.id: entry for entry in playing}
    for seating_ids in TournamentGame.objects.filter(tournament=tournament).values_list("entries", flat=True):
        tally.add([by_id.get(entry_id, entry_id) for entry_id in seating_ids])
    rng = random.Random(f"tournament {tournament.pk} round {round_number}")
    tables = schedule.fair_orders(
        tables, tournament.games_per_table, duplicate=tournament.duplicate, tally=tally, rng=rng
    )
    kind = Match.Kind.RANKED if tournament.rated else Match.Kind.FRIENDLY
    links = []
    for table_index, table in enumerate(tables):
        for deal in range(tournament.games_per_table):
            seed = schedule.deal_seed()
            # The rotations of a duplicate deal are played side by side, pizza by pizza (botclient.lockstep).
            group = uuid4() if tournament.duplicate else None
            for rotation, seating in enumerate(schedule.rotations(table, deal, duplicate=tournament.duplicate)):
                match = create_pinned_match(
                    game=tournament.game,
                    kind=kind,
                    seats=[(entry.player, entry.version) for entry in seating],
                    options=tournament.options,
                    seed=seed,
                    created_by=tournament.created_by,
                    deal_group=group,
                )
                links.append(
                    TournamentGame(
                        tournament=tournament,
                        match=match,
                        round=round_number,
                        table=table_index,
                        deal=deal,
                        rotation=rotation if tournament.duplicate else deal % len(table),
                        entries=[entry.id for entry in seating],
                    )
                )
    TournamentGame.objects.bulk_create(links)


def advance(tournament_id: int) -> str:
    """Start a due tournament, open the next round when one is over, or finish. Idempotent."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return "unknown"
    if tournament.status in (Tournament.Status.RUNNING, Tournament.Status.FINISHED):
        # A full batch may leave more behind (the last games of a finished tournament): look again.
        if luck.correct_finished(tournament) == luck.BATCH:
            dispatch_advance(tournament_id)
    if tournament.status == Tournament.Status.REGISTRATION:
        if tournament.starts_at is not None and tournament.starts_at <= timezone.now():
            return "started" if start(tournament_id) else "not claimed"
        return "registration"
    if tournament.status != Tournament.Status.RUNNING:
        return str(tournament.status)
    current = tournament.current_round
    pending = (
        TournamentGame.objects.filter(tournament=tournament, round=current).exclude(match__status__in=DONE).exists()
    )
    if pending:
        return "waiting"
    with transaction.atomic():
        if current < tournament.rounds:
            claimed = Tournament.objects.filter(
                pk=tournament_id, status=Tournament.Status.RUNNING, current_round=current
            ).update(current_round=current + 1)
            if not claimed:
                return "not claimed"
            playing = list(tournament.entries.filter(dropped="").select_related("player", "version").order_by("id"))
            _create_round(tournament, current + 1, playing)
            return f"round {current + 1}"
        finished = Tournament.objects.filter(
            pk=tournament_id, status=Tournament.Status.RUNNING, current_round=current
        ).update(status=Tournament.Status.FINISHED, finished_at=timezone.now())
    return "finished" if finished else "not claimed"


# Finished tournaments whose luck-corrected scores a tick brings to today's baseline, at most.
STALE_PER_TICK = 5


def tick() -> dict[str, int]:
    """Start due tournaments and advance running ones (covers failed matches and lost messages); bring
    a few finished ones' corrected scores to today's baseline."""
    now = timezone.now()
    due = Tournament.objects.filter(
        Q(status=Tournament.Status.RUNNING) | Q(status=Tournament.Status.REGISTRATION, starts_at__lte=now)
    ).values_list("id", flat=True)
    ids = list(due) + luck.stale(STALE_PER_TICK)
    moved = sum(1 for tournament_id in ids if advance(tournament_id) not in ("waiting", "registration", "not claimed"))
    return {"tournaments": len(ids), "moved": moved}


def standings(tournament: Tournament) -> list[Standing]:
    entries = list(tournament.entries.filter(dropped="").order_by("id").values_list("id", flat=True))
    games = []
    rows = (
        TournamentGame.objects.filter(tournament=tournament, match__status=Match.Status.FINISHED)
        .select_related("match")
        .prefetch_related("match__seats")
        .order_by("id")
    )
    corrected: list[list[float] | None] = []
    for game in rows:
        seats = sorted(game.match.seats.all(), key=lambda seat: seat.seat)
        games.append(
            [(entry, seat.forfeited, int(seat.score or 0)) for entry, seat in zip(game.entries, seats, strict=True)]
        )
        corrected.append(game.corrected if game.baseline == BASELINE.name else None)
    byes = [int(entry_id) for entry_id in tournament.byes.values()]
    return compute(entries, games, byes=byes, corrected=corrected if tournament.duplicate else None)


def progress(tournament: Tournament) -> dict[str, int]:
    counts = TournamentGame.objects.filter(tournament=tournament).aggregate(
        done=Count("id", filter=Q(match__status__in=DONE)),
        failed=Count("id", filter=Q(match__status=Match.Status.FAILED)),
    )
    total = tournament.games_total
    if tournament.status == Tournament.Status.REGISTRATION:
        total = planned_games(tournament, tournament.entries.count())
    return {"done": counts["done"], "total": total, "failed": counts["failed"]}
