"""What club nights took: the session fees the ledger received for their attendances, less refunds, by way of
paying. Read from money's payments (the one ledger), never kept apart."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from money.core.references import SESSION
from money.models import Method, Payment

from ..models import Attendance

ZERO = Decimal("0")


@dataclass
class NightTakings:
    total: Decimal = ZERO
    payments: int = 0
    by_method: dict = field(default_factory=dict)  # method label -> amount

    def add(self, method: str, amount: Decimal) -> None:
        self.total += amount
        self.payments += 1
        label = Method(method).label if method in Method.values else method
        self.by_method[label] = self.by_method.get(label, ZERO) + amount


def takings(nights) -> dict[int, NightTakings]:
    """Each night's takings by its id (two queries, whatever the number of nights)."""
    night_of = dict(Attendance.objects.filter(night__in=nights).values_list("pk", "night_id"))
    found: dict[int, NightTakings] = defaultdict(NightTakings)
    for target, method, amount, refunded in Payment.objects.filter(
        kind=SESSION, target_id__in=list(night_of)
    ).values_list("target_id", "method", "amount", "refunded"):
        found[night_of[target]].add(method, amount - refunded)
    return {getattr(night, "pk", night): found[getattr(night, "pk", night)] for night in nights}
