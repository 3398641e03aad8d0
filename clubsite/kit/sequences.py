"""Gap-free numbers: the one next-in-sequence every numbered thing uses (member numbers, receipts, credit notes)."""

from django.db import IntegrityError, transaction
from django.db.models import F

from .models import Counter


def next_in_sequence(name: str, first: int = 1) -> int:
    """The next value of the named sequence (`first` when it has none yet).

    Taken with an UPDATE that holds the sequence's row until the caller's transaction ends: concurrent callers
    queue there and never share a number, and a rolled-back caller gives its number back, so there are no gaps."""
    with transaction.atomic():
        if Counter.objects.filter(name=name).update(value=F("value") + 1):
            return Counter.objects.values_list("value", flat=True).get(name=name)
        try:
            with transaction.atomic():  # the very first number: two callers may race to create the row
                return Counter.objects.create(name=name, value=first).value
        except IntegrityError:
            Counter.objects.filter(name=name).update(value=F("value") + 1)
            return Counter.objects.values_list("value", flat=True).get(name=name)
