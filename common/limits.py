"""Limits on request bodies: their size (413 naming the limit) and the nesting depth of JSON (400)."""

from __future__ import annotations

import io
import re
from typing import Any

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

# A JSON string (skipped whole, so brackets inside strings do not count) or one bracket.
_TOKENS = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{}]')
_OPENING = frozenset(b"[{")


def too_big_message() -> str:
    limit = int(settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
    return (
        f"the request body is too large: the limit is {limit} bytes (DATA_UPLOAD_MAX_MEMORY_SIZE); "
        f"bot files are uploaded as multipart/form-data, up to {settings.ARENA_BOT_UPLOAD_MAX_BYTES} bytes"
    )


def json_depth_exceeds(text: bytes, limit: int) -> bool:
    depth = 0
    for token in _TOKENS.finditer(text):
        byte = token.group()
        if len(byte) != 1:
            continue
        if byte[0] in _OPENING:
            depth += 1
            if depth > limit:
                return True
        else:
            depth -= 1
    return False


class DepthLimitedJSONParser(JSONParser):
    """JSON whose nesting is checked before decoding: deep nesting answers 400, never a RecursionError."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        raw = stream.read() if stream is not None else b""
        limit = int(settings.ARENA_JSON_MAX_DEPTH)
        if json_depth_exceeds(raw, limit):
            raise ParseError(f"JSON parse error - nested deeper than {limit} levels (ARENA_JSON_MAX_DEPTH)")
        return super().parse(io.BytesIO(raw), media_type, parser_context)
