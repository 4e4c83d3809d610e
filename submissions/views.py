"""/api/bots/: one's own submitted bots. Every other user's bot answers 404, whatever the method."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Prefetch, QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from arena.errors import RequestError
from arena.names import name_refusal
from arena.seating import seat_summary
from arena.views import OwnedViewSet
from common.limits import DepthLimitedJSONParser
from submissions import actions, comparing
from submissions.decisions import NotShown, owner_view
from submissions.headtohead import head_to_head
from submissions.models import BotComparison, BotSeat, BotVersion, SubmittedBot
from submissions.serializers import (
    BotCreateSerializer,
    BotSeatSerializer,
    BotSerializer,
    BotVersionDetailSerializer,
    BotVersionSerializer,
    CompareRequestSerializer,
    ComparisonSerializer,
    HeadToHeadSerializer,
    OwnerViewSerializer,
    SeatSummarySerializer,
    SourceSerializer,
)


def _source(data: dict[str, Any], limit: int) -> dict[str, Any]:
    upload = data.get("file")
    endpoint = data.get("endpoint") or None
    if upload is None:
        return {"upload": None, "endpoint": endpoint}
    if upload.size > limit:
        raise RequestError(f"upload refused: the file is {upload.size} bytes; the limit is {limit}")
    return {"upload": (upload.name, upload.read(limit + 1)), "endpoint": endpoint}


class BotViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.UpdateModelMixin,
    OwnedViewSet[SubmittedBot],
):
    serializer_class = BotSerializer
    lookup_field = "player"
    lookup_url_kwarg = "id"
    lookup_value_regex = "[0-9]+"
    parser_classes = [MultiPartParser, FormParser, DepthLimitedJSONParser]
    throttle_scope = "bot-upload"
    http_method_names = ["get", "post", "patch", "head", "options"]

    def owned_by(self, user_id: int | None) -> QuerySet[SubmittedBot]:
        return (
            SubmittedBot.objects.filter(player__owner_id=user_id)
            .select_related("player__owner")
            .prefetch_related(
                Prefetch("versions", queryset=BotVersion.objects.defer("bundle", "log")),
                "player__ratings",
            )
            .order_by("player_id")
        )

    def get_throttles(self) -> list[Any]:
        if self.action == "compare":
            self.throttle_scope = "bot-compare"
            return super().get_throttles()
        if self.action in ("update", "partial_update", "retire"):
            self.throttle_scope = "bot-edit"
            return super().get_throttles()
        uploads = self.action == "create" or (self.action == "versions" and self.request.method == "POST")
        return super().get_throttles() if uploads else []

    def _limit(self) -> int:
        return int(settings.ARENA_BOT_UPLOAD_MAX_BYTES)

    @extend_schema(
        request={"multipart/form-data": BotCreateSerializer, "application/json": BotCreateSerializer},
        responses={201: BotSerializer},
    )
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        incoming = BotCreateSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        data = incoming.validated_data
        bot = actions.create_bot(
            owner=request.user,
            name=data["name"],
            game=data["game"],
            description=data.get("description", ""),
            **_source(data, self._limit()),
        )
        return Response(BotSerializer(self.get_queryset().get(pk=bot.pk)).data, status=status.HTTP_201_CREATED)

    def perform_update(self, serializer: Any) -> None:
        name = serializer.validated_data.get("player", {}).get("name")
        if name is not None:
            refusal = name_refusal(name, player_id=serializer.instance.player_id)
            if refusal is not None:
                raise RequestError(refusal)
        try:
            with transaction.atomic():
                serializer.save()
        except IntegrityError:
            raise RequestError("a player with that name already exists; choose another name") from None

    @extend_schema(methods=["GET"], responses=BotVersionSerializer(many=True))
    @extend_schema(
        methods=["POST"],
        request={"multipart/form-data": SourceSerializer, "application/json": SourceSerializer},
        responses={201: BotVersionSerializer},
    )
    @action(detail=True, methods=["get", "post"])
    def versions(self, request: Request, id: str | None = None) -> Response:
        bot = self.get_object()
        if request.method == "GET":
            rows = BotVersion.objects.filter(bot=bot).defer("bundle", "log").order_by("number")
            return Response(BotVersionSerializer(rows, many=True).data)
        incoming = SourceSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        version = actions.add_version(bot, **_source(incoming.validated_data, self._limit()))
        return Response(BotVersionSerializer(version).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses=BotVersionDetailSerializer)
    @action(detail=True, methods=["get"], url_path=r"versions/(?P<number>[0-9]+)")
    def version(self, request: Request, id: str | None = None, number: str | None = None) -> Response:
        bot = self.get_object()
        version = get_object_or_404(BotVersion.objects.defer("bundle"), bot=bot, number=int(number or 0))
        return Response(BotVersionDetailSerializer(version).data)

    @extend_schema(request=None, responses=BotSerializer)
    @action(detail=True, methods=["post"])
    def retire(self, request: Request, id: str | None = None) -> Response:
        bot = self.get_object()
        actions.retire_bot(bot)
        return Response(BotSerializer(self.get_queryset().get(pk=bot.pk)).data)

    @extend_schema(responses=BotSeatSerializer(many=True))
    @action(detail=True, methods=["get"])
    def matches(self, request: Request, id: str | None = None) -> Response:
        """The bot's seats, newest first, with the per-move log and stderr (owner only)."""
        bot = self.get_object()
        rows = BotSeat.objects.filter(player_id=bot.pk).select_related("match", "version").order_by("-match_id")
        page = self.paginate_queryset(rows)  # type: ignore[arg-type]  # DRF's stubs page only the view's model
        return self.get_paginated_response(BotSeatSerializer(page, many=True).data)

    @extend_schema(responses=OwnerViewSerializer)
    @action(detail=True, methods=["get"], url_path=r"matches/(?P<match>[0-9]+)/decisions")
    def decisions(self, request: Request, id: str | None = None, match: str | None = None) -> Response:
        """What the bot saw at its seat, decision by decision, with its answers, latency and stderr (owner only)."""
        bot = self.get_object()
        seat = get_object_or_404(
            BotSeat.objects.select_related("match", "version"), player_id=bot.pk, match_id=int(match or 0)
        )
        try:
            return Response(OwnerViewSerializer(owner_view(seat)).data)
        except NotShown as exc:
            raise NotFound(str(exc)) from None

    @extend_schema(responses=HeadToHeadSerializer(many=True))
    @action(detail=True, methods=["get"], url_path="head-to-head")
    def head_to_head(self, request: Request, id: str | None = None) -> Response:
        """Per opponent in rated games: games, wins, mean placing (a forfeit counts last); owner only."""
        bot = self.get_object()
        return Response(HeadToHeadSerializer(head_to_head(bot.pk), many=True).data)

    @extend_schema(responses=SeatSummarySerializer(many=True))
    @action(detail=True, methods=["get"])
    def seats(self, request: Request, id: str | None = None) -> Response:
        """Per table size and seat, over rated games: games and mean placing (fair seats); owner only."""
        bot = self.get_object()
        return Response(SeatSummarySerializer(seat_summary(bot.pk), many=True).data)

    @extend_schema(request=CompareRequestSerializer, responses={202: ComparisonSerializer})
    @action(detail=True, methods=["post"])
    def compare(self, request: Request, id: str | None = None) -> Response:
        """Queue friendly games of the active version against another version (never rated); owner only."""
        bot = self.get_object()
        incoming = CompareRequestSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        data = incoming.validated_data
        comparison = comparing.request_compare(
            bot,
            against={key: value for key, value in data["against"].items() if value is not None},
            deals=data["deals"],
            opponents=data["opponents"],
            marianne=data["marianne"],
            fixed=data["fixed"],
        )
        row = self._comparisons(bot).get(pk=comparison.pk)
        return Response(ComparisonSerializer(row).data, status=status.HTTP_202_ACCEPTED)

    def _comparisons(self, bot: SubmittedBot) -> QuerySet[BotComparison]:
        return BotComparison.objects.filter(bot=bot).select_related("version", "against").order_by("-created_at", "-id")

    @extend_schema(responses=ComparisonSerializer(many=True))
    @action(detail=True, methods=["get"])
    def compares(self, request: Request, id: str | None = None) -> Response:
        """The bot's comparisons, newest first (owner only)."""
        bot = self.get_object()
        page = self.paginate_queryset(self._comparisons(bot))  # type: ignore[arg-type]  # as in matches() above
        return self.get_paginated_response(ComparisonSerializer(page, many=True).data)

    @extend_schema(responses=ComparisonSerializer)
    @action(detail=True, methods=["get"], url_path=r"compares/(?P<cid>[0-9]+)")
    def comparison(self, request: Request, id: str | None = None, cid: str | None = None) -> Response:
        bot = self.get_object()
        row = get_object_or_404(self._comparisons(bot), pk=int(cid or 0))
        return Response(ComparisonSerializer(row).data)
