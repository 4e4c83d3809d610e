"""Comparing two versions of an owner's bots ("is my v2 better than v1?"): friendly games, never rated.

Every deal is played by each version in every seat against the same built-in opponents, as the
command line's `compare` does (games.part_du_chef.comparison: paired differences, 95% intervals,
the verdict in words); the versions play through the same protocol v1 sessions and sandbox as in
their validation games (seats.open_session), pinned to the versions asked for.

The deals are played apart, spread over the workers: submissions/comparison_deals.py.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from django.conf import settings
from django.db import transaction

from arena.dispatch import send_on_commit
from arena.errors import RequestError
from arena.seeds import draw_seed
from botclient import lockstep
from botclient.match import play_with_sessions
from common.database import close_this_threads_connection
from common.task_names import TaskName
from games.part_du_chef.bots import NOISY_GREEDY, noisy_share
from games.part_du_chef.comparison import Comparison, Side, format_seeds, seatings
from games.part_du_chef.seating import NamedBot, Outcome, Pace, Played
from games.part_du_chef.simulation import Estimate, make_bot
from games.part_du_chef.state import State
from submissions.models import BotComparison, BotVersion, SubmittedBot
from submissions.seats import open_session

COMPARE_OPPONENTS = ("random", "greedy")
PLAYABLE = (BotVersion.Status.ACTIVE, BotVersion.Status.RETIRED)


class ArenaSessions:
    """The resolver of games.part_du_chef.seating for submitted versions: plays their protocol v1 sessions
    under the arena's failure policy (a failing seat forfeits, greedy plays on for it)."""

    def add_arguments(self, parser: Any) -> None:
        """No command-line options: the server's settings give the limits."""

    def configure(self, args: Any) -> None:
        """Nothing to read."""

    def resolve(self, spec: str) -> Callable[[int], Any] | None:
        return None  # versions are given directly (version_bot), never named

    def play(self, state: State, seats: Sequence[Any], pace: Pace | None = None) -> Outcome:
        options: dict[str, Any] = {"marianne": True} if state.marianne_enabled else {}
        played = play_with_sessions(state, seats, options, replacement_seed=state.seed, pace=pace)
        return Outcome(tuple(played.forfeit_reasons), tuple(played.stand_in))

    def play_deal(self, lineups: Sequence[Sequence[NamedBot]], seed: int, marianne: bool) -> list[Played]:
        return play_deal_in_lockstep(lineups, seed, marianne)

    def close(self) -> None:
        """Sessions close at the end of each game."""


def version_label(version: BotVersion) -> str:
    return f"{version.bot.player.name} v{version.number}"


def version_bot(version: BotVersion, resolver: ArenaSessions) -> NamedBot:
    return NamedBot(version_label(version), lambda seed: open_session(version), resolver)


def builtin_bot(name: str) -> NamedBot:
    return NamedBot(name, lambda seed: make_bot(name, seed), policy=name)


# -- asking ---------------------------------------------------------------------------------------


def _against(bot: SubmittedBot, against: dict[str, Any]) -> BotVersion:
    """The version to compare with: a validated version of the same bot, or another own bot's active one."""
    if set(against) == {"version"}:
        number = against["version"]
        version = BotVersion.objects.defer("bundle", "log").filter(bot=bot, number=number).first()
        if version is None:
            raise RequestError(f"against: bot {bot.pk} has no version {number}")
        # Retired covers replaced versions (validated) and versions dropped before validation (not playable).
        if version.status not in PLAYABLE or version.validated_at is None:
            never = "" if version.validated_at else " and was never validated"
            raise RequestError(
                f"against: version {number} is {version.status}{never}; only an active or validated version can play"
            )
        return version
    if set(against) == {"bot"}:
        other = SubmittedBot.objects.filter(pk=against["bot"], player__owner_id=bot.player.owner_id).first()
        if other is None:
            raise RequestError(f"against: you have no bot {against['bot']}")
        if other.game != bot.game:
            raise RequestError(f"against: bot {other.pk} plays {other.game}, not {bot.game}")
        version = BotVersion.objects.defer("bundle", "log").filter(bot=other, status=BotVersion.Status.ACTIVE).first()
        if version is None or other.retired_at is not None:
            raise RequestError(f"against: bot {other.pk} has no active version")
        return version
    raise RequestError('against: give either {"version": number} or {"bot": id}')


