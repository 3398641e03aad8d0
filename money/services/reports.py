"""What money came in, what went back and what is still owed: the queries behind the organiser's money page
for one event and the treasurer's page and CSV, in one place. Sums are taken in the database; a list is a
queryset the page paginates, so a page costs the same few queries however many payments there are."""

from __future__ import annotations

import heapq
from calendar import monthrange
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from django.db.models import Count, DecimalField, ExpressionWrapper, F, Q, QuerySet, Sum, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from events.models import Entry, EntryStatus, Event
from events.services.payments import PAYABLE_STATUSES
from players.models import RenewalRequest, RenewalStatus

from ..core.references import make_reference
from ..core.tax import tax_included
from ..models import Method, Payment, PaymentSettings, Refund

ZERO = Decimal("0")
MONEY = DecimalField(max_digits=12, decimal_places=2)
HELD = ExpressionWrapper(F("amount") - F("applied") - F("refunded"), output_field=MONEY)
REFUNDABLE = ExpressionWrapper(F("amount") - F("refunded"), output_field=MONEY)
BALANCE = ExpressionWrapper(F("amount_due") - F("amount_paid"), output_field=MONEY)
RENEWAL_BALANCE = ExpressionWrapper(F("amount") - F("amount_paid"), output_field=MONEY)
DEFAULT_GST_RATE = PaymentSettings._meta.get_field("gst_rate").default


def _sum(expression, **extra) -> Coalesce:
    return Coalesce(Sum(expression, **extra), Value(ZERO), output_field=MONEY)


# ---------------------------------------------------------------------------------------------------------
# Filters: a period, an event, a way of paying.


def this_month(today: date | None = None) -> tuple[date, date]:
    today = today or timezone.localdate()
    return today.replace(day=1), today.replace(day=monthrange(today.year, today.month)[1])


@dataclass(frozen=True)
class Filters:
    """Which money to count: received (or refunded) from `start` to `end` inclusive, for one event, one way."""

    start: date | None = None
    end: date | None = None
    event_id: int | None = None
    method: str = ""

    def payments(self, rows: QuerySet[Payment] | None = None) -> QuerySet[Payment]:
        rows = Payment.objects.all() if rows is None else rows
        if self.start:
            rows = rows.filter(received_on__gte=self.start)
        if self.end:
            rows = rows.filter(received_on__lte=self.end)
        if self.event_id:
            rows = rows.filter(event_id=self.event_id)
        if self.method:
            rows = rows.filter(method=self.method)
        return rows

    def refunds(self, rows: QuerySet[Refund] | None = None) -> QuerySet[Refund]:
        rows = Refund.objects.all() if rows is None else rows
        if self.start:
            rows = rows.filter(refunded_at__date__gte=self.start)
        if self.end:
            rows = rows.filter(refunded_at__date__lte=self.end)
        if self.event_id:
            rows = rows.filter(payment__event_id=self.event_id)
        if self.method:
            rows = rows.filter(method=self.method)
        return rows


# ---------------------------------------------------------------------------------------------------------
# Lists


def payments(filters: Filters) -> QuerySet[Payment]:
    """Payments received, newest first, each with `held_amount` and `refundable_amount`."""
    return (
        filters.payments(Payment.objects.select_related("event", "recorded_by"))
        .annotate(held_amount=HELD, refundable_amount=REFUNDABLE)
        .order_by("-received_on", "-recorded_at", "-pk")
    )


def refunds(filters: Filters) -> QuerySet[Refund]:
    """Refunds given (each with its credit note), newest first."""
    return filters.refunds(Refund.objects.select_related("payment", "payment__event", "refunded_by")).order_by(
        "-refunded_at", "-pk"
    )


def held(filters: Filters) -> QuerySet[Payment]:
    """Payments with money neither applied nor refunded: for the organiser to refund or reinstate."""
    return payments(filters).filter(held_amount__gt=0).order_by("received_on", "recorded_at", "pk")


def refunds_due(event: Event) -> QuerySet[Payment]:
    """For a cancelled event: every payment with something still to give back."""
    return (
        payments(Filters(event_id=event.pk)).filter(refundable_amount__gt=0).order_by("payer_name", "received_on", "pk")
    )


def refunds_due_summary(event: Event) -> dict:
    """How many payments for the event still have money to give back, and how much: {"count", "amount"}."""
    return Payment.objects.filter(event=event, amount__gt=F("refunded")).aggregate(
        count=Count("pk"), amount=_sum(REFUNDABLE)
    )


def outstanding_entries(event_id: int | None = None) -> QuerySet[Entry]:
    """Entries holding a place with something still to pay, each with `balance_due` and `reference`-ready pk."""
    rows = (
        Entry.objects.filter(status__in=PAYABLE_STATUSES, amount_due__gt=F("amount_paid"))
        .select_related("event", "player", "category", "group")
        .annotate(balance_due=BALANCE)
    )
    if event_id:
        rows = rows.filter(event_id=event_id)
    return rows.order_by("event__starts_on", "event_id", "accepted_at", "pk")


