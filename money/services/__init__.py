"""Money's services: every payment, refund and reconciliation goes through these (pages, API, admin,
commands and providers alike)."""

from .ledger import (
    MoneyError,
    Received,
    assert_may_view,
    due_or_error,
    hold,
    own_payments,
    payments_for,
    receive,
    refund,
    refund_all,
    reinstate,
    release,
    settings_for,
    visible_payments,
)

__all__ = [
    "MoneyError",
    "Received",
    "assert_may_view",
    "due_or_error",
    "hold",
    "own_payments",
    "payments_for",
    "receive",
    "refund",
    "refund_all",
    "reinstate",
    "release",
    "settings_for",
    "visible_payments",
]
