"""Pages of the web front; the work is done by the domain modules, views stay thin."""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from accounts import throttles
from accounts.web import throttled_page
from arena.errors import NotSeated, PlayError, RequestError
from arena.models import Match, MatchSeat, Player
from arena.people import person_of
from arena.secrecy import held_back_reason
from common.clients import client_address
from games.part_du_chef import KIND_NAMES, State
from games.part_du_chef.state import portions_of
from games.registry import GameSpec, all_games, get_game
from matchmaking import people as people_queue
from play import engine, tables
from play.models import FriendlyTable
from ratings import leaderboard
from ratings.models import Rating, RatingChange
from submissions.decisions import NotShown, owner_view
from submissions.models import BotSeat
from web import charts, pizza, replay, search, sentences
from web.bots import owner_bots
from web.forms import SignUpForm
from web.table import FormProblem, action_from_form, context

DEFAULT_GAME = "part-du-chef"
PAGE_SIZE = 50
SEARCH_LIMIT = 500
HISTORY_POINTS = 300
RANK_CACHE_SECONDS = 30
REPLAY_CACHE_SECONDS = 3600


def _game(key: str) -> GameSpec:
    try:
        return get_game(key)
    except KeyError:
        raise Http404(f"unknown game {key!r}") from None


def _person(request: HttpRequest) -> Player | None:
    if not request.user.is_authenticated:
        return None
    return person_of(request.user)


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "web/home.html", {"games": all_games()})


def signup(request: HttpRequest) -> HttpResponse:
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and (wait := throttles.signup_wait(client_address(request))) is not None:
        return throttled_page(wait)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        throttles.signed_up(client_address(request))
        person_of(user)
        login(request, user)
        return redirect("web:lobby")
    return render(request, "web/signup.html", {"form": form})


