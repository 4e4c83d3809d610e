"""POST /api/accounts/ (sign-up) and POST /api/auth/token/ (token login), both throttled."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import Throttled, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import throttles
from accounts.signup import create_account, refusals
from arena.people import person_of
from common.clients import client_address


class AccountCreateSerializer(serializers.Serializer[dict[str, Any]]):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=4096, write_only=True, style={"input_type": "password"})


class AccountSerializer(serializers.Serializer[dict[str, Any]]):
    id = serializers.IntegerField(help_text="the account's id")
    player_id = serializers.IntegerField(help_text="the account's human player: the id in matches, ratings, players")
    username = serializers.CharField()
    token = serializers.CharField()


class TokenSerializer(serializers.Serializer[dict[str, Any]]):
    token = serializers.CharField()


class AccountCreateView(APIView):
    """Sign up: an account, its human player of the same name, and its API token."""

    permission_classes = [permissions.AllowAny]
    authentication_classes: list[Any] = []

    @extend_schema(request=AccountCreateSerializer, responses={201: AccountSerializer})
    def post(self, request: Request) -> Response:
        address = client_address(request._request)
        wait = throttles.signup_wait(address)
        if wait is not None:
            raise Throttled(wait=wait, detail=throttles.wait_message(wait))
        incoming = AccountCreateSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        username, password = incoming.validated_data["username"], incoming.validated_data["password"]
        problems = refusals(username, password)
        if problems:
            raise ValidationError(problems)
        user, token = create_account(username, password)
        throttles.signed_up(address)
        body = {"id": user.pk, "player_id": person_of(user).pk, "username": user.username, "token": token.key}
        return Response(AccountSerializer(body).data, status=status.HTTP_201_CREATED)


class ThrottledTokenView(ObtainAuthToken):
    """The token of an account; wrong passwords are counted per account and per client address
    (accounts.backends, as for every login), and a locked-out login answers 429 here."""

    @extend_schema(request=AuthTokenSerializer, responses={200: TokenSerializer})
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        data = request.data if isinstance(request.data, dict) else {}
        username, address = str(data.get("username", "")), client_address(request._request)
        wait = throttles.login_wait(username, address)
        if wait is not None:
            raise Throttled(wait=wait, detail=throttles.wait_message(wait))
        incoming = AuthTokenSerializer(data=data, context={"request": request})
        if not incoming.is_valid():  # a wrong password was counted by the backend (accounts.backends)
            raise ValidationError(incoming.errors)
        token, _ = Token.objects.get_or_create(user=incoming.validated_data["user"])
        return Response(TokenSerializer({"token": token.key}).data)
