"""Amounts of money as people type them and as they read them: one parser and one formatter for the whole site.

`parse_amount` is the one reading of an amount typed into a form or sent to the API (a fee, a prize, a payment,
a refund): dollars and cents, never rounded behind the payer's back. `format_money` is the one way an amount is
written: S$3.00 on a page, SGD 3.00 on a receipt, in an email or in a message."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django.conf import settings

from .errors import ServiceError

CENT = Decimal("0.01")
# Currencies written with their sign on pages; any other is written with its code (EUR 3.00).
SIGNS = {"SGD": "S$"}
# Money's own columns hold ten digits, two of them cents: up to 99,999,999.99.
MAX_DIGITS = 10


def format_money(amount, currency: str | None = None, *, code: bool = False) -> str:
    """S$3.00 for Singapore dollars on a page, else the currency's code: EUR 3.00; with `code`, always the code
    (SGD 3.00), as receipts, emails and messages write it. Thousands are grouped (S$1,250.00); no amount (None,
    "") is written as nothing. `currency` is the site's (settings.CURRENCY) unless given."""
    if amount is None or amount == "":
        return ""
    try:
        value = amount if isinstance(amount, Decimal) else Decimal(str(amount))
    except (InvalidOperation, ValueError):
        return str(amount)
    if value == 0:
        value = abs(value)  # never "-0.00"
    currency = currency or settings.CURRENCY
    sign = None if code else SIGNS.get(currency)
    return f"{sign}{value:,.2f}" if sign else f"{currency} {value:,.2f}"


def _a(noun: str) -> str:
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


def parse_amount(
    value,
    *,
    field: str = "amount",
    what: str = "amount",
    zero: bool = False,
    max_digits: int = MAX_DIGITS,
    error: type[ServiceError] = ServiceError,
) -> Decimal:
    """`value` (text, a number or a Decimal) as an amount to the cent. Refused with `error` (naming `field`, and
    the amount as `what`: "fee", "prize amount"), never rounded: nothing given, not a number, negative (or zero,
    unless `zero`), more than two decimal places, or more than a column of `max_digits` digits holds."""
    if value is None or (isinstance(value, str) and not value.strip()):
        raise error(f"Enter the {what}, for example 3.00.", field=field)
    try:
        if isinstance(value, bool):
            raise TypeError
        amount = value if isinstance(value, Decimal) else Decimal(str(value).strip())
    except (InvalidOperation, TypeError, ValueError):
        amount = None
    if amount is None or not amount.is_finite():
        raise error(f"Enter {_a(what)} as a number, for example 3.00.", field=field)
    if amount < 0 and zero:
        raise error(f"{_a(what).capitalize()} cannot be negative.", field=field)
    if amount <= 0 and not zero:
        raise error(f"The {what} must be more than zero.", field=field)
    limit = Decimal(10) ** (max_digits - 2)
    if amount >= limit:
        raise error(f"The {what} is too large: it must be less than {format_money(limit, code=True)}.", field=field)
    if amount != amount.quantize(CENT):
        raise error(f"The {what} has more than two decimal places: give it to the cent, for example 3.25.", field=field)
    return amount.quantize(CENT)
