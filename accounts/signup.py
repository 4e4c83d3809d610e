"""Creating an account: the web sign-up's rules (names, passwords) and its human player, in one transaction."""

from __future__ import annotations

import re

from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from rest_framework.authtoken.models import Token

from arena.names import name_refusal
from arena.people import person_of

MAX_NAME = 64


def refusals(username: str, password: str) -> dict[str, list[str]]:
    problems: dict[str, list[str]] = {}
    if not username or len(username) > MAX_NAME or not re.compile(User.username_validator.regex).match(username):
        problems["username"] = [f"a name has 1 to {MAX_NAME} letters, digits and @/./+/-/_ only"]
    else:
        refusal = name_refusal(username)
        if refusal is not None:
            problems["username"] = [refusal]
    try:
        validate_password(password, user=User(username=username))
    except ValidationError as exc:
        problems["password"] = list(exc.messages)
    return problems


def create_account(username: str, password: str) -> tuple[User, Token]:
    try:
        with transaction.atomic():
            user = User.objects.create_user(username, password=password)
            person_of(user)
            token = Token.objects.create(user=user)
    except IntegrityError:  # taken meanwhile by a concurrent sign-up: the database's unique keys decide
        raise ValidationError(f"a player named {username!r} or a look-alike of it already exists") from None
    return user, token
