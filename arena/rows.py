"""Writing many rows' fields in one UPDATE ... FROM (VALUES ...): what bulk_update does, at a fraction of its cost.

Django's bulk_update builds one CASE WHEN expression per field and row, which costs more CPU than
the rest of a batch of match results together; here the values go in as one VALUES list with the
columns' own types.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connection, models


def update_rows(model: type[models.Model], rows: Sequence[models.Model], fields: Sequence[str]) -> int:
    """Write `fields` of `rows` (saved instances of `model`) in one statement; returns the rows updated."""
    if not rows:
        return 0
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
    casts = [f"%s::{pk.db_type(connection)}"] + [f"%s::{field.db_type(connection)}" for field in columns]
    row_sql = "(" + ", ".join(casts) + ")"
    params: list[Any] = []
    for row in rows:
        params.append(pk.get_db_prep_value(row.pk, connection))
        for field in columns:
            params.append(field.get_db_prep_save(getattr(row, field.attname), connection))
    names = ["pk"] + [f"v{index}" for index in range(len(columns))]
    assignments = ", ".join(
        f"{quote(field.column)} = new.{name}" for field, name in zip(columns, names[1:], strict=True)
    )
    table = quote(meta.db_table)
    sql = (
        f"UPDATE {table} SET {assignments} FROM (VALUES {', '.join([row_sql] * len(rows))}) "
        f"AS new ({', '.join(names)}) WHERE {table}.{quote(pk.column)} = new.pk"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return int(cursor.rowcount)
