"""The client's address, the same way DRF's throttles see it (NUM_PROXIES trusted proxies in front)."""

from __future__ import annotations

from django.http import HttpRequest
from rest_framework.settings import api_settings


def client_address(request: HttpRequest) -> str:
    remote = str(request.META.get("REMOTE_ADDR") or "unknown")
    proxies = int(api_settings.NUM_PROXIES or 0)
    forwarded = str(request.META.get("HTTP_X_FORWARDED_FOR") or "")
    if proxies <= 0 or not forwarded:
        return remote
    hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
    # Only the last `proxies` hops were written by proxies we run; anything left of them is the client's say.
    return hops[-min(proxies, len(hops))] if hops else remote
