"""The arena entries endpoint, each entry with why it waits and about how long."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from arena import actions
from arena.matchmaking.serializers import ArenaEntryWaitSerializer
from arena.matchmaking.status import explain
from arena.models import ArenaEntry
from arena.views import ArenaEntryViewSet


class ArenaEntryWaitViewSet(ArenaEntryViewSet):
    """One's own arena entries (others' answer 404), each with `wait`: its state, the reason, about how long."""

    serializer_class = ArenaEntryWaitSerializer

    def get_queryset(self) -> QuerySet[ArenaEntry]:
        return super().get_queryset().select_related("player", "current_match")

    def shown(self, entries: list[ArenaEntry]) -> list[dict[str, Any]]:
        context = {**self.get_serializer_context(), "waits": explain(entries, timezone.now())}
        return list(ArenaEntryWaitSerializer(entries, many=True, context=context).data)

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        if page is not None:
            return self.get_paginated_response(self.shown(list(page)))
        return Response(self.shown(list(self.filter_queryset(self.get_queryset()))))

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return Response(self.shown([self.get_object()])[0])

    @extend_schema(request=ArenaEntryWaitSerializer, responses={201: ArenaEntryWaitSerializer})
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        incoming = self.get_serializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        data = incoming.validated_data
        entry = actions.enter_arena(
            player_id=data["player_id"], game=data["game"], table_size=data["table_size"], entered_by=request.user
        )
        entry = ArenaEntry.objects.select_related("player", "current_match").get(pk=entry.pk)
        return Response(self.shown([entry])[0], status=status.HTTP_201_CREATED)