def request_compare(
    bot: SubmittedBot,
    *,
    against: dict[str, Any],
    deals: int,
    opponents: Sequence[str],
    marianne: bool,
    fixed: bool = False,
) -> BotComparison:
    """Queue a comparison of the bot's active version against `against`; its task is sent on commit."""
    limit = int(settings.ARENA_COMPARE_MAX_DEALS)
    if not 1 <= deals <= limit:
        raise RequestError(f"deals: {deals} is out of range; ask for 1 to {limit} deals")
    if not 1 <= len(opponents) <= 3:
        raise RequestError(f"opponents: give 1 to 3 built-in bots, not {len(opponents)}")
    # Greedy with P% random moves too: a known policy, whose random moves the comparison corrects for luck.
    unknown = [name for name in opponents if name not in COMPARE_OPPONENTS and noisy_share(name) is None]
    if unknown:
        known = f"{', '.join(COMPARE_OPPONENTS)} and {NOISY_GREEDY}P (greedy with P% random moves, P from 1 to 99)"
        raise RequestError(f"opponents: unknown {', '.join(map(repr, unknown))}; built-in opponents are {known}")
    if bot.retired_at is not None:
        raise RequestError(f"bot {bot.pk} is retired")
    version = BotVersion.objects.defer("bundle", "log").filter(bot=bot, status=BotVersion.Status.ACTIVE).first()
    if version is None:
        raise RequestError(f"bot {bot.pk} has no active version to compare")
    other = _against(bot, against)
    if other.pk == version.pk:
        raise RequestError(f"against: that is version {version.number} itself, the one being compared")
    players = len(opponents) + 1
    with transaction.atomic():
        comparison = BotComparison.objects.create(
            bot=bot,
            version=version,
            against=other,
            deals=deals,
            opponents=list(opponents),
            marianne=marianne,
            fixed=fixed,
            seed=draw_seed(),
            games_total=2 * deals * players,
        )
        send_on_commit(TaskName.RUN_COMPARE, (comparison.pk,))
    return comparison


# -- playing --------------------------------------------------------------------------------------


def finite(value: float) -> float | None:
    """A float JSON and PostgreSQL can hold: an interval of one deal is infinite, the mean of none undefined."""
    return value if math.isfinite(value) else None


def estimate_json(estimate: Estimate) -> dict[str, Any]:
    return {"mean": finite(estimate.mean), "ci95": finite(estimate.half_width), "n": estimate.n}


def _side(side: Side) -> dict[str, Any]:
    return {
        "label": side.label,
        "score": estimate_json(side.score),
        "placing": estimate_json(side.placing),
        "forfeits": side.forfeits,
        "games": side.games,
    }


def result_json(comparison: Comparison) -> dict[str, Any]:
    return {
        "verdict": comparison.verdict(),
        "decided": comparison.stopped,
        "seeds": list(comparison.seeds),
        "replay": f"part-du-chef compare A B --seeds {format_seeds(comparison.seeds)}",
        "score_diff": estimate_json(comparison.score_diff),
        # The same difference with the luck corrected, what the verdict goes by (null where not corrected).
        "corrected_diff": None if comparison.corrected_diff is None else estimate_json(comparison.corrected_diff),
        "baseline": comparison.baseline,
        "variance_ratio": comparison.variance_ratio(),
        "placing_diff": estimate_json(comparison.placing_diff),
        "version": _side(comparison.a),
        "against": _side(comparison.b),
        "deals": comparison.deals,
        "players": comparison.players,
    }


def play_deal_in_lockstep(lineups: Sequence[Sequence[NamedBot]], seed: int, marianne: bool) -> list[Played]:
    """A deal's games side by side in lockstep (botclient.lockstep), as the local `compare` plays them; each
    table's thread closes its own database connection (a session may have opened one) as it ends."""
    return lockstep.play_deal_in_lockstep(lineups, seed, marianne, after_table=close_this_threads_connection)


def deal_lineups(row: BotComparison, resolver: ArenaSessions) -> list[list[NamedBot]]:
    """A deal's tables as `compare` plays them: the version in every seat, then the other version."""
    opponents = [builtin_bot(name) for name in row.opponents]
    sides = (version_bot(row.version, resolver), version_bot(row.against, resolver))
    return [lineup for bot in sides for lineup in seatings(bot, opponents)]
