"""What is left to pay: the one rule, in Python and in SQL. Every balance on the site (an entry's, a renewal's, an
amount due's, the sums of what is still owed on the organiser's and the treasurer's pages) is what was charged
less what was paid, never below zero. A refund lowers both (money.services.refund), so it never makes anything
due again."""

from decimal import Decimal

from django.db.models import DecimalField, ExpressionWrapper, F, Q, Value
from django.db.models.functions import Greatest

ZERO = Decimal("0")
MONEY = DecimalField(max_digits=12, decimal_places=2)


def balance(charged: Decimal, paid: Decimal) -> Decimal:
    """What is left to pay of `charged` once `paid` is paid: never below zero (paying more leaves nothing due)."""
    return max(charged - paid, ZERO)


def balance_sql(charged: str = "amount_due", paid: str = "amount_paid") -> Greatest:
    """`balance` in the database, for the fields named: charged less paid, never below zero."""
    left = ExpressionWrapper(F(charged) - F(paid), output_field=MONEY)
    return Greatest(left, Value(ZERO), output_field=MONEY)


def owing(charged: str = "amount_due", paid: str = "amount_paid") -> Q:
    """The rows whose balance is above zero, written as charged > paid (the partial index `entry_owing` has the
    same condition, so the database finds the few rows owing among many paid ones)."""
    return Q(**{f"{charged}__gt": F(paid)})
