"""Tax contained in tax-inclusive prices, and reading a fee's note for whether (and at what rate) tax is included.

Singapore's GST is charged on top of a net price, but the association's fees are stated inclusive of it:
a 3.00 fee "incl. 9% GST" is 2.75 net plus 0.25 tax. The tax in an inclusive amount is therefore
amount x rate / (100 + rate), not amount x rate / 100. Amounts are Decimals throughout; floats are refused
so that no binary rounding creeps into money.
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal

__all__ = ["CENT", "tax_included", "parse_rate"]

CENT = Decimal("0.01")


def _decimal(value: Decimal | int, name: str) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, Decimal | int):
        raise TypeError(f"{name} must be a Decimal, not {type(value).__name__}")
    return Decimal(value)


def tax_included(amount: Decimal, rate_percent: Decimal) -> Decimal:
    """The tax contained in `amount`, a price inclusive of tax at `rate_percent`, rounded half-up to cents.

    >>> tax_included(Decimal("3.00"), Decimal("9"))
    Decimal('0.25')

    A negative amount (a refund) gives the same tax, negated: half-up rounds away from zero both ways.
    """
    amount = _decimal(amount, "amount")
    rate = _decimal(rate_percent, "rate_percent")
    if not amount.is_finite() or not rate.is_finite():
        raise ValueError("amount and rate must be finite")
    if rate < 0:
        raise ValueError(f"a tax rate cannot be negative: {rate}")
    tax = (amount * rate / (100 + rate)).quantize(CENT, rounding=ROUND_HALF_UP)
    return abs(tax) if tax == 0 else tax  # never "-0.00"


# A note is read clause by clause ("incl. GST, excl. lunch" says GST is included). In a clause, tax is
# included when a word starting "incl" (incl., including, inclusive, included, includes) or "inc" meets a
# tax word and nothing in the clause negates it ("not included", "excl.", "plus GST", "no GST", "GST extra").
_CLAUSES = re.compile(r"[,;]|\bbut\b", re.IGNORECASE)
_TAX = re.compile(r"\b(?:gst|vat|tax(?:es)?)\b", re.IGNORECASE)
_INCLUDED = re.compile(r"\b(?:incl\w*|inc)\b", re.IGNORECASE)
_NEGATED = re.compile(
    r"\b(?:excl\w*|not|without|plus|before|free|extra|additional)\b|\+|\bw/o\b|n't\b|\bno\s+(?:gst|vat|tax)",
    re.IGNORECASE,
)
_RATE = re.compile(r"(\d+(?:\.\d+)?)\s*(?:%|per\s?cent\b)", re.IGNORECASE)


def parse_rate(note: str, *, default_rate: Decimal | None = None) -> Decimal | None:
    """The tax rate (in percent) a fee's note says is included in the fee.

    "incl. 9% GST", "GST 9% inclusive", "including GST at 9%" give Decimal("9"); a note that says tax is
    included without a figure ("incl. GST", "inclusive of GST", "GST inclusive") gives `default_rate`; a note
    that does not say tax is included ("", "excl. GST", "plus GST", "Passion Card concession") gives None.
    With several figures in the clause, the one nearest the tax word is taken.
    """
    if default_rate is not None:
        default_rate = _decimal(default_rate, "default_rate")
    for clause in _CLAUSES.split(note or ""):
        tax = _TAX.search(clause)
        if not tax or not _INCLUDED.search(clause) or _NEGATED.search(clause):
            continue
        rates = list(_RATE.finditer(clause))
        if not rates:
            return default_rate
        nearest = min(rates, key=lambda m: min(abs(m.start() - tax.end()), abs(tax.start() - m.end())))
        return Decimal(nearest.group(1))
    return None
