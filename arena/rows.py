"""Writing many rows in few round trips: UPDATE ... FROM jsonb_to_recordset(...), INSERT ... SELECT FROM
jsonb_to_recordset(...), several statements at once, COPY for rows only ever appended.

Django's bulk_update builds one CASE WHEN expression per field and row, which costs more CPU than
the rest of a batch of match results together; here the rows' values go in as one parameter, a JSON
array that `jsonb_to_recordset` reads with the columns' own types. A play task's claim and a batch's
commit are mostly round trips to PostgreSQL, so `run_together` sends several statements in one, and
`instance` makes model instances from rows a statement returned, without a queryset.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from datetime import date, datetime
from decimal import Decimal
from typing import Any, TypeVar
from uuid import UUID

import psycopg
from django.db import DEFAULT_DB_ALIAS, connection, models, transaction
from django.db.models import signals
from django.db.models.base import ModelState

ModelT = TypeVar("ModelT", bound=models.Model)
# One SQL statement and its parameters, to run with others (`run_together`).
Statement = tuple[str, Sequence[Any]]


def update_rows(model: type[models.Model], rows: Sequence[models.Model], fields: Sequence[str]) -> int:
    """Write `fields` of `rows` (saved instances of `model`) in one statement; returns the rows updated."""
    if not rows:
        return 0
    sql, params = update_statement(model, rows, fields)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return int(cursor.rowcount)


def update_statement(
    model: type[models.Model], rows: Sequence[models.Model], fields: Sequence[str]
) -> tuple[str, list[Any]]:
    """The UPDATE of `update_rows` and its one parameter, to run with others (`run_together`).

    The rows' values go in as one JSON array read by `jsonb_to_recordset` with the columns' own
    types: one placeholder whatever the batch's size (a placeholder per value cost more to merge
    into the query on the client than the statement took to run).
    """
    quote = connection.ops.quote_name
    meta = model._meta
    columns: list[models.Field[Any, Any]] = []
    for name in fields:
        field = meta.get_field(name)
        if not isinstance(field, models.Field):
            raise TypeError(f"{model.__name__}.{name} is not a column")
        columns.append(field)
    pk = meta.pk
    assert pk is not None
    preps = [_preparer(field) for field in columns]
    attnames = [field.attname for field in columns]
    pk_prep = _preparer(pk)
    values = [
        [pk_prep(row.pk), *(prep(getattr(row, name)) for prep, name in zip(preps, attnames, strict=True))]
        for row in rows
    ]
    names = ["pk"] + [f"v{index}" for index in range(len(columns))]
    typed = ", ".join(f"{name} {field.db_type(connection)}" for name, field in zip(names, [pk, *columns], strict=True))
    assignments = ", ".join(
        f"{quote(field.column)} = new.{name}" for field, name in zip(columns, names[1:], strict=True)
    )
    table = quote(meta.db_table)
    # The ids again, as an array: PostgreSQL cannot tell how many rows jsonb_to_recordset gives (it
    # guesses 100), so on a table of a few thousand rows it joined them to a scan of the whole table;
    # `= ANY` of the ids finds the rows by the primary key, whatever the table's size.
    sql = (
        f"UPDATE {table} SET {assignments} FROM jsonb_to_recordset(%s::jsonb) AS new ({typed})"
        f" WHERE {table}.{quote(pk.column)} = ANY(%s::{pk.db_type(connection)}[])"
        f" AND {table}.{quote(pk.column)} = new.pk"
    )
    return sql, [_records(names, values), [row[0] for row in values]]


# The value types that each kind of column's `get_prep_value` returns as they are: such values skip it
# (it costs more than the rest of writing a batch's seats). Checked by type, not isinstance: a subclass
# (a str enum, a bool for an integer) still goes through the field.
_PLAIN_TYPES: tuple[tuple[type[models.Field[Any, Any]], tuple[type, ...]], ...] = (
    (models.BooleanField, (bool,)),
    (models.IntegerField, (int,)),
    (models.FloatField, (float,)),
    (models.CharField, (str,)),
    (models.TextField, (str,)),
)
_PREPARERS: dict[models.Field[Any, Any], Callable[[Any], Any]] = {}


def _preparer(field: models.Field[Any, Any]) -> Callable[[Any], Any]:
    """`field.get_prep_value`, skipped for None and for values it would return unchanged."""
    found = _PREPARERS.get(field)
    if found is not None:
        return found
    prep = field.get_prep_value
    plain = next((types for kind, types in _PLAIN_TYPES if _of_django_family(field, kind)), ())

    def prepared(value: Any) -> Any:
        if value is None or type(value) in plain:
            return value
        if type(value) is datetime and value.tzinfo is not None and isinstance(field, models.DateTimeField):
            return value  # an aware time: DateTimeField would return it as it is
        return prep(value)

    return _PREPARERS.setdefault(field, prepared)


def _of_django_family(field: models.Field[Any, Any], kind: type[models.Field[Any, Any]]) -> bool:
    """A field class of Django's own numeric or text family (PositiveIntegerField under IntegerField...),
    whose get_prep_value is the family's: a project's own subclass may convert differently."""
    return isinstance(field, kind) and type(field).__module__.startswith("django.db.models")


def insert_statement(
    model: type[models.Model], rows: Sequence[models.Model], *, on_conflict: str = ""
) -> tuple[str, list[Any]]:
    """One INSERT of new `rows` (every column but the primary key, `auto_now` ones filled as `save` fills
    them, in the rows' order), to run with others (`run_together`); `on_conflict` is appended as is.
    One parameter, as `update_statement`."""
    meta = model._meta
    columns = [field for field in meta.concrete_fields if not field.primary_key]
    values = [[field.get_prep_value(field.pre_save(row, True)) for field in columns] for row in rows]
    names = [f"v{index}" for index in range(len(columns))]
    typed = ", ".join(f"{name} {field.db_type(connection)}" for name, field in zip(names, columns, strict=True))
    targets = ", ".join(connection.ops.quote_name(field.column) for field in columns)
    # WITH ORDINALITY: the rows go in (and take their ids) in the order given.
    sql = (
        f"INSERT INTO {connection.ops.quote_name(meta.db_table)} ({targets})"
        f" SELECT {', '.join(names)} FROM ROWS FROM (jsonb_to_recordset(%s::jsonb) AS ({typed}))"
        f" WITH ORDINALITY AS new ({', '.join(names)}, n) ORDER BY n"
    )
    return (f"{sql} {on_conflict}" if on_conflict else sql), [_records(names, values)]


def copy_rows(model: type[models.Model], fields: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
    """Append `rows` (tuples of the values of `fields`, in that order, as the columns take them: no
    field conversion) to `model`'s table with one COPY, in the order given (so they take their ids in
    that order). For rows only ever appended, made by the caller as plain values: neither model
    instances nor a JSON parameter for PostgreSQL to parse. A constraint broken raises Django's
    IntegrityError, as a statement's would; an outage, its OperationalError."""
    quote = connection.ops.quote_name
    meta = model._meta
    columns = []
    for name in fields:
        field = meta.get_field(name)
        if not isinstance(field, models.Field):
            raise TypeError(f"{model.__name__}.{name} is not a column")
        columns.append(quote(field.column))
    with connection.cursor() as cursor, connection.wrap_database_errors:
        with cursor.cursor.copy(f"COPY {quote(meta.db_table)} ({', '.join(columns)}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)


def _records(names: Sequence[str], values: Sequence[Sequence[Any]]) -> str:
    """Rows as the JSON array of objects that jsonb_to_recordset reads (times and ids as text, which
    PostgreSQL reads back exactly; floats in Python's shortest exact form)."""
    return json.dumps([dict(zip(names, row, strict=True)) for row in values], default=_json_default, allow_nan=False)


def _json_default(value: object) -> str:
    if isinstance(value, bytes | memoryview):
        return "\\x" + bytes(value).hex()  # bytea's hex input form
    if isinstance(value, datetime | date | UUID | Decimal):
        return value.isoformat() if isinstance(value, datetime | date) else str(value)
    raise TypeError(f"cannot write {type(value).__name__} through jsonb_to_recordset")


def select_columns(alias: str, model: type[models.Model]) -> str:
    """Every column of `model` under `alias`, in the order `instance` takes them."""
    return ", ".join(f"{alias}.{connection.ops.quote_name(field.column)}" for field in model._meta.concrete_fields)


# Per model: its columns' attribute names and the converters a queryset would apply (`from_db_value`).
_LOADERS: dict[type[models.Model], tuple[tuple[str, ...], tuple[Callable[..., Any] | None, ...]]] = {}


def instance(model: type[ModelT], values: Sequence[Any]) -> ModelT:
    """A model instance from the raw values of `select_columns`, converted as a queryset would (JSON decoded),
    without a queryset's per-query work.

    Made as `Model.from_db` makes it, without going through `Model.__init__` (which costs more than
    the rest of a claimed match's reading): the attributes set, the state of a row read from this
    database. `__init__` sends `pre_init` and `post_init`: when either has a receiver for `model`,
    the instance is made by `from_db` itself.
    """
    loader = _LOADERS.get(model)
    if loader is None:
        fields = model._meta.concrete_fields
        # What Field.get_db_converters gives a queryset: the field's own from_db_value, if it has one.
        names = tuple(field.attname for field in fields)
        loader = _LOADERS.setdefault(model, (names, tuple(getattr(field, "from_db_value", None) for field in fields)))
    attnames, converters = loader
    if len(values) != len(attnames):
        raise ValueError(f"{model.__name__} has {len(attnames)} columns, not {len(values)}")
    converted = [
        value if convert is None else convert(value, None, connection)
        for value, convert in zip(values, converters, strict=True)
    ]
    if signals.pre_init.has_listeners(model) or signals.post_init.has_listeners(model):
        return model.from_db(DEFAULT_DB_ALIAS, list(attnames), converted)
    made = model.__new__(model)
    made.__dict__.update(zip(attnames, converted, strict=True))
    state = ModelState()
    state.adding = False
    # `connection` is the default database's (a proxy: reading its alias costs more than the rest of this).
    state.db = DEFAULT_DB_ALIAS
    made._state = state
    return made


def run_together(
    statements: Sequence[tuple[str, Sequence[Any]]], *, durable: bool = True
) -> list[list[tuple[Any, ...]]]:
    """Run several statements in one round trip to PostgreSQL, in order; the rows each one returned.

    `durable=False`, outside any transaction: their transaction's commit does not wait for the disk
    (`synchronous_commit` off for it alone). Only for writes that a crash of PostgreSQL itself may
    undo without harm (a claim, a mark): any later synchronous commit flushes the log up to itself,
    so such a write is lost only with what was not committed yet anyway.

    With client-side binding (psycopg's ClientCursor, Django's default) they go as one simple query,
    which PostgreSQL runs in order and, outside a transaction, as one implicit transaction: a lock
    taken by an earlier statement is held by the later ones, and an error undoes them all. Otherwise
    (server-side binding takes one statement at a time) they run one by one in one transaction.
    Placeholders are `%s`; a literal percent sign is written `%%`.
    """
    if not statements:
        return []
    if not durable and not connection.in_atomic_block:
        return run_together([("SET LOCAL synchronous_commit TO off", []), *statements])[1:]
    results: list[list[tuple[Any, ...]]] = []
    with connection.cursor() as cursor:
        if isinstance(cursor.cursor, psycopg.ClientCursor):
            cursor.execute("; ".join(sql for sql, _ in statements), [p for _, params in statements for p in params])
            for index in range(len(statements)):
                if index:
                    cursor.nextset()
                results.append(list(cursor.fetchall()) if cursor.description else [])
            return results
        with transaction.atomic():
            for sql, params in statements:
                cursor.execute(sql, params)
                results.append(list(cursor.fetchall()) if cursor.description else [])
    return results
