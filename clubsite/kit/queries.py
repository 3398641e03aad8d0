"""Query shapes that keep PostgreSQL's plans small on pages listing a few rows out of many."""

from django.db.models import QuerySet


def in_order(ids, queryset: QuerySet) -> list:
    """The rows of `queryset` with these ids (an ordered and sliced query of ids, or a list), in that order.

    Sorting and slicing only the ids first, then reading the few rows with everything shown beside them: the one
    query that sorts the rows with their related rows joined had PostgreSQL read and hash every row of the joined
    tables (every event and category) to show twenty."""
    ids = list(ids)
    found = queryset.in_bulk(ids)
    return [found[pk] for pk in ids]
