"""Creating any match: the one check of a line-up (game, seats, who may sit, options, seed) and the one create path.

A match is created queued (the service plays it: its play task is sent on commit) or, for a table
with people, running from the start with no lease. What happens next: `arena.claims` (taking a
queued match for one attempt), `results.batches` (playing it), `results.commit` (committing it), `arena.sweeper`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any
from uuid import UUID

from django.db import transaction
from django.utils import timezone

from arena.claims import MATCH_LEASE, dispatch_match, dispatch_queued
from arena.errors import NotYourChoice, RequestError
from arena.models import Match, MatchSeat, Player
from arena.seats import Where, challenge_refusal, check
from arena.seeds import MAX_SEED, draw_seed
from games.registry import GameSpec, SetupError, UnknownGame, get_game


def resolve_game(game: str) -> GameSpec:
    """The game of a request; the registry's one answer to "is this game known?" as a RequestError."""
    try:
        return get_game(game)
    except UnknownGame as exc:
        raise RequestError(str(exc), code=exc.code, params=exc.params) from None


def check_count(spec: GameSpec, count: int) -> None:
    """The seat count of a match, a table, an arena pool or a tournament's tables: the game's one message."""
    try:
        spec.check_players(count)
    except SetupError as exc:
        raise RequestError(str(exc), code=exc.code, params=exc.params) from None


def check_distinct(player_ids: Sequence[int]) -> None:
    """No player seated twice at one match."""
    seen: set[int] = set()
    for player_id in player_ids:
        if player_id in seen:
            raise RequestError.coded("seated_twice", player=player_id)
        seen.add(player_id)


def check_options(spec: GameSpec, options: object, count: int) -> dict[str, Any]:
    """The options normalised for `count` players, or a RequestError naming the bad one."""
    try:
        return spec.validate_options(options, count)
    except SetupError as exc:
        raise RequestError(f"bad options: {exc}", code=exc.code, params=exc.params) from None


@dataclass(frozen=True)
class Seating:
    """A checked line-up: the game, the players in seat order, normalised options and the seed."""

    spec: GameSpec
    players: list[Player]
    options: dict[str, Any]
    seed: int


def check_seating(
    *,
    game: str,
    players: Sequence[Player] | Sequence[int],
    options: object = None,
    seed: object = None,
    where: Where = Where.MATCH,
    pins: Mapping[int, Any] | None = None,
    challenger: Any = None,
) -> Seating:
    """The one validation of every match: game, seat count, a player seated twice, who may sit, options, seed.

    `players`: the players in seat order, or their ids (looked up once the count and the repeats are
    checked, so a bad count, a repeated and an unknown id are named in that order).

    A creator may give a seed only where every seat is a bot (a reproducible experiment); a match
    with a person always gets a seed drawn here, so nobody can know the deal in advance.

    `challenger`: the account asking for this line-up in a request (a friendly match or table). Each
    bot's owner decides whether it may seat the bot (SeatKind.challenge), and a seed it chooses is taken
    only when every seat is a built-in bot or one of its own bots: nobody studies another's bot on known deals.
    """
    spec = resolve_game(game)
    count = len(players)
    check_count(spec, count)
    check_distinct([player if isinstance(player, int) else player.id for player in players])
    players = _look_up(players)
    people = [player for player in players if player.is_person]
    if seed is not None and people:
        raise RequestError(
            f"a seed may be given only when every seat is a bot; player {people[0].id} ({people[0].name}) "
            "is a person, so the server draws the seed"
        )
    for seat, player in enumerate(players):
        check(player, where, (pins or {}).get(seat))
    if challenger is not None:
        check_challenge(players, seed, challenger)
    normalised = check_options(spec, options, count)
    if seed is None:
        seed = draw_seed()
    elif isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise RequestError(f"seed must be an integer between 0 and {MAX_SEED}")
    return Seating(spec=spec, players=list(players), options=normalised, seed=seed)


def check_challenge(players: Sequence[Player], seed: object, challenger: Any) -> None:
    for player in players:
        reason = challenge_refusal(player, challenger)
        if reason is not None:
            raise NotYourChoice(reason)
    if seed is None:
        return
    for player in players:
        if not player.is_builtin and player.owner_id != challenger.pk:
            raise RequestError(
                f"a seed may be chosen only for your own bots and built-in bots; bot {player.id} ({player.name}) "
                "is another account's, so the server draws the seed (leave out `seed`)"
            )


def _look_up(players: Sequence[Player] | Sequence[int]) -> list[Player]:
    """The players in the given order, those given by id read in one query; an unknown id named."""
    player_ids = [player for player in players if isinstance(player, int)]
    if not player_ids:
        return [player for player in players if not isinstance(player, int)]
    found = Player.objects.in_bulk(player_ids)
    missing = [player_id for player_id in player_ids if player_id not in found]
    if missing:
        raise RequestError.coded("unknown_player", player=missing[0])
    return [found[player] if isinstance(player, int) else player for player in players]


def create_match(
    *,
    game: str,
    kind: str,
    player_ids: Sequence[int] | None = None,
    players: Sequence[Player] | None = None,
    options: object = None,
    seed: object = None,
    created_by: Any = None,
    live: bool = False,
    dispatch: bool = True,
    service_seed: int | None = None,
    pins: Mapping[int, Any] | None = None,
    deal_group: UUID | None = None,
    challenger: Any = None,
) -> Match:
    """The one create path of every kind of match, inside the caller's transaction when there is one.

    `live`: a table played decision by decision (people may sit; running from the start with no
    lease, so the bot-match sweeper never touches it). Otherwise a queued match the service plays,
    its play task sent on commit unless `dispatch` is False (the caller plays it in-process).
    `seed` comes from the creator (refused where a person sits); `service_seed` is one the service
    itself fixes (a known deal for tests and benchmarks), never taken from a request.
    `deal_group` joins the tables of one duplicate deal: they are played in lockstep (results.deals).
    `challenger`: the account whose request names the players (check_seating).
    """
    if kind not in Match.Kind.values:
        raise RequestError(f"unknown match kind {kind!r}; expected one of {', '.join(Match.Kind.values)}")
    seating = check_seating(
        game=game,
        players=players if players is not None else list(player_ids or []),
        options=options,
        seed=seed,
        where=Where.TABLE if live else Where.MATCH,
        pins=pins,
        challenger=challenger,
    )
    if service_seed is not None:
        seating = replace(seating, seed=service_seed)
    now = timezone.now()
    with transaction.atomic():
        match = Match.objects.create(
            game=seating.spec.key,
            kind=kind,
            rated=kind in Match.RATED_KINDS,
            options=seating.options,
            seed=seating.seed,
            created_by=created_by,
            status=Match.Status.RUNNING if live else Match.Status.QUEUED,
            attempt=1 if live else 0,
            started_at=now if live else None,
            lease_expires_at=None if live else MATCH_LEASE.resend_deadline(),
            deal_group=deal_group,
        )
        MatchSeat.objects.bulk_create(
            [MatchSeat(match=match, seat=seat, player=player) for seat, player in enumerate(seating.players)]
        )
        # Built-in bots' matches are offered as queued work (one message leases many); others get their own.
        if dispatch and not live and not dispatch_queued(seating.players, deal_group):
            dispatch_match(match.id)
    return match
