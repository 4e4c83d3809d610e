"""/api/tournaments/: anyone reads; signed-in users create friendly ones and enter their bots."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from arena.errors import RequestError
from tournaments import actions
from tournaments.models import Tournament, TournamentEntry, TournamentGame
from tournaments.serializers import (
    EntryCreateSerializer,
    EntrySerializer,
    TournamentCreateSerializer,
    TournamentDetailSerializer,
    TournamentGameSerializer,
    TournamentSerializer,
)


class ReadOrSignedIn(permissions.BasePermission):
    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        return bool(request.user and request.user.is_authenticated)


class TournamentViewSet(
    mixins.CreateModelMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    viewsets.GenericViewSet[Tournament],
):
    permission_classes = [ReadOrSignedIn]
    lookup_value_regex = "[0-9]+"
    throttle_scope = "tournament"

    def get_queryset(self) -> QuerySet[Tournament]:
        entries = TournamentEntry.objects.select_related("player", "version").only(
            "id", "tournament_id", "player_id", "player__name", "version__number", "dropped", "created_at"
        )
        return (
            Tournament.objects.select_related("created_by")
            .prefetch_related(Prefetch("entries", queryset=entries))
            .order_by("-id")
        )

    def get_serializer_class(self) -> type[TournamentSerializer]:
        return TournamentDetailSerializer if self.action == "retrieve" else TournamentSerializer

    def get_throttles(self) -> list[Any]:
        return super().get_throttles() if self.request.method == "POST" else []

    @extend_schema(request=TournamentCreateSerializer, responses={201: TournamentDetailSerializer})
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        if not isinstance(request.data, dict):
            raise RequestError("the request body must be a JSON object")
        incoming = TournamentCreateSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        tournament = actions.create_tournament(created_by=request.user, **incoming.validated_data)
        return Response(
            TournamentDetailSerializer(self.get_queryset().get(pk=tournament.pk)).data,
            status=status.HTTP_201_CREATED,
        )

    @extend_schema(request=EntryCreateSerializer, responses={201: EntrySerializer})
    @action(detail=True, methods=["post"])
    def entries(self, request: Request, pk: str | None = None) -> Response:
        tournament = self.get_object()
        incoming = EntryCreateSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        entry = actions.enter(tournament, player_id=incoming.validated_data["player"], user=request.user)
        return Response(EntrySerializer(entry).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={204: None})
    @action(detail=True, methods=["delete"], url_path=r"entries/(?P<entry_id>[0-9]+)")
    def withdraw(self, request: Request, pk: str | None = None, entry_id: str | None = None) -> Response:
        tournament = self.get_object()
        entry = TournamentEntry.objects.filter(pk=int(entry_id or 0), tournament=tournament).first()
        if entry is None or entry.entered_by_id != request.user.id:
            raise NotFound(f"no entry {entry_id} of yours in tournament {tournament.pk}")
        actions.withdraw(entry)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=None, responses={202: TournamentSerializer})
    @action(detail=True, methods=["post"])
    def start(self, request: Request, pk: str | None = None) -> Response:
        """Close registration and start now (the organiser or staff); runs in a worker."""
        tournament = self.get_object()
        if not (request.user.is_staff or tournament.created_by_id == request.user.id):
            raise NotFound(f"no tournament {tournament.pk} of yours")
        if tournament.status != Tournament.Status.REGISTRATION:
            raise RequestError(f"the tournament is already {tournament.status}")
        actions.dispatch_start(tournament.pk)
        return Response(TournamentSerializer(tournament).data, status=status.HTTP_202_ACCEPTED)

    @extend_schema(responses=TournamentGameSerializer(many=True))
    @action(detail=True, methods=["get"])
    def matches(self, request: Request, pk: str | None = None) -> Response:
        tournament = get_object_or_404(Tournament.objects.only("id"), pk=pk)
        rows = (
            TournamentGame.objects.filter(tournament=tournament)
            .select_related("match")
            .prefetch_related("match__seats")
            .order_by("round", "table", "deal", "rotation")
        )
        page = self.paginate_queryset(rows)  # type: ignore[arg-type]  # DRF's stubs page only the view's model
        return self.get_paginated_response(TournamentGameSerializer(page, many=True).data)
