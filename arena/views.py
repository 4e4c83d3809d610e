"""Thin API views of the match core: games, matches and their records (players, with their ratings, are
served by ratings.views)."""

from __future__ import annotations

from typing import Any, TypeVar

from django.db import models
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django_filters import rest_framework as filters
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import mixins, permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.pagination import Cursor, CursorPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from arena.errors import RequestError
from arena.matches import create_match
from arena.models import Match
from arena.secrecy import held_back_reason
from arena.serializers import GameSerializer, MatchCreateSerializer, MatchSerializer
from games.registry import all_games

_Owned = TypeVar("_Owned", bound=models.Model)


class OwnedViewSet(viewsets.GenericViewSet[_Owned]):
    """The asking account's own objects (its bots, arena entries, tables): another account's answer 404,
    as if they did not exist. A subclass says which are one account's in `owned_by`."""

    def owned_by(self, user_id: int | None) -> QuerySet[_Owned]:
        raise NotImplementedError

    def get_queryset(self) -> QuerySet[_Owned]:
        mine = self.owned_by(self.request.user.pk)
        # The schema is drawn with no account: the same queryset, empty, so its model is known.
        return mine.none() if getattr(self, "swagger_fake_view", False) else mine


class GamesView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=GameSerializer(many=True))
    def get(self, request: Request) -> Response:
        games = [spec.to_json() for spec in all_games()]
        return Response(GameSerializer(games, many=True).data)


class MatchFilter(filters.FilterSet):
    player = filters.NumberFilter(field_name="seats__player_id")
    kind = filters.ChoiceFilter(choices=Match.Kind.choices)
    status = filters.ChoiceFilter(choices=Match.Status.choices)
    rated = filters.BooleanFilter()

    class Meta:
        model = Match
        fields = ["player", "kind", "status", "rated"]


class MatchCursor(CursorPagination):
    ordering = "-id"
    page_size = 50

    def decode_cursor(self, request: Request) -> Cursor | None:
        """DRF takes a cursor's position as given; a position that is not a match id answers 404 like
        any other cursor that cannot be decoded, never a 500 from the query."""
        cursor = super().decode_cursor(request)
        position = cursor.position if cursor is not None else None
        if position is not None and not (str(position).isascii() and str(position).isdigit()):
            raise NotFound(self.invalid_cursor_message)
        return cursor


class IsSignedInToCreate(permissions.BasePermission):
    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        return bool(request.user and request.user.is_authenticated)


class MatchViewSet(
    mixins.CreateModelMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    viewsets.GenericViewSet[Match],
):
    serializer_class = MatchSerializer
    lookup_value_regex = "[0-9]+"
    permission_classes = [IsSignedInToCreate]
    filterset_class = MatchFilter
    pagination_class = MatchCursor
    throttle_scope = "match-create"

    def get_queryset(self) -> QuerySet[Match]:
        return Match.objects.prefetch_related("seats").defer("record")

    def get_throttles(self) -> list[Any]:
        return super().get_throttles() if self.action == "create" else []

    @extend_schema(request=MatchCreateSerializer, responses={201: MatchSerializer})
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        if not isinstance(request.data, dict):
            raise RequestError("the request body must be a JSON object")
        incoming = MatchCreateSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        data = incoming.validated_data
        if data["kind"] == Match.Kind.RANKED and not request.user.is_staff:
            raise PermissionDenied("only staff may create ranked matches; rated games are made by the arena")
        match = create_match(
            game=data["game"],
            kind=data["kind"],
            player_ids=data["players"],
            options=data.get("options"),
            seed=data.get("seed"),
            created_by=request.user,
            challenger=request.user,
        )
        match = self.get_queryset().get(pk=match.pk)
        return Response(MatchSerializer(match).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        responses={
            200: OpenApiResponse(description="The game record, format part-du-chef/1."),
            404: OpenApiResponse(description="no record yet: `detail` says why (a match still playing, or its deal)"),
        }
    )
    @action(detail=True, methods=["get"])
    def record(self, request: Request, pk: str | None = None) -> Response:
        match = get_object_or_404(Match.objects.only("id", "status", "record"), pk=pk)
        reason = held_back_reason(match)
        if reason is not None:
            return Response({"detail": reason}, status=status.HTTP_404_NOT_FOUND)
        if match.record is None:
            return Response(
                {"detail": f"match {match.id} has no record (status {match.status})"},
                status=status.HTTP_404_NOT_FOUND,
            )
        return Response(match.record)
