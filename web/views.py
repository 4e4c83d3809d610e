"""Pages of the web front; the work is done by the domain modules, views stay thin."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from accounts import throttles
from accounts.web import throttled_page
from arena.errors import ArenaError, NotSeated
from arena.models import Match, MatchSeat, Player
from arena.people import person_of
from arena.secrecy import held_back_reason
from common.clients import client_address
from games.part_du_chef import KIND_NAMES, IllegalAction, InvalidAction, State
from games.part_du_chef.state import portions_of
from games.registry import GameSpec, UnknownGame, all_games, get_game
from matchmaking import people as people_queue
from matchmaking.house import ladder_players
from matchmaking.house import patience as house_patience
from play import clocks, engine, tables
from play.events import playing_key
from play.models import LiveGame
from ratings import leaderboard
from ratings.models import Rating, RatingChange
from submissions.decisions import NotShown, owner_view
from submissions.models import BotSeat
from web import charts, guests, notices, pizza, replay, search, sentences
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
    except UnknownGame as exc:
        raise Http404(str(exc)) from None


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
        try:
            with transaction.atomic():
                user = form.save()
                person_of(user)
        except IntegrityError:  # a look-alike taken meanwhile: the database's unique name keys decide
            form.add_error("username", _("This name is taken."))
        else:
            throttles.signed_up(client_address(request))
            login(request, user)
            return redirect("web:lobby")
    return render(request, "web/signup.html", {"form": form})


def leaderboard_page(request: HttpRequest, game: str) -> HttpResponse:
    spec = _game(game)
    kind = request.GET.get("kind") or None
    if kind not in (None, *Player.Kind.values):
        kind = None
    # A NUL cannot be in a name, and PostgreSQL refuses it in a query: it is dropped.
    query = request.GET.get("q", "").replace("\x00", "").strip()[:64]
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
        rows = leaderboard.search(spec.key, kind, ids[:SEARCH_LIMIT], PAGE_SIZE)
    else:
        found = leaderboard.page(spec.key, kind, number, PAGE_SIZE)
        if isinstance(found, int):  # past the last page: show the last one
            found = leaderboard.page(spec.key, kind, max(1, -(-found // PAGE_SIZE)), PAGE_SIZE)
        count, rows = found if not isinstance(found, int) else (found, [])
        last_page = max(1, -(-count // PAGE_SIZE))
        number = min(number, last_page)
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


def _line(row: Rating) -> leaderboard.Row | None:
    key = f"web-line:{row.game}:{row.player_id}:{row.rating!r}:{row.deviation!r}"
    line: leaderboard.Row | None = cache.get(key)
    if line is None:
        line = leaderboard.rank(row.game, None, row.player_id)
        cache.set(key, line, RANK_CACHE_SECONDS)
    return line


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
            "line": _line(rating) if rating else None,
            "provisional": rating is not None and rating.provisional,
            "chart": charts.rating_chart(points),
            "rated_games": record["games"],
            "win_rate": (100.0 * record["wins"] / record["games"]) if record["games"] else None,
            "recent": recent_rows,
        },
    )


def _replay_payload(match: Match, record: dict[str, Any]) -> dict[str, Any]:
    # Keyed by when the match finished too: the cache outlives a database made anew (a test run, a restore),
    # where the same id may name another match with another record.
    finished = match.finished_at.timestamp() if match.finished_at else 0
    key = f"web-replay:{match.id}:{finished}:{get_language()}"
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
    marks = [str(seat + 1) for seat in range(len(seats))]  # 1 to N, as the rules count; the API counts from 0
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
    # The replay's players in seat order (its first column is the seat); the final scores in placing
    # order (the seat is the tie-break).
    placed = sorted(rows, key=lambda row: (row["seat"].rank or len(rows) + 1, row["seat"].seat))
    return render(
        request,
        "web/match.html",
        {
            "match": match,
            "rows": rows,
            "placed": placed,
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
    if table.live.to_act is None and player is not None and request.user.is_authenticated:
        # The game is over: the header no longer leads here (should the note of its end be missed).
        if cache.get(playing_key(request.user.pk)) == match_id:
            cache.delete(playing_key(request.user.pk))
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
        except (ArenaError, InvalidAction, IllegalAction) as exc:
            # The engine's and the rules' refusals, told in the player's words; any other error is a bug.
            refused = sentences.refusal(exc, who)
    if wants_json:
        if refused is None:
            return JsonResponse({"ok": True, "error": None, "field": None})
        return JsonResponse({"ok": False, "error": refused.message, "field": refused.field}, status=400)
    if refused is not None:
        messages.error(request, refused.message, extra_tags="play" if table.seat is not None else "")
    return redirect("web:play", match_id=table.live.match_id)


def _form_number(request: HttpRequest, name: str) -> int:
    raw = request.POST.get(name, "")
    if not raw.isdigit():
        raise FormProblem(sentences.Refusal(_("The form could not be read: reload the page.")))
    return int(raw)


@login_required
def lobby(request: HttpRequest) -> HttpResponse:
    player = person_of(request.user)
    if request.method == "POST":
        if "open" in request.POST:
            return _open_table(request, player)
        try:
            if "leave" in request.POST:
                people_queue.leave(request.user)
            elif "join" in request.POST:
                people_queue.join(
                    request.user, request.POST.get("game", DEFAULT_GAME), _form_number(request, "table_size")
                )
            elif "accept" in request.POST:
                table = tables.accept(request.user, _form_number(request, "accept"))
                if table.match_id is not None:  # everyone has accepted: the game starts at once
                    return redirect("web:play", match_id=table.match_id)
            elif "decline" in request.POST:
                tables.decline(request.user, _form_number(request, "decline"))
        except FormProblem as exc:
            messages.error(request, exc.refusal.message)
        except ArenaError as exc:
            messages.error(request, str(exc))
        return redirect("web:lobby")
    return _lobby_page(request, player)


def _open_table(request: HttpRequest, player: Player) -> HttpResponse:
    """A friendly table for the guests named; a problem with the names is told beside the field, in the
    page's language, and the names typed stay in it."""
    raw = request.POST.get("guests", "")[:500]
    marianne = request.POST.get("marianne") == "on"
    clock = clocks.choice(request.POST.get("clock"))
    checked = guests.check(get_game(DEFAULT_GAME), player, guests.split(raw))
    error = checked.error
    if not error:
        try:
            tables.open_table(request.user, DEFAULT_GAME, checked.ids, {"marianne": marianne}, clock=clock)
        except ArenaError as exc:
            error = _("This table cannot be opened: %(reason)s") % {"reason": str(exc)}
    if error:
        form = {"guests": raw, "marianne": marianne, "clock": clock.key, "error": error}
        return _lobby_page(request, player, form, status=400)
    return redirect("web:lobby")


