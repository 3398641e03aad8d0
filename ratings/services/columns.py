"""Reading whole-number columns of many rows straight into an array: on PostgreSQL with a binary
COPY of the query, parsed at once as numpy records, without a Python object per row or value."""

from __future__ import annotations

import numpy as np
from django.db import connection

_SIGNATURE = b"PGCOPY\n\xff\r\n\x00"


def int_columns(queryset, *fields: str) -> np.ndarray:
    """The fields (not null, whole numbers) of the queryset's rows, one row each: (rows, fields) int64."""
    rows = queryset.order_by().values_list(*fields)
    if connection.vendor != "postgresql":
        return np.array(list(rows), dtype=np.int64).reshape(-1, len(fields))
    sql, params = rows.query.sql_with_params()
    with connection.cursor() as cursor:
        with cursor.cursor.copy(f"COPY ({sql}) TO STDOUT (FORMAT BINARY)", params) as copy:
            data = b"".join(bytes(block) for block in copy)
    return _parse(data, len(fields))


def _parse(data: bytes, count: int) -> np.ndarray:
    if not data.startswith(_SIGNATURE):
        raise ValueError("not a binary COPY")
    start = len(_SIGNATURE) + 4
    start += 4 + int.from_bytes(data[start : start + 4], "big")  # the header extension, skipped
    body = data[start:-2]  # the trailer: -1 as a field count
    if not body:
        return np.empty((0, count), dtype=np.int64)
    # Every row is laid out as the first: its field count, then each field's length and value.
    fields, at = [("count", ">i2")], 2
    for i in range(count):
        size = int.from_bytes(body[at : at + 4], "big", signed=True)
        if size not in (2, 4, 8):
            raise ValueError(f"column {i} is not a whole number ({size} bytes)")
        fields += [(f"size{i}", ">i4"), (f"value{i}", f">i{size}")]
        at += 4 + size
    kind = np.dtype(fields)
    if len(body) % kind.itemsize:
        raise ValueError("rows of different layouts (a NULL?)")
    records = np.frombuffer(body, dtype=kind)
    if (records["count"] != count).any() or any(
        (records[f"size{i}"] != kind[f"value{i}"].itemsize).any() for i in range(count)
    ):
        raise ValueError("rows of different layouts (a NULL?)")
    return np.column_stack([records[f"value{i}"].astype(np.int64) for i in range(count)])
