"""Reading whole-number columns of many rows straight into an array: on PostgreSQL the database
packs them into one binary string (each value's 8 bytes, big-endian), parsed at once, without a
Python object per row or value."""

from __future__ import annotations

import numpy as np
from django.db import connection


def int_columns(queryset, *fields: str) -> np.ndarray:
    """The fields (not null, whole numbers) of the queryset's rows, one row each: (rows, fields) int64."""
    rows = queryset.order_by().values_list(*fields)
    if connection.vendor != "postgresql":
        return np.array(list(rows), dtype=np.int64).reshape(-1, len(fields))
    sql, params = rows.query.sql_with_params()
    columns = [f"c{i}" for i in range(len(fields))]
    packed = " || ".join(f"int8send(q.{c}::bigint)" for c in columns)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT count(*), string_agg({packed}, ''::bytea) FROM ({sql}) AS q ({', '.join(columns)})", params
        )
        count, data = cursor.fetchone()
    values = np.frombuffer(bytes(data or b""), dtype=">i8")
    if values.size != count * len(fields):
        raise ValueError("a column holds a NULL")  # its row would have been left out
    return values.astype(np.int64).reshape(-1, len(fields))
