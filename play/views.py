"""Thin API views of the play table over play.engine and play.tables."""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import mixins, permissions
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from arena.errors import RequestError
from arena.models import Player
from arena.people import person_of
from arena.views import OwnedViewSet
from play import engine, tables
from play.models import FriendlyTable
from play.serializers import (
    ActionSubmitSerializer,
    FriendlyTableSerializer,
    TableOpenSerializer,
    TableStateSerializer,
)
from play.snapshot import snapshot


def body(request: Request) -> dict[str, Any]:
    if not isinstance(request.data, dict):
        raise RequestError("the request body must be a JSON object")
    return request.data


def viewer(request: Request) -> Player | None:
    if not request.user.is_authenticated:
        return None
    return Player.objects.filter(owner=request.user, kind=Player.Kind.HUMAN).order_by("id").first()


class MatchStateView(APIView):
    """The asking player's view of a table: observation, whose turn, the clock, the legal choices."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: TableStateSerializer})
    def get(self, request: Request, pk: int) -> Response:
        table = engine.table_state(pk, viewer(request))
        return Response(snapshot(table))


class MatchActionView(APIView):
    throttle_scope = "play-action"

    @extend_schema(
        request=ActionSubmitSerializer,
        responses={
            200: TableStateSerializer,
            400: OpenApiResponse(description="the action is illegal; `detail` names why"),
            409: OpenApiResponse(description="the decision of this turn has already been taken"),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        data = body(request)
        if "turn" not in data or "action" not in data:
            raise RequestError('send {"turn": <turn number>, "action": {...}}')
        player = person_of(request.user)
        engine.submit_action(pk, player, data["turn"], data["action"])
        return Response(snapshot(engine.table_state(pk, player)))


class MatchResignView(APIView):
    throttle_scope = "resign"

    @extend_schema(request=None, responses={200: TableStateSerializer})
    def post(self, request: Request, pk: int) -> Response:
        player = person_of(request.user)
        engine.resign(pk, player)
        return Response(snapshot(engine.table_state(pk, player)))


class FriendlyTableViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, OwnedViewSet[FriendlyTable]):
    """Tables one hosts or is invited to; other tables answer 404."""

    serializer_class = FriendlyTableSerializer
    lookup_value_regex = "[0-9]+"
    throttle_scope = "table"

    def get_throttles(self) -> list[Any]:
        return super().get_throttles() if self.request.method == "POST" else []

    def owned_by(self, user_id: int | None) -> QuerySet[FriendlyTable]:
        mine = Q(seats__player__owner_id=user_id, seats__player__kind=Player.Kind.HUMAN)
        return FriendlyTable.objects.filter(mine).distinct().prefetch_related("seats").order_by("-id")

    @extend_schema(request=TableOpenSerializer, responses={201: FriendlyTableSerializer})
    def create(self, request: Request) -> Response:
        incoming = TableOpenSerializer(data=body(request))
        incoming.is_valid(raise_exception=True)
        data = incoming.validated_data
        table = tables.open_table(request.user, data["game"], data["guests"], data.get("options"))
        return Response(self.get_serializer(self.get_queryset().get(pk=table.pk)).data, status=201)

    @extend_schema(request=None, responses={200: FriendlyTableSerializer})
    @action(detail=True, methods=["post"])
    def accept(self, request: Request, pk: str | None = None) -> Response:
        table = tables.accept(request.user, int(pk or 0))
        return Response(self.get_serializer(self.get_queryset().get(pk=table.pk)).data)

    @extend_schema(request=None, responses={200: FriendlyTableSerializer})
    @action(detail=True, methods=["post"])
    def decline(self, request: Request, pk: str | None = None) -> Response:
        table = tables.decline(request.user, int(pk or 0))
        return Response(self.get_serializer(self.get_queryset().get(pk=table.pk)).data)
