"""drf-spectacular hook: every operation documents the error answers it can give, with their JSON body."""

from __future__ import annotations

from typing import Any

_DETAIL = {
    "type": "object",
    "properties": {
        "detail": {"type": "string", "description": "what went wrong, naming the problem"},
        "code": {
            "type": "string",
            "description": "on a 503: database_unavailable or redis_unavailable (retry after Retry-After)",
        },
    },
    "required": ["detail"],
}
# A malformed field answers {"<field>": ["<message>", ...]}; request-level problems answer {"detail": ...}.
_BAD_REQUEST = {
    "type": "object",
    "description": '{"detail": "..."} or {"<field>": ["<message>"]}',
    "additionalProperties": True,
}
_UNSAFE = {"post", "put", "patch", "delete"}
_ANSWERS = {
    "400": ("Bad input: the message names the problem", "ValidationError"),
    "401": ("Credentials were sent but are not valid, or an account is needed", "Error"),
    "403": ("Signed in, but not allowed to do this", "Error"),
    "404": ("No such object (or not yours), or a malformed id", "Error"),
    "409": ("The request conflicts with the current state, or its Idempotency-Key is still in flight", "Error"),
    "413": ("The request body is over the limit named in the message", "Error"),
    "422": ("This Idempotency-Key was used for another request", "Error"),
    "429": ("Throttled: retry after the Retry-After header's seconds", "Error"),
    "503": (
        "The service is away for a moment (PostgreSQL or Redis): retry after the Retry-After header's seconds; "
        "nothing was applied, or for a write whose commit was cut, the outcome is unknown: retry with the same "
        "Idempotency-Key",
        "Error",
    ),
}


def _codes(method: str, operation: dict[str, Any]) -> list[str]:
    codes = ["401", "403", "404", "503"]
    has_input = "requestBody" in operation or any(p.get("in") == "query" for p in operation.get("parameters", []))
    if has_input or method in _UNSAFE:
        codes.append("400")
    if method in _UNSAFE:
        codes += ["409", "413", "422", "429"]
    return codes


def add_error_responses(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas.setdefault("Error", _DETAIL)
    schemas.setdefault("ValidationError", _BAD_REQUEST)
    for path in result.get("paths", {}).values():
        for method, operation in path.items():
            if method not in {"get", "post", "put", "patch", "delete"}:
                continue
            responses = operation.setdefault("responses", {})
            for code in _codes(method, operation):
                description, schema = _ANSWERS[code]
                answer = responses.setdefault(code, {"description": description})
                body = {"schema": {"$ref": f"#/components/schemas/{schema}"}}
                answer.setdefault("content", {"application/json": body})
            if method in _UNSAFE:
                parameters = operation.setdefault("parameters", [])
                if not any(p.get("name") == "Idempotency-Key" for p in parameters):
                    parameters.append(
                        {
                            "name": "Idempotency-Key",
                            "in": "header",
                            "required": False,
                            "schema": {"type": "string", "maxLength": 255},
                            "description": "retry safely: the same key and body answer the first answer again",
                        }
                    )
    return result
