"""The chat beside a table, as pages: the messages one may read, saying one, reporting one."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from arena.errors import NotSeated
from arena.models import Match, Player
from arena.people import person_of
from play import chat

SHOWN = 100


def _match(match_id: int) -> Match:
    match = get_object_or_404(Match.objects.defer("record"), pk=match_id)
    if not hasattr(match, "live"):
        raise Http404("no such table")
    return match


def _person(request: HttpRequest) -> Player | None:
    return person_of(request.user) if request.user.is_authenticated else None


def messages(request: HttpRequest, match_id: int) -> HttpResponse:
    match = _match(match_id)
    player = _person(request)
    shown = list(chat.readable(match, player).order_by("-id")[:SHOWN])[::-1]
    # What this reader reported stays marked whenever the log is drawn again (a live update, a reload).
    reported = chat.reported_by(player, [m.id for m in shown]) if player is not None else set()
    return render(
        request,
        "web/_chat.html",
        {
            "match": match,
            "chat": shown,
            "me": player,
            "reported": reported,
            "channel": chat.channel_of(match, player),
        },
    )


def _refusal(reason: str) -> str:
    if reason == "long":
        return _("A message has at most %(n)d characters.") % {"n": chat.MAX_LENGTH}
    if reason == "link":
        return _("Links cannot be sent in the chat: say it in words.")
    if reason == "fast":
        return _("Not so fast: at most %(n)d messages in %(s)d seconds.") % {"n": chat.BURST, "s": chat.BURST_SECONDS}
    return _("Write something first.")


@require_POST
def say(request: HttpRequest, match_id: int) -> HttpResponse:
    match = _match(match_id)
    player = _person(request)
    if player is None:
        return JsonResponse({"ok": False, "error": _("Sign in to chat.")}, status=403)
    try:
        chat.say(match, player, request.POST.get("text", "")[: chat.MAX_LENGTH * 2])
    except chat.ChatRefused as exc:
        return JsonResponse({"ok": False, "error": _refusal(exc.reason)}, status=400)
    if request.headers.get("X-Requested-With") == "fetch":
        return JsonResponse({"ok": True, "error": None})
    return redirect("web:play", match_id=match.id)


@require_POST
def report(request: HttpRequest, match_id: int, message_id: int) -> HttpResponse:
    match = _match(match_id)
    player = _person(request)
    if player is None:
        return JsonResponse({"ok": False, "error": _("Sign in to chat.")}, status=403)
    try:
        chat.report(match, player, message_id)
    except NotSeated:
        raise Http404("no such message") from None
    return JsonResponse({"ok": True, "error": None})
