"""The arena entries endpoint, each entry with why it waits and about how long."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils import timezone
from rest_framework.request import Request
from rest_framework.response import Response

from arena.matchmaking.serializers import ArenaEntryWaitSerializer
from arena.matchmaking.status import explain
from arena.models import ArenaEntry
from arena.views import ArenaEntryViewSet


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
