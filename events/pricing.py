"""What an entry costs: the one pricing rule every door asks (the entry form, the group form and its class list, the
API, the admin, the organiser moving an entry). Pure: plain values in, a Price out, no database.

The entrant chooses a fee (the standard fee, or a concession with its proof); the fee charged is the lowest of the
variants of that fee (the category's fees of its name) that apply to them: a fee for members applies to a player
whose membership is valid on the event's closing date, one for non-members to the others, an early-bird fee to
entries made on or before its last day. A discount code then takes an amount or a percentage off (never below
nothing); a free place, given by the organiser, costs nothing at all."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal

ZERO = Decimal("0")
CENT = Decimal("0.01")

# Who a fee is for (events.models.Fee.audience).
ANYONE = ""
MEMBERS = "members"
NON_MEMBERS = "non_members"

# How a discount code takes money off (events.models.DiscountCode.kind).
AMOUNT = "amount"
PERCENT = "percent"


def day_text(day: date) -> str:
    """A day as the site writes it everywhere ("1 Mar 2027", as Django's "j M Y"): this core cannot ask Django."""
    return f"{day.day} {day:%b %Y}"


class PricingError(Exception):
    """No fee of the kind chosen applies to this entrant; `message` says why, in words the entrant can act on."""

    def __init__(self, message: str, field: str = "fee"):
        super().__init__(message)
        self.message = message
        self.field = field


@dataclass(frozen=True)
class FeeRow:
    """One of a category's fees, as the pricing rule reads it."""

    id: int
    name: str
    amount: Decimal
    is_concession: bool = False
    proof_label: str = ""
    audience: str = ANYONE
    until: date | None = None  # an early-bird fee: its last day (inclusive); none: no end
    position: int = 0

    def applies(self, day: date, member: bool) -> bool:
        if self.audience == MEMBERS and not member:
            return False
        if self.audience == NON_MEMBERS and member:
            return False
        return self.until is None or day <= self.until

    @property
    def kind(self) -> tuple[str, bool]:
        """Fees of one kind are one fee's variants, alternatives to each other: a fee's name (in any case) names it,
        its variants for members, non-members and early entries share the name ("Standard" for everyone, "Standard"
        for members, "Standard" until 1 March)."""
        return (" ".join(self.name.split()).casefold(), self.is_concession)


@dataclass(frozen=True)
class Discount:
    """A discount code as the pricing rule reads it: `value` is an amount off, or a percentage (0–100)."""

    code: str
    kind: str
    value: Decimal

    def off(self, amount: Decimal) -> Decimal:
        """What the code takes off `amount`: never more than the amount itself."""
        if self.kind == PERCENT:
            taken = (amount * self.value / Decimal(100)).quantize(CENT, rounding=ROUND_HALF_UP)
        else:
            taken = self.value
        return max(min(taken, amount), ZERO)

    @property
    def label(self) -> str:
        if self.kind == PERCENT:
            return f"code {self.code} ({self.value.normalize():f}% off)"
        return f"code {self.code}"


@dataclass(frozen=True)
class Price:
    """What an entry costs, and how it came to that."""

    fee: FeeRow | None  # the fee charged (none: the category has no fee)
    full: Decimal  # the full standard fee: what a non-member pays after any early-bird date, before concessions
    fee_amount: Decimal  # the fee charged, before the discount
    discount: Decimal  # what the discount code took off
    amount: Decimal  # what is due
    code: str = ""  # the discount code applied
    free: bool = False  # a free place given by the organiser

    @property
    def note(self) -> str:
        """How the amount differs from the full fee, as a receipt and the entry page say it."""
        if self.free:
            return "free place"
        parts = []
        if self.fee is not None and self.fee_amount != self.full:
            parts.append(f"{self.fee.name} fee")
        if self.discount:
            parts.append(f"discount code {self.code}")
        return ", ".join(parts)


def full_fee(rows: list[FeeRow], chosen: FeeRow | None = None) -> Decimal:
    """The full standard fee a receipt shows the amount against: the fee chosen (for a concession, the first standard
    fee listed) as a non-member pays it after every early-bird date; the dearest of its variants when none is open to
    everyone without an end."""
    ordered = sorted(rows, key=lambda r: (r.position, r.id))
    base = chosen
    if base is None or base.is_concession:
        base = next((r for r in ordered if not r.is_concession), base)
    if base is None:
        return ZERO
    variants = [r for r in rows if r.kind == base.kind] or [base]
    regular = [r.amount for r in variants if r.audience != MEMBERS and r.until is None]
    return min(regular) if regular else max(r.amount for r in variants)


def _who(audience: str) -> str:
    return {MEMBERS: "members", NON_MEMBERS: "non-members"}.get(audience, "everyone")


def fee_for(rows: list[FeeRow], chosen: FeeRow, day: date, member: bool, closing: date | None = None) -> FeeRow:
    """The fee charged when `chosen` was chosen: the cheapest of its kind that applies (the earliest listed on a
    tie). Refused, saying why, when none applies."""
    same_kind = sorted((r for r in rows if r.kind == chosen.kind), key=lambda r: (r.amount, r.position, r.id))
    applying = [r for r in same_kind if r.applies(day, member)]
    if applying:
        return applying[0]
    if chosen.until is not None and day > chosen.until:
        raise PricingError(f"The {chosen.name} fee ended on {day_text(chosen.until)}; choose another fee.")
    on = f" on the closing date, {day_text(closing)}" if closing else ""
    if member:
        reason = f"The {chosen.name} fee is for {_who(chosen.audience)}, and your membership is valid{on}."
    else:
        reason = f"The {chosen.name} fee is for members (a membership valid{on})."
    raise PricingError(f"{reason} Choose another fee.")


def price(
    rows: list[FeeRow],
    chosen: FeeRow | None,
    *,
    day: date,
    member: bool,
    discount: Discount | None = None,
    free: bool = False,
    closing: date | None = None,
) -> Price:
    """What an entry costs. `rows`: the category's fees; `chosen`: the fee the entrant chose (none when the category
    has no fee); `day`: the day the entry was made (early-bird fees); `member`: whether the entrant's membership is
    valid on the closing date (`closing`, for the refusal's words); `discount`: a code already checked as usable here;
    `free`: a free place given by the organiser."""
    full = full_fee(rows, chosen)
    fee = fee_for(rows, chosen, day, member, closing) if chosen is not None else None
    fee_amount = fee.amount if fee is not None else ZERO
    if free:
        return Price(fee, full, fee_amount, ZERO, ZERO, free=True)
    taken = discount.off(fee_amount) if discount is not None else ZERO
    code = discount.code if discount is not None else ""
    return Price(fee, full, fee_amount, taken, fee_amount - taken, code=code)
