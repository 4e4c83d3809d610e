"""A match's record kept compressed: the column holds zlib-compressed JSON, the model sees the same dict as before.

A finished match's record (format part-du-chef/1, about 6.5 kB of JSON) was a `jsonb` column:
every committed match made PostgreSQL parse it, and the row carried it five times its compressed
size. It is now the JSON text, compressed (about 1.2 kB), in a `bytea` column, decompressed on
read. Its keys are put back on read in the order `jsonb` keeps them (shorter keys first, then
bytewise; done on read, not on write, since a record is written once per match and read rarely), so
a record reads back, and is served (API, pages, `verify`), exactly as `jsonb` gave it: the same
dict, in the same order, the same JSON bytes. Rows written before hold the JSON text uncompressed
(the migration converted the `jsonb` column with `convert_to(record::text, 'UTF8')`); both read alike.

A record the engine wrote from its own game (`EngineRecord`, what the finisher commits) is kept
smaller still: without the fields that follow from its seed and actions (the deal, the chili
assignment, the scores, the ranks: `games.part_du_chef.record.DERIVED_FIELDS`), about 0.45 kB, behind
a first byte of 0x01. Read back, its actions are replayed and those fields written again as the engine
wrote them (`games.part_du_chef.record.complete`), so it reads, and is served, as the whole record
did. Encoding the deal (five rings of 13 slices) cost more than half of a record's writing.
"""

from __future__ import annotations

import json
import zlib
from typing import TYPE_CHECKING, Any

from django.db import models

from games.part_du_chef.record import DERIVED_FIELDS, RECORD_FORMAT, complete

# zlib's fastest level: 6.5 kB of record shrink to about 1.2 kB, in tens of microseconds.
_LEVEL = 1


# The order of each set of keys met (a record repeats a few shapes of object hundreds of times).
_ORDERS: dict[tuple[str, ...], list[str]] = {}


def _jsonb_key(key: str) -> tuple[int, bytes]:
    raw = key.encode()
    return len(raw), raw


def jsonb_order(value: Any) -> Any:
    """`value` with every object's keys in the order PostgreSQL's `jsonb` keeps them: by length in
    UTF-8 bytes, then bytewise."""
    if isinstance(value, dict):
        shape = tuple(value)
        keys = _ORDERS.get(shape)
        if keys is None:
            keys = sorted(shape, key=_jsonb_key)
            if len(_ORDERS) < 4096:
                _ORDERS[shape] = keys
        return {key: jsonb_order(value[key]) for key in keys}
    if isinstance(value, list):
        return [jsonb_order(item) for item in value]
    return value


# The first byte of a record kept without its derived fields (then a zlib stream of the rest).
_DERIVED = b"\x01"


class EngineRecord(dict[str, Any]):
    """A game record the engine wrote from the game it played (`State.to_record`): its derived fields
    follow from its seed and actions, so it is kept without them. Only for such records: one whose
    deal or scores were edited would read back with the engine's."""


def _compress(value: Any) -> bytes:
    return zlib.compress(json.dumps(value, separators=(",", ":"), allow_nan=False).encode(), _LEVEL)


def pack(value: Any) -> bytes | None:
    if value is None:
        return None
    if isinstance(value, EngineRecord) and value.get("format") == RECORD_FORMAT:
        return _DERIVED + _compress({key: item for key, item in value.items() if key not in DERIVED_FIELDS})
    return _compress(value)


def unpack(raw: bytes | memoryview | None) -> Any:
    if raw is None:
        return None
    data = bytes(raw)
    if data[:1] == _DERIVED:
        return jsonb_order(complete(json.loads(zlib.decompress(data[1:]))))
    # JSON text starts with a printable character; a zlib stream with 0x78.
    if data[:1] == b"\x78":
        data = zlib.decompress(data)
    return jsonb_order(json.loads(data))


if TYPE_CHECKING:
    _BinaryField = models.BinaryField[Any, Any]
else:  # subscriptable at run time only once django_stubs_ext has patched it (config.settings)
    _BinaryField = models.BinaryField


class PackedJSONField(_BinaryField):
    """A JSON value stored as compressed JSON text (`bytea`), read back as `jsonb` would give it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("editable", False)
        super().__init__(*args, **kwargs)

    def from_db_value(self, value: bytes | memoryview | None, expression: object, connection: object) -> Any:
        return unpack(value)

    def to_python(self, value: Any) -> Any:
        if isinstance(value, bytes | memoryview):
            return unpack(value)
        return value

    def get_prep_value(self, value: Any) -> Any:
        if isinstance(value, bytes | memoryview) or value is None:
            return value
        return pack(value)

    def value_to_string(self, obj: models.Model) -> str:
        return json.dumps(self.value_from_object(obj))
