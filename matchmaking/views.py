"""The arena's endpoints: bots' entries (each with why it waits and about how long) and the people's queue."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from arena.models import ArenaEntry
from arena.views import OwnedViewSet
from matchmaking import people
from matchmaking.entries import enter_arena, leave_arena
from matchmaking.serializers import (
    ArenaEntrySerializer,
    ArenaEntryWaitSerializer,
    QueueJoinSerializer,
    QueueStatusSerializer,
)
from matchmaking.status import explain
from play.views import body


class ArenaEntryViewSet(
    mixins.CreateModelMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.DestroyModelMixin,
    OwnedViewSet[ArenaEntry],
):
    """One's own arena entries; other users' entries answer 404."""

    serializer_class = ArenaEntrySerializer
    lookup_value_regex = "[0-9]+"
    throttle_scope = "arena-entry"

    def owned_by(self, user_id: int | None) -> QuerySet[ArenaEntry]:
        return ArenaEntry.objects.filter(entered_by_id=user_id, active=True).order_by("id")

    def get_throttles(self) -> list[Any]:
        return super().get_throttles() if self.action == "create" else []

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        incoming = self.get_serializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        data = incoming.validated_data
        entry = enter_arena(
            player_id=data["player_id"],
            game=data["game"],
            table_size=data["table_size"],
            entered_by=request.user,
        )
        return Response(self.get_serializer(entry).data, status=status.HTTP_201_CREATED)

    def get_object(self) -> ArenaEntry:
        """One's own entry; one that has left is shown (state `left`) but cannot be left again."""
        try:
            return super().get_object()
        except Http404:
            pk = str(self.kwargs.get(self.lookup_field, ""))
            left = (
                ArenaEntry.objects.filter(pk=pk, entered_by_id=self.request.user.pk, active=False)
                .select_related("player", "current_match")
                .first()
            )
            if left is None:
                raise NotFound(f"you have no arena entry {pk}") from None
            if self.action == "retrieve":
                return left
            raise NotFound(f"arena entry {pk} ({left.player.name}) has already left the arena") from None

    def perform_destroy(self, instance: ArenaEntry) -> None:
        leave_arena(instance)


class ArenaEntryWaitViewSet(ArenaEntryViewSet):
    """One's own arena entries (others' answer 404), each with `wait`: its state, the reason, about how long."""

    serializer_class = ArenaEntryWaitSerializer

    def get_queryset(self) -> QuerySet[ArenaEntry]:
        return super().get_queryset().select_related("player", "current_match")

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """The page's entries explained at once (one ratings query for the page)."""
        queryset = self.filter_queryset(self.get_queryset())
        page = self.paginate_queryset(queryset)
        entries = list(page if page is not None else queryset)
        context = {**self.get_serializer_context(), "waits": explain(entries, timezone.now())}
        data = ArenaEntryWaitSerializer(entries, many=True, context=context).data
        return self.get_paginated_response(data) if page is not None else Response(data)


class ArenaQueueView(APIView):
    """The ranked arena queue for people: join for a game and a table size, see your place, leave."""

    throttle_scope = "arena-entry"

    def get_throttles(self) -> list[Any]:
        return super().get_throttles() if self.request.method == "POST" else []

    @extend_schema(responses={200: QueueStatusSerializer})
    def get(self, request: Request) -> Response:
        return Response(people.status(request.user))

    @extend_schema(request=QueueJoinSerializer, responses={201: QueueStatusSerializer})
    def post(self, request: Request) -> Response:
        data = body(request)
        people.join(request.user, str(data.get("game", "")), data.get("table_size"))
        return Response(people.status(request.user), status=status.HTTP_201_CREATED)

    @extend_schema(responses={200: QueueStatusSerializer})
    def delete(self, request: Request) -> Response:
        people.leave(request.user)
        return Response(people.status(request.user))
