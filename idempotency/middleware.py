"""Every unsafe request runs in one transaction; its Idempotency-Key answer is stored in that same transaction.

So "the request was applied" and "the key has its answer" are one committed fact: a retry with the same
key and body gets the stored answer and does nothing more, whatever happened to the first connection.
A request that fails before the commit is rolled back (nothing applied); a failure of the commit itself
answers 503, outcome unknown, retry with the same key.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable

from django.core.exceptions import RequestDataTooBig
from django.db import DEFAULT_DB_ALIAS, Error, connections, transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.multipartparser import MultiPartParserError
from django.urls import Resolver404, resolve
from rest_framework.authtoken.models import Token

from common.clients import client_address
from common.limits import too_big_message
from idempotency.models import IdempotencyKey

log = logging.getLogger(__name__)

UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
HEADER = "HTTP_IDEMPOTENCY_KEY"
MAX_KEY_LENGTH = 255
# Headers of the first answer that a replay gives again.
KEPT_HEADERS = ("Content-Type", "Location", "Content-Disposition")
REPLAYED_HEADER = "Idempotent-Replayed"


def _handled(request: HttpRequest) -> bool:
    """Whether the view at this path takes this method: another method gets its 405 untouched by keys."""
    try:
        func = resolve(request.path_info).func
    except Resolver404:
        return True  # the 404 is the view layer's to give
    method = (request.method or "").lower()
    actions = getattr(func, "actions", None)  # a DRF viewset's routes: method -> action
    if isinstance(actions, dict):
        return method in actions
    view = getattr(func, "view_class", None)
    return view is None or hasattr(view, method)


def _scope(request: HttpRequest) -> str:
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    words = str(request.META.get("HTTP_AUTHORIZATION", "")).split()
    if len(words) == 2 and words[0].lower() == "token":
        owner = Token.objects.filter(key=words[1]).values_list("user_id", flat=True).first()
        if owner is not None:
            return f"user:{owner}"
    return f"anon:{client_address(request)}"[:80]


def _fingerprint(request: HttpRequest) -> str:
    digest = hashlib.sha256(f"{request.method}\n{request.get_full_path()}\n".encode())
    if request.content_type == "multipart/form-data":
        # Multipart boundaries differ between two sends of the same form: hash the parsed fields instead.
        for name in sorted(request.POST):
            digest.update(f"field {name}={request.POST.getlist(name)!r}\n".encode())
        for name in sorted(request.FILES):
            for upload in request.FILES.getlist(name):
                digest.update(f"file {name}={upload.name}:".encode())
                for chunk in upload.chunks():
                    digest.update(chunk)
                upload.seek(0)
    else:
        digest.update((request.content_type or "").encode() + b"\n" + request.body)
    return digest.hexdigest()


def _acquire(scope: str, key: str) -> bool:
    """A transaction-long lock on the key: a concurrent duplicate finds it taken (409)."""
    connection = connections[DEFAULT_DB_ALIAS]
    if connection.vendor != "postgresql":
        return True  # the embedded SQLite fallback serialises writers anyway
    number = int.from_bytes(hashlib.sha256(f"{scope}\n{key}".encode()).digest()[:8], "big", signed=True)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_xact_lock(%s)", [number])
        return bool(cursor.fetchone()[0])


def _replay(stored: IdempotencyKey) -> HttpResponse:
    response = HttpResponse(bytes(stored.body), status=stored.status)
    for name, value in stored.headers.items():
        response[name] = value
    response[REPLAYED_HEADER] = "true"
    return response


def _store(scope: str, key: str, fingerprint: str, response: HttpResponse) -> HttpResponse:
    if response.streaming:
        # Read the stream once, keep it, and answer with the bytes read.
        content = b"".join(response.streaming_content)  # type: ignore[attr-defined]  # a streaming response has it
        plain = HttpResponse(content, status=response.status_code)
        for name in KEPT_HEADERS:
            if name in response:
                plain[name] = response[name]
        response = plain
    headers = {name: response[name] for name in KEPT_HEADERS if name in response}
    IdempotencyKey.objects.create(
        scope=scope,
        key=key,
        fingerprint=fingerprint,
        status=response.status_code,
        headers=headers,
        body=response.content,
    )
    return response


def _error(status: int, detail: str) -> JsonResponse:
    return JsonResponse({"detail": detail}, status=status)


class IdempotentUnsafeRequests:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method not in UNSAFE_METHODS or not _handled(request):
            return self.get_response(request)
        key = request.META.get(HEADER)
        if key is not None and not (0 < len(key) <= MAX_KEY_LENGTH and key.isprintable()):
            return _error(400, f"the Idempotency-Key header must be 1 to {MAX_KEY_LENGTH} printable characters")
        fingerprint = ""
        if key is not None:
            try:
                fingerprint = _fingerprint(request)
            except RequestDataTooBig:
                return _error(413, too_big_message())
            except MultiPartParserError as exc:
                return _error(400, f"malformed multipart body: {exc}")
        committing = False
        try:
            with transaction.atomic():
                response = self._answer(request, key, fingerprint)
                committing = True
        except Error:
            if not committing:
                raise
            log.exception("the commit of %s %s failed", request.method, request.path)
            return _error(
                503,
                "the outcome is unknown: the database connection was lost while committing; "
                "retry with the same Idempotency-Key to get the answer without applying the request twice",
            )
        return response

    def _answer(self, request: HttpRequest, key: str | None, fingerprint: str) -> HttpResponse:
        scope = ""
        if key is not None:
            scope = _scope(request)
            if not _acquire(scope, key):
                return _error(409, "a request with this Idempotency-Key is still in flight; retry later")
            stored = IdempotencyKey.objects.filter(scope=scope, key=key).first()
            if stored is not None:
                if stored.fingerprint != fingerprint:
                    return _error(
                        422, "this Idempotency-Key was used for another request (another method, path or body)"
                    )
                return _replay(stored)
        response = self.get_response(request)
        if response.status_code >= 400:
            # Refused or failed: nothing of it is kept, so an answer of 500 truly means "not applied".
            transaction.set_rollback(True)
        elif key is not None:
            response = _store(scope, key, fingerprint, response)
        return response