def outstanding_renewals() -> QuerySet[RenewalRequest]:
    """Membership renewals asked for and not yet paid in full."""
    return (
        RenewalRequest.objects.filter(status=RenewalStatus.REQUESTED, amount__gt=F("amount_paid"))
        .select_related("player")
        .annotate(balance_due=RENEWAL_BALANCE)
        .order_by("requested_at", "pk")
    )


def entry_reference(entry: Entry) -> str:
    return make_reference("E", entry.pk)


def renewal_reference(renewal: RenewalRequest) -> str:
    return make_reference("M", renewal.pk)


# ---------------------------------------------------------------------------------------------------------
# Why money is held, and whether it can be applied after all


@dataclass(frozen=True)
class HeldNote:
    why: str
    can_reinstate: bool


def held_notes(rows: list[Payment]) -> dict[int, HeldNote]:
    """For each held payment (by pk): why its money is held, and whether reinstating could apply it. One query
    per kind of thing paid for, whatever the number of payments."""
    entry_ids = {p.target_id for p in rows if p.kind == "E"}
    group_ids = {p.target_id for p in rows if p.kind == "G"}
    renewal_ids = {p.target_id for p in rows if p.kind == "M"}
    entries = {e.pk: e for e in Entry.objects.filter(pk__in=entry_ids)} if entry_ids else {}
    groups = (
        dict(
            Entry.objects.filter(group_id__in=group_ids, status__in=PAYABLE_STATUSES, amount_due__gt=F("amount_paid"))
            .values("group_id")
            .annotate(n=Count("pk"))
            .values_list("group_id", "n")
        )
        if group_ids
        else {}
    )
    renewals = {r.pk: r for r in RenewalRequest.objects.filter(pk__in=renewal_ids)} if renewal_ids else {}
    notes = {}
    for p in rows:
        if p.kind == "E" and p.target_id in entries:
            entry = entries[p.target_id]
            if entry.status == EntryStatus.LAPSED:
                notes[p.pk] = HeldNote("The entry lapsed before this payment arrived.", True)
            elif entry.status in PAYABLE_STATUSES:
                notes[p.pk] = HeldNote("Paid more than was due.", entry.balance > 0)
            else:
                notes[p.pk] = HeldNote(f"The entry is {entry.get_status_display().lower()}.", False)
        elif p.kind == "G":
            owing = groups.get(p.target_id, 0)
            notes[p.pk] = HeldNote("Paid more than the group's entries owed.", owing > 0)
        elif p.kind == "M" and p.target_id in renewals:
            renewal = renewals[p.target_id]
            if renewal.status == RenewalStatus.REQUESTED:
                notes[p.pk] = HeldNote("Paid more than the renewal's fee.", renewal.amount > renewal.amount_paid)
            else:
                notes[p.pk] = HeldNote(f"The renewal is {renewal.get_status_display().lower()}.", False)
        else:
            notes[p.pk] = HeldNote("What it paid for is gone.", False)
    return notes


# ---------------------------------------------------------------------------------------------------------
# Totals


@dataclass
class Totals:
    received: Decimal = ZERO
    refunded: Decimal = ZERO
    held: Decimal = ZERO
    payments: int = 0
    refunds: int = 0

    @property
    def net(self) -> Decimal:
        return self.received - self.refunded


@dataclass
class EventTotals(Totals):
    event_id: int | None = None
    title: str = ""
    slug: str = ""


@dataclass
class Summary:
    """The treasurer's sums for the filters: overall and per event (money for no event, such as membership
    renewals, under event None)."""

    overall: Totals
    events: list[EventTotals] = field(default_factory=list)


def summary(filters: Filters) -> Summary:
    """Totals received, refunded, net and held, overall and per event: two grouped queries."""
    by_event: dict[int | None, EventTotals] = {}
    received = (
        filters.payments()
        .values("event_id", "event__title", "event__slug")
        .annotate(received=_sum("amount"), held=_sum(HELD), n=Count("pk"))
        .order_by()
    )
    for row in received:
        totals = by_event.setdefault(
            row["event_id"],
            EventTotals(event_id=row["event_id"], title=row["event__title"] or "", slug=row["event__slug"] or ""),
        )
        totals.received, totals.held, totals.payments = row["received"], row["held"], row["n"]
    given = (
        filters.refunds()
        .values("payment__event_id", "payment__event__title", "payment__event__slug")
        .annotate(refunded=_sum("amount"), n=Count("pk"))
        .order_by()
    )
    for row in given:
        event_id = row["payment__event_id"]
        totals = by_event.setdefault(
            event_id,
            EventTotals(
                event_id=event_id,
                title=row["payment__event__title"] or "",
                slug=row["payment__event__slug"] or "",
            ),
        )
        totals.refunded, totals.refunds = row["refunded"], row["n"]
    events = sorted(by_event.values(), key=lambda t: (t.event_id is None, t.title.lower(), t.event_id or 0))
    overall = Totals(
        received=sum((t.received for t in events), ZERO),
        refunded=sum((t.refunded for t in events), ZERO),
        held=sum((t.held for t in events), ZERO),
        payments=sum(t.payments for t in events),
        refunds=sum(t.refunds for t in events),
    )
    return Summary(overall=overall, events=events)


