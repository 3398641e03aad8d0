"""Gap-free numbers: the one next-in-sequence every numbered thing uses (member numbers, receipts, credit notes)."""

from django.db import IntegrityError, transaction
from django.db.models import F

from .models import Counter


def next_in_sequence(name: str, first: int = 1) -> int:
    """The next value of the named sequence (`first` when it has none yet).

    Taken with an UPDATE that holds the sequence's row until the caller's transaction ends: concurrent callers
    queue there and never share a number, and a rolled-back caller gives its number back, so there are no gaps."""
    return take_in_sequence(name, 1, first)[0]


def take_in_sequence(name: str, count: int, first: int = 1) -> range:
    """The next `count` values of the named sequence at once, in one UPDATE (an import of many members), held as
    next_in_sequence holds one."""
    if count < 1:
        return range(0)
    with transaction.atomic():
        if Counter.objects.filter(name=name).update(value=F("value") + count):
            last = Counter.objects.values_list("value", flat=True).get(name=name)
        else:
            try:
                with transaction.atomic():  # the very first numbers: two callers may race to create the row
                    last = Counter.objects.create(name=name, value=first + count - 1).value
            except IntegrityError:
                Counter.objects.filter(name=name).update(value=F("value") + count)
                last = Counter.objects.values_list("value", flat=True).get(name=name)
    return range(last - count + 1, last + 1)
