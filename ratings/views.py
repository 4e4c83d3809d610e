"""Leaderboards, players with their ratings, and rating histories; reading needs no account."""

from __future__ import annotations

import json

from django.db.models import QuerySet
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django_filters import rest_framework as filters
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, permissions, viewsets
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.utils.urls import remove_query_param, replace_query_param
from rest_framework.views import APIView

from arena.errors import RequestError
from arena.models import Player
from games.registry import UnknownGame, get_game
from ratings import leaderboard
from ratings.models import RatingChange
from ratings.serializers import (
    LeaderboardPageSerializer,
    PlayerStandingSerializer,
    PlayerWithRatingsSerializer,
    RatingChangeSerializer,
)

PAGE_SIZE = 50
MAX_PAGE_SIZE = 200
NEIGHBOURS = 5

KIND_PARAM = OpenApiParameter("kind", OpenApiTypes.STR, enum=list(Player.Kind.values), description="bot or human")


def known_game(game: str) -> str:
    """The game named in the path: the registry's one answer, an unknown game being a resource not found."""
    try:
        return str(get_game(game).key)
    except UnknownGame as exc:
        raise NotFound(str(exc)) from None


def kind_filter(request: Request) -> str | None:
    kind = request.query_params.get("kind") or None
    if kind is not None and kind not in Player.Kind.values:
        raise RequestError(f"kind must be one of {', '.join(Player.Kind.values)}, got {kind!r}")
    return kind


def positive_int(request: Request, name: str, default: int, maximum: int) -> int:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise RequestError(f"{name} must be a positive integer, got {raw!r}") from None
    if not 1 <= value <= maximum:
        raise RequestError(f"{name} must be between 1 and {maximum}, got {value}")
    return value


def _line(row: leaderboard.Row) -> dict[str, object]:
    """The shape of LeaderboardRowSerializer, built without serializer fields."""
    return {
        "rank": row.rank,
        "player": {"id": row.player_id, "name": row.name, "kind": row.kind},
        "rating": row.rating,
        "deviation": round(row.deviation, 4),
        "interval": list(row.interval),
        "rank_interval": list(row.rank_interval),
        "games": row.games,
        "provisional": row.provisional,
    }


def _json(body: dict[str, object]) -> HttpResponse:
    # Written as DRF's JSONRenderer writes it (compact, UTF-8), without its per-field machinery:
    # these two answers are the hot path of a million-player board.
    return HttpResponse(json.dumps(body, ensure_ascii=False, separators=(",", ":")), content_type="application/json")


class LeaderboardView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[
            KIND_PARAM,
            OpenApiParameter("page", OpenApiTypes.INT),
            OpenApiParameter("page_size", OpenApiTypes.INT),
        ],
        responses=LeaderboardPageSerializer,
    )
    def get(self, request: Request, game: str) -> HttpResponse:
        game = known_game(game)
        kind = kind_filter(request)
        size = positive_int(request, "page_size", PAGE_SIZE, MAX_PAGE_SIZE)
        number = positive_int(request, "page", 1, 10**9)
        found = leaderboard.page(game, kind, number, size)
        if isinstance(found, int):
            raise NotFound(f"page {number} is past the last page ({max(1, -(-found // size))})")
        count, rows = found
        last_page = max(1, -(-count // size))
        url = request.build_absolute_uri()
        previous = None
        if number > 1:
            previous = remove_query_param(url, "page") if number == 2 else replace_query_param(url, "page", number - 1)
        return _json(
            {
                "count": count,
                "next": replace_query_param(url, "page", number + 1) if number < last_page else None,
                "previous": previous,
                "results": [_line(row) for row in rows],
            }
        )


class PlayerStandingView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(parameters=[KIND_PARAM], responses=PlayerStandingSerializer)
    def get(self, request: Request, game: str, player_id: int) -> HttpResponse:
        game = known_game(game)
        kind = kind_filter(request)
        found = leaderboard.standing(game, kind, player_id, NEIGHBOURS)
        if found is None:
            raise NotFound(f"player {player_id} has no {game} rating")
        return _json(
            {
                "game": game,
                "player": _line(found.player),
                "above": [_line(row) for row in found.above],
                "below": [_line(row) for row in found.below],
            }
        )


class PlayerFilter(filters.FilterSet):
    kind = filters.ChoiceFilter(choices=Player.Kind.choices)

    class Meta:
        model = Player
        fields = ["kind"]


class PlayerViewSet(viewsets.ReadOnlyModelViewSet[Player]):
    """Players, each with its rating and leaderboard place per game (a page's looked up together)."""

    queryset = Player.objects.order_by("id").prefetch_related("ratings")
    lookup_value_regex = "[0-9]+"
    serializer_class = PlayerWithRatingsSerializer
    permission_classes = [permissions.AllowAny]
    filterset_class = PlayerFilter


class RatingHistoryView(generics.ListAPIView[RatingChange]):
    """Every rating change of a player in a game, oldest first."""

    serializer_class = RatingChangeSerializer
    permission_classes = [permissions.AllowAny]

    def get_queryset(self) -> QuerySet[RatingChange]:
        if getattr(self, "swagger_fake_view", False):
            return RatingChange.objects.none()
        player = get_object_or_404(Player, pk=self.kwargs["player_id"])
        game = known_game(self.kwargs["game"])
        return RatingChange.objects.filter(player=player, game=game).select_related("match").order_by("id")