def event_totals(event: Event) -> dict:
    """One event's money, all time: received, applied, refunded, held (and how many payments), and what its
    entries still owe."""
    sums = Payment.objects.filter(event=event).aggregate(
        n=Count("pk"),
        amount_sum=_sum("amount"),
        applied_sum=_sum("applied"),
        refunded_sum=_sum("refunded"),
        held_sum=_sum(HELD),
        held_n=Count("pk", filter=Q(amount__gt=F("applied") + F("refunded"))),
    )
    totals = {
        "payments": sums["n"],
        "received": sums["amount_sum"],
        "applied": sums["applied_sum"],
        "refunded": sums["refunded_sum"],
        "held": sums["held_sum"],
        "held_count": sums["held_n"],
    }
    totals["net"] = totals["received"] - totals["refunded"]
    totals.update(outstanding_totals(event.pk))
    return totals


def outstanding_totals(event_id: int | None = None, *, renewals: bool = False) -> dict:
    """What entries (and, with `renewals`, membership renewals) still owe: counts and sums."""
    owed = outstanding_entries(event_id).order_by().aggregate(outstanding_count=Count("pk"), outstanding=_sum(BALANCE))
    if renewals:
        owed.update(
            outstanding_renewals()
            .order_by()
            .aggregate(renewals_count=Count("pk"), renewals_outstanding=_sum(RENEWAL_BALANCE))
        )
    return owed


# ---------------------------------------------------------------------------------------------------------
# The treasurer's CSV

CSV_HEADER = [
    "Date",
    "Document number",
    "Kind",
    "Reference",
    "Description",
    "Event",
    "Payer",
    "Method",
    "Amount",
    "Currency",
    "GST included",
    "Recorded by",
]


def taxed_share(lines: list[dict]) -> Decimal:
    """How much of a payment's lines (as its receipt lists them) is charged including GST, as a fraction."""
    total = taxed = ZERO
    for line in lines or []:
        try:
            amount = Decimal(str(line.get("amount", "0")))
        except ArithmeticError:
            continue
        total += amount
        if line.get("taxed"):
            taxed += amount
    if total <= 0:
        return ZERO
    return taxed / total


def gst_included(amount: Decimal, lines: list[dict], rate: Decimal) -> Decimal:
    """The GST contained in `amount` (negative for a refund), for the part of the lines charged including GST."""
    share = taxed_share(lines)
    if share == 0:
        return Decimal("0.00")
    if share != 1:
        amount = (amount * share).quantize(Decimal("0.01"))
    return tax_included(amount, rate)


def who(user) -> str:
    if user is None:
        return ""
    return user.get_full_name() or user.email or user.get_username()


def csv_rows(filters: Filters):
    """The header, then one row per payment and per refund in the period, oldest first (a refund's amount is
    negative). Read in chunks, merged by date; clubsite.kit.csv writes them formula-safe."""
    rates = dict(PaymentSettings.objects.values_list("association_id", "gst_rate"))
    methods = dict(Method.choices)

    def payment_rows():
        rows = filters.payments(Payment.objects.select_related("event", "recorded_by")).order_by(
            "received_on", "recorded_at", "pk"
        )
        for p in rows.iterator(chunk_size=500):
            yield [
                p.received_on.isoformat(),
                p.number,
                "receipt",
                p.reference,
                p.description,
                p.event.title if p.event_id else "",
                p.payer_name,
                methods.get(p.method, p.method),
                p.amount,
                p.currency,
                gst_included(p.amount, p.lines, rates.get(p.association_id, DEFAULT_GST_RATE)),
                who(p.recorded_by),
            ]

    def refund_rows():
        rows = filters.refunds(Refund.objects.select_related("payment", "payment__event", "refunded_by")).order_by(
            "refunded_at", "pk"
        )
        for r in rows.iterator(chunk_size=500):
            p = r.payment
            amount = -r.amount
            yield [
                timezone.localdate(r.refunded_at).isoformat(),
                r.number,
                "credit note",
                p.reference,
                f"Refund of receipt {p.number}: {r.reason}",
                p.event.title if p.event_id else "",
                p.payer_name,
                methods.get(r.method, r.method),
                amount,
                p.currency,
                gst_included(amount, p.lines, rates.get(p.association_id, DEFAULT_GST_RATE)),
                who(r.refunded_by),
            ]

    yield CSV_HEADER
    yield from heapq.merge(payment_rows(), refund_rows(), key=lambda row: row[0])