def _lobby_page(
    request: HttpRequest, player: Player, form: dict[str, Any] | None = None, status: int = 200
) -> HttpResponse:
    queue = people_queue.status(request.user)
    told = notices.for_player(player)
    return render(
        request,
        "web/lobby.html",
        {
            "player": player,
            "status": queue,
            "games": all_games(),
            "sizes": [2, 3, 4, 5],
            "invitations": told["invitations"],
            "declined": told["declined"],
            "bots": ladder_players(),
            "house_bots_after": house_patience(people=True),
            "form": form or {"guests": "", "marianne": False, "clock": clocks.DEFAULT, "error": ""},
            "clocks": [{"key": c.key, "label": notices.clock_label(c.seconds, c.bank)} for c in clocks.CLOCKS],
        },
        status=status,
    )


NOW_PLAYING_LIMIT = 50


def now_playing(request: HttpRequest) -> HttpResponse:
    """Tables being played now, for anyone to watch: players, ratings, the pizza on the table."""
    games = list(
        LiveGame.objects.filter(match__status=Match.Status.RUNNING, to_act__isnull=False)
        .select_related("match")
        .defer("record", "match__record")
        .order_by("-match_id")[:NOW_PLAYING_LIMIT]
    )
    ids = [game.match_id for game in games]
    seats: dict[int, list[MatchSeat]] = {}
    for seat in MatchSeat.objects.filter(match_id__in=ids).select_related("player").order_by("match_id", "seat"):
        seats.setdefault(seat.match_id, []).append(seat)
    ratings = {
        (r.player_id, r.game): r.rating
        for r in Rating.objects.filter(player_id__in={s.player_id for group in seats.values() for s in group})
    }
    rows = []
    for game in games:
        seated = seats.get(game.match_id, [])
        count = max(1, len(seated))
        rows.append(
            {
                "match": game.match,
                # A pizza takes one cut and one take per player: the decisions so far say which is on the table.
                "pizza": min(5, game.turn // (count + 1) + 1),
                "players": [
                    {"player": s.player, "rating": ratings.get((s.player_id, game.match.game))} for s in seated
                ],
            }
        )
    return render(request, "web/now_playing.html", {"rows": rows})


@login_required
def notices_fragment(request: HttpRequest) -> HttpResponse:
    """The notices bar of every page (invitations, tables waiting, declines), fetched by its script."""
    return render(request, "web/_notices.html", notices.for_player(person_of(request.user)))


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