def leaderboard_page(request: HttpRequest, game: str) -> HttpResponse:
    spec = _game(game)
    kind = request.GET.get("kind") or None
    if kind not in (None, *Player.Kind.values):
        kind = None
    query = request.GET.get("q", "").strip()[:64]
    try:
        number = max(1, int(request.GET.get("page", "1")))
    except ValueError:
        number = 1
    rows: list[Any]
    last_page = 1
    count = 0
    too_many = False
    if query:
        # Any part of a name, read from the trigram index, at most SEARCH_LIMIT names (a part shared by
        # a million players must not rank a million ratings); ranks are counted for the page's rows.
        ids = search.matching_ids(query, SEARCH_LIMIT + 1)
        too_many = len(ids) > SEARCH_LIMIT
        rows = search.ranked(spec.key, kind, ids[:SEARCH_LIMIT], PAGE_SIZE)
    else:
        count = leaderboard.board_size(spec.key, kind)
        last_page = max(1, -(-count // PAGE_SIZE))
        number = min(number, last_page)
        rows = leaderboard.page(spec.key, kind, number, PAGE_SIZE)
    return render(
        request,
        "web/leaderboard.html",
        {
            "game": spec,
            "kind": kind or "",
            "query": query,
            "too_many": too_many,
            "rows": rows,
            "count": count,
            "number": number,
            "last_page": last_page,
            "previous": number - 1 if number > 1 else None,
            "next": number + 1 if number < last_page else None,
        },
    )


def _rank(row: Rating) -> int:
    key = f"web-rank:{row.game}:{row.player_id}:{row.rating!r}"
    rank = cache.get(key)
    if rank is None:
        rank = leaderboard.rank_of(row)
        cache.set(key, rank, RANK_CACHE_SECONDS)
    return int(rank)


@login_required
def my_profile(request: HttpRequest) -> HttpResponse:
    """The header's "Signed in as" link: one's own profile (no page pays a query to link it)."""
    return redirect("web:player", player_id=person_of(request.user).id)


def player_page(request: HttpRequest, player_id: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=player_id)
    spec = _game(request.GET.get("game", DEFAULT_GAME))
    rating = Rating.objects.filter(player=player, game=spec.key).first()
    history = list(
        RatingChange.objects.filter(player=player, game=spec.key)
        .order_by("-id")
        .values_list("before", "after")[:HISTORY_POINTS]
    )[::-1]
    points = [history[0][0], *(after for _, after in history)] if history else []
    record = MatchSeat.objects.filter(
        player=player, match__game=spec.key, match__rated=True, rank__isnull=False
    ).aggregate(games=Count("id"), wins=Count("id", filter=Q(rank=1)))
    recent = list(
        MatchSeat.objects.filter(player=player)
        .select_related("match")
        .defer("match__record")
        .order_by("-match_id")[:15]
    )
    # The opponents of those matches, in one query for all of them.
    opponents: dict[int, list[Player]] = {}
    for other in (
        MatchSeat.objects.filter(match_id__in=[seat.match_id for seat in recent])
        .exclude(player=player)
        .select_related("player")
        .order_by("match_id", "seat")
    ):
        opponents.setdefault(other.match_id, []).append(other.player)
    recent_rows = [{"seat": seat, "opponents": opponents.get(seat.match_id, [])} for seat in recent]
    return render(
        request,
        "web/player.html",
        {
            "player": player,
            "game": spec,
            "rating": rating,
            "rank": _rank(rating) if rating else None,
            "provisional": rating is not None and rating.provisional,
            "chart": charts.rating_chart(points),
            "rated_games": record["games"],
            "win_rate": (100.0 * record["wins"] / record["games"]) if record["games"] else None,
            "recent": recent_rows,
        },
    )


def _replay_payload(match: Match, record: dict[str, Any]) -> dict[str, Any]:
    key = f"web-replay:{match.id}:{get_language()}"
    payload: dict[str, Any] | None = cache.get(key)
    if payload is None:
        payload = {"frames": [frame.to_json() for frame in replay.frames(record)]}
        cache.set(key, payload, REPLAY_CACHE_SECONDS)
    return payload


def match_page(request: HttpRequest, match_id: int) -> HttpResponse:
    match = get_object_or_404(Match.objects.defer("record"), pk=match_id)
    seats = list(MatchSeat.objects.filter(match=match).select_related("player").order_by("seat"))
    held_back = held_back_reason(match)
    if match.status != Match.Status.FINISHED or held_back is not None:
        if match.status != Match.Status.FINISHED and hasattr(match, "live"):
            return redirect("web:play", match_id=match.id)
        over = match.status in (Match.Status.FINISHED, Match.Status.FAILED)
        return render(
            request, "web/match_waiting.html", {"match": match, "seats": seats, "held_back": held_back, "over": over}
        )
    match = Match.objects.get(pk=match_id)
    record = match.record
    if record is None:  # a finished match keeps its record; this only guards against a damaged row
        raise Http404("this match has no record")
    frames = _replay_payload(match, record)["frames"]
    try:
        step = min(max(0, int(request.GET.get("step", len(frames) - 1))), len(frames) - 1)
    except ValueError:
        step = len(frames) - 1
    frame = frames[step]
    marks = [str(seat) for seat in range(len(seats))]  # from 0, as in the API, the protocol and the logs
    rings = []
    for index, ring_slices in enumerate(record["pizzas"]):
        ids = [s["id"] for s in ring_slices]
        states = {}
        for sid in ids:
            if str(sid) in frame["eaten"]:
                states[sid] = pizza.SliceState(eaten_by=frame["eaten"][str(sid)])
            elif str(sid) in frame["owner"]:
                states[sid] = pizza.SliceState(owner=frame["owner"][str(sid)], moved=sid in frame["moved"])
        rings.append(
            pizza.ring(
                ids,
                label=_("Pizza %(n)d of 5") % {"n": index + 1},
                states=states,
                cuts=frame["cuts"][index] or (),
                size=210,
                seat_marks=marks,
                pizza=index,
                dimmed=index > frame["pizza"],
            )
        )
    scores = record.get("scores") or []
    rows = []
    for seat in seats:
        score = scores[seat.seat] if seat.seat < len(scores) else {}
        rows.append(
            {
                "seat": seat,
                "mark": marks[seat.seat],
                "score": score,
                "kept": pizza.chips(frame["kept"][seat.seat]),
                "eaten": pizza.chips(frame["eatenBySeat"][seat.seat], "eaten-chip"),
                "total": frame["totals"][seat.seat],
                "delta": (
                    (seat.rating_after - seat.rating_before)
                    if seat.rating_after is not None and seat.rating_before is not None
                    else None
                ),
            }
        )
    # The final scores in placing order (the seat is the tie-break).
    rows.sort(key=lambda row: (row["seat"].rank or len(rows) + 1, row["seat"].seat))
    return render(
        request,
        "web/match.html",
        {
            "match": match,
            "rows": rows,
            "rings": rings,
            "frame": frame,
            "step": step,
            "last_step": len(frames) - 1,
            "frames_json": frames,
            "chili": [{**c, "name": pizza.sort_name(KIND_NAMES.index(c["sort"]))} for c in record.get("chili") or []],
            "names": [seat.player.name for seat in seats],
        },
    )


def match_record(request: HttpRequest, match_id: int) -> HttpResponse:
    match = get_object_or_404(Match.objects.only("id", "status", "record"), pk=match_id)
    reason = held_back_reason(match)
    if reason is not None or match.record is None:
        raise Http404(reason or "this match has no record")
    response = HttpResponse(json.dumps(match.record, indent=1), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="match-{match.id}.json"'
    return response


def _table(request: HttpRequest, match_id: int) -> tuple[engine.TableState, Player | None]:
    player = _person(request)
    try:
        return engine.table_state(match_id, player), player
    except NotSeated:
        raise Http404("no such table") from None


def play_page(request: HttpRequest, match_id: int) -> HttpResponse:
    table, player = _table(request, match_id)
    if request.method == "POST":
        return _play_post(request, table, player)
    return render(request, "web/play.html", {"match": table.live.match, **context(table)})


def play_panel(request: HttpRequest, match_id: int) -> HttpResponse:
    table, _ = _table(request, match_id)
    return render(request, "web/_play_panel.html", {"match": table.live.match, **context(table)})


def _play_post(request: HttpRequest, table: engine.TableState, player: Player | None) -> HttpResponse:
    wants_json = request.headers.get("X-Requested-With") == "fetch"
    refused: sentences.Refusal | None = None
    who = sentences.Seats([p.name for p in table.players], table.seat)
    if player is None or table.seat is None:
        refused = sentences.Refusal(_("Sign in with a seat at this table to play."))
    else:
        try:
            if request.POST.get("resign") == "1":
                engine.resign(table.live.match_id, player)
            else:
                turn_raw = request.POST.get("turn", "")
                if not turn_raw.isdigit():
                    raise FormProblem(sentences.Refusal(_("The form could not be read: reload the table.")))
                turn = int(turn_raw)
                engine.submit_action(table.live.match_id, player, turn, action_from_form(request.POST))
        except FormProblem as exc:
            refused = exc.refusal
        except ValueError as exc:
            # The rules' and the engine's refusals (IllegalAction and PlayError are ValueErrors), and
            # a form whose numbers do not parse; told in the player's words.
            refused = sentences.refusal(str(exc), who)
    if wants_json:
        if refused is None:
            return JsonResponse({"ok": True, "error": None, "field": None})
        return JsonResponse({"ok": False, "error": refused.message, "field": refused.field}, status=400)
    if refused is not None:
        messages.error(request, refused.message, extra_tags="play" if table.seat is not None else "")
    return redirect("web:play", match_id=table.live.match_id)


@login_required
def lobby(request: HttpRequest) -> HttpResponse:
    player = person_of(request.user)
    if request.method == "POST":
        try:
            if "leave" in request.POST:
                people_queue.leave(request.user)
            elif "join" in request.POST:
                people_queue.join(
                    request.user, request.POST.get("game", DEFAULT_GAME), int(request.POST.get("table_size", "0"))
                )
            elif "open" in request.POST:
                names = [n.strip() for n in request.POST.get("guests", "").split(",") if n.strip()]
                found = dict(Player.objects.filter(name__in=names).values_list("name", "id"))
                missing = [name for name in names if name not in found]
                if missing:
                    raise PlayError(_("No player named %(name)s.") % {"name": missing[0]})
                options = {"marianne": request.POST.get("marianne") == "on"}
                tables.open_table(request.user, DEFAULT_GAME, [found[name] for name in names], options)
            elif "accept" in request.POST:
                tables.accept(request.user, int(request.POST["accept"]))
            elif "decline" in request.POST:
                tables.decline(request.user, int(request.POST["decline"]))
        except (ValueError, PlayError, RequestError) as exc:
            messages.error(request, str(exc))
        return redirect("web:lobby")
    status = people_queue.status(request.user)
    invitations = (
        FriendlyTable.objects.filter(seats__player=player, status=FriendlyTable.Status.OPEN)
        .prefetch_related("seats__player")
        .order_by("-id")[:20]
    )
    return render(
        request,
        "web/lobby.html",
        {
            "player": player,
            "status": status,
            "games": all_games(),
            "sizes": [2, 3, 4, 5],
            "invitations": [
                {"table": t, "mine": next(s for s in t.seats.all() if s.player_id == player.id)} for t in invitations
            ],
            "bots": Player.objects.filter(kind=Player.Kind.BOT, owner=None).exclude(builtin="").order_by("id")[:10],
            "house_bots_after": settings.ARENA_HOUSE_BOTS_AFTER_SECONDS,
        },
    )


def rules(request: HttpRequest) -> HttpResponse:
    language = (get_language() or "en").split("-")[0]
    if language not in ("en", "fr", "nb"):
        language = "en"
    # An example: the first pizza of seed 29 cut at gaps 4, 5 and 6 for three players.
    ring = State.new(3, 29).pizzas[0]
    example = pizza.ring(
        ring,
        label=_("Pizza %(n)d of 5") % {"n": 1},
        cuts=(4, 5, 6),
        size=260,
        portion_of={sid: index for index, part in enumerate(portions_of(ring, (4, 5, 6))) for sid in part},
    )
    return render(request, f"web/rules_{language}.html", {"defs": pizza.defs(), "example": example})


@login_required
def bot_eyes(request: HttpRequest, bot_id: int, match_id: int) -> HttpResponse:
    """A finished match through one's own bot's eyes: what it saw, answered, took and wrote, decision by decision."""
    seat = get_object_or_404(
        BotSeat.objects.select_related("match", "version", "player"),
        player_id=bot_id,
        player__owner=request.user,
        match_id=match_id,
    )
    try:
        view = owner_view(seat)
    except NotShown as exc:
        raise Http404(str(exc)) from None
    for decision in view["decisions"]:
        decision["seen"] = json.dumps(decision["observation"], ensure_ascii=False)
        decision["played_json"] = json.dumps(decision["played"], ensure_ascii=False)
    return render(request, "web/bot_eyes.html", {"view": view, "bot": seat.player})


@login_required
def my_bots(request: HttpRequest) -> HttpResponse:
    return render(request, "web/bots.html", {"bots": owner_bots(request.user), "table_sizes": range(2, 6)})
