"""What money came in, what went back and what is still owed: the queries behind the organiser's money page
for one event and the treasurer's page and CSV, in one place. Sums are taken in the database; a list is a
queryset the page paginates, so a page costs the same few queries however many payments there are."""

from __future__ import annotations

import heapq
from calendar import monthrange
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from django.db.models import Case, CharField, Count, F, Q, QuerySet, Sum, Value, When
from django.db.models.functions import Coalesce
from django.utils import timezone

from ..balances import MONEY
from ..core.tax import tax_included
from ..models import HELD, REFUNDABLE, BillingDocument, Invoice, InvoiceStatus, Method, Payment, PaymentSettings, Refund
from ..payables import GONE, KINDS, HeldNote, Kind, Owing

ZERO = Decimal("0")
CENT = Decimal("0.01")
DEFAULT_GST_RATE = PaymentSettings._meta.get_field("gst_rate").default


def _sum(expression, **extra) -> Coalesce:
    return Coalesce(Sum(expression, **extra), Value(ZERO), output_field=MONEY)


def _group(prefix: str = "") -> Case:
    """The heading money for no event is counted under, by its kind (money.payables.Kind.report_group): "" for
    membership and other fees. `prefix` reaches the payment from a refund ("payment__")."""
    whens = [
        When(**{f"{prefix}kind": code}, then=group)
        for code, kind in sorted(KINDS.items())
        if (group := kind.report_group(f"{prefix}target_id")) is not None
    ]
    return Case(*whens, default=Value(""), output_field=CharField())


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


def held_under(references, *, event_id: int | None = None) -> list[Payment]:
    """The payments under these references (an entry's, a group's; None: every one of the event `event_id`) with
    money held on them (`held_amount`), oldest first, in one query: what the money page lists to refund or keep,
    for the pages that show entries and groups."""
    if references is None:
        rows = Payment.objects.filter(event_id=event_id)
    elif references := set(references):
        rows = Payment.objects.filter(reference__in=references)
    else:
        return []
    return list(rows.annotate(held_amount=HELD).filter(held_amount__gt=0).order_by("recorded_at", "pk"))


def held_by_reference(references, *, event_id: int | None = None) -> dict[str, Decimal]:
    """How much is held under each of these references (those with none are left out), in one query."""
    found: dict[str, Decimal] = {}
    for p in held_under(references, event_id=event_id):
        found[p.reference] = found.get(p.reference, ZERO) + p.held_amount
    return {reference: amount.quantize(CENT) for reference, amount in found.items()}


def refunds_due(event) -> QuerySet[Payment]:
    """For a cancelled event: every payment with something still to give back."""
    return (
        payments(Filters(event_id=event.pk)).filter(refundable_amount__gt=0).order_by("payer_name", "received_on", "pk")
    )


def refunds_due_summary(event) -> dict:
    """How many payments for the event still have money to give back, and how much: {"count", "amount"}."""
    return Payment.objects.filter(event=event, amount__gt=F("refunded")).aggregate(
        count=Count("pk"), amount=_sum(REFUNDABLE)
    )


class Owed:
    """What the registered kinds of one sort still owe (those whose things belong to events, or those that belong
    to the association alone), as one list a Paginator pages: each kind's rows in turn, read a page at a time (a
    count and a slice of each kind's queryset), as money.payables.Owing rows."""

    def __init__(self, parts: list[tuple[Kind, QuerySet]]):
        self.parts = parts
        self._counts: list[int] | None = None

    @property
    def title(self) -> str:
        """What is listed, in words: "entries", "membership renewals"."""
        return " and ".join(kind.owing_title for kind, _ in self.parts if kind.owing_title)

    def counts(self) -> list[int]:
        if self._counts is None:
            self._counts = [rows.count() for _, rows in self.parts]
        return self._counts

    def count(self) -> int:
        return sum(self.counts())

    def __len__(self) -> int:
        return self.count()

    def __getitem__(self, index: slice) -> list[Owing]:
        start, stop = index.start or 0, index.stop if index.stop is not None else self.count()
        found: list[Owing] = []
        for (kind, rows), n in zip(self.parts, self.counts(), strict=True):
            if stop <= 0:
                break
            if start < n:
                found += kind.owing_rows(list(rows[start : min(stop, n)]))
            start, stop = max(start - n, 0), stop - n
        return found

    def totals(self) -> tuple[int, Decimal]:
        """How many owe, and how much in all (a sum in the database per kind)."""
        count, total = 0, ZERO
        for _, rows in self.parts:
            sums = rows.order_by().aggregate(n=Count("pk"), total=_sum("balance_due"))
            count, total = count + sums["n"], total + sums["total"]
        return count, total


def owed(event_id: int | None = None, *, at_events: bool = True) -> Owed:
    """What is still owed: for things of events (entries; of one event, when given), or with `at_events` False
    for things of the association alone (membership renewals, which no event filter reaches)."""
    parts = []
    for kind in KINDS.values():
        if (kind.events is not None) == at_events and (rows := kind.owing(event_id)) is not None:
            parts.append((kind, rows))
    return Owed(parts)


# ---------------------------------------------------------------------------------------------------------
# Why money is held, and whether it can be applied after all


def held_notes(rows: list[Payment]) -> dict[int, HeldNote]:
    """For each held payment (by pk): why its money is held, and whether reinstating could apply it. One query
    per kind of thing paid for, whatever the number of payments."""
    wanted: dict[str, set[int]] = {}
    for p in rows:
        wanted.setdefault(p.kind, set()).add(p.target_id)
    found = {code: KINDS[code].held_notes(ids) for code, ids in wanted.items() if code in KINDS}
    return {p.pk: found.get(p.kind, {}).get(p.target_id, GONE) for p in rows}


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
    group: str = ""  # for no event: its kind's heading (a club's nights); empty: membership and other fees


@dataclass
class Summary:
    """The treasurer's sums for the filters: overall and per event (money for no event, such as membership
    renewals, under event None)."""

    overall: Totals
    events: list[EventTotals] = field(default_factory=list)


def summary(filters: Filters) -> Summary:
    """Totals received, refunded, net and held, overall and per event (money for no event under its kind's
    heading, such as a club's nights): two grouped queries."""
    by_event: dict[tuple, EventTotals] = {}

    def totals_of(event_id, title, slug, group) -> EventTotals:
        group = "" if event_id else group or ""
        return by_event.setdefault(
            (event_id, group), EventTotals(event_id=event_id, title=title or "", slug=slug or "", group=group)
        )

    received = (
        filters.payments()
        .annotate(group=_group())
        .values("event_id", "event__title", "event__slug", "group")
        .annotate(received=_sum("amount"), held=_sum(HELD), n=Count("pk"))
        .order_by()
    )
    for row in received:
        totals = totals_of(row["event_id"], row["event__title"], row["event__slug"], row["group"])
        totals.received, totals.held, totals.payments = row["received"], row["held"], row["n"]
    given = (
        filters.refunds()
        .annotate(group=_group("payment__"))
        .values("payment__event_id", "payment__event__title", "payment__event__slug", "group")
        .annotate(refunded=_sum("amount"), n=Count("pk"))
        .order_by()
    )
    for row in given:
        totals = totals_of(
            row["payment__event_id"], row["payment__event__title"], row["payment__event__slug"], row["group"]
        )
        totals.refunded, totals.refunds = row["refunded"], row["n"]
    events = sorted(
        by_event.values(),
        key=lambda t: (t.event_id is None, t.group == "", (t.title or t.group).lower(), t.event_id or 0),
    )
    overall = Totals(
        received=sum((t.received for t in events), ZERO),
        refunded=sum((t.refunded for t in events), ZERO),
        held=sum((t.held for t in events), ZERO),
        payments=sum(t.payments for t in events),
        refunds=sum(t.refunds for t in events),
    )
    return Summary(overall=overall, events=events)


def event_totals(event) -> dict:
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
    """What things of events still owe (`outstanding_count`, `outstanding`) and, with `renewals`, what things of
    the association alone owe (`renewals_count`, `renewals_outstanding`)."""
    owing = dict(zip(("outstanding_count", "outstanding"), owed(event_id).totals(), strict=True))
    if renewals:
        owing.update(zip(("renewals_count", "renewals_outstanding"), owed(at_events=False).totals(), strict=True))
    return owing


# ---------------------------------------------------------------------------------------------------------
# Invoices: what was invoiced, what of it is paid and what is outstanding. A replaced invoice counts for nothing
# (the one that replaced it counts); an invoice is paid in full once settled, and in part by the money received
# under it until then.


def invoices(filters: Filters) -> QuerySet[Invoice]:
    """The invoices issued in the period (for the event), newest first, each with `received` (the money paid under
    it so far). Not filtered by way of paying: an invoice is paid in any way."""
    rows = Invoice.objects.filter(document=BillingDocument.INVOICE).exclude(status=InvoiceStatus.REPLACED)
    if filters.start:
        rows = rows.filter(issued_on__gte=filters.start)
    if filters.end:
        rows = rows.filter(issued_on__lte=filters.end)
    if filters.event_id:
        rows = rows.filter(event_id=filters.event_id)
    return rows.annotate(received=_sum("payments__amount")).select_related("event").order_by("-issued_at", "-pk")


def invoice_paid(invoice: Invoice) -> Decimal:
    """What of an invoice is paid: all of it once settled, else the money received under it (never more)."""
    if invoice.status == InvoiceStatus.PAID:
        return invoice.amount_due
    return min(invoice.amount_due, getattr(invoice, "received", ZERO) or ZERO)


def invoice_totals(filters: Filters) -> dict:
    """How many invoices, invoiced, paid and outstanding, for the filters (two queries)."""
    rows = invoices(filters).order_by()
    whole = Invoice.objects.filter(pk__in=rows.values("pk")).aggregate(
        n=Count("pk"), invoiced=_sum("amount_due"), settled=_sum("amount_due", filter=Q(status=InvoiceStatus.PAID))
    )
    # Money under invoices still open, each counted up to what it asks for.
    part = sum((invoice_paid(i) for i in rows.filter(status=InvoiceStatus.ISSUED, received__gt=0)), ZERO)
    paid = whole["settled"] + part
    return {"count": whole["n"], "invoiced": whole["invoiced"], "paid": paid, "outstanding": whole["invoiced"] - paid}


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
    "Invoice",
    "Invoice paid",
    "Invoice outstanding",
    "Discount",
    "Discount note",
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


def line_discounts(lines: list[dict]) -> tuple:
    """What discount codes took off the things a payment paid for, and the codes (empty when none did)."""
    total, notes = ZERO, []
    for line in lines or []:
        try:
            taken = Decimal(str(line.get("discount") or "0"))
        except ArithmeticError:
            taken = ZERO
        if taken > 0:
            total += taken
            notes.append(str(line.get("discount_note") or ""))
    # One note per code, with how many lines it took off ("code SCHOOL10 × 15"), not the same note 15 times.
    counted = {n: notes.count(n) for n in notes if n}
    said = "; ".join(n if times == 1 else f"{n} × {times}" for n, times in counted.items())
    return (total, said) if total else ("", "")


def reductions(event_id: int | None = None):
    """Discount codes and free places given, per event (money.payables.Events.reductions): entries as they stand
    now, as the amounts owed are."""
    from ..payables import events

    return events().reductions(event_id)


def who(user) -> str:
    if user is None:
        return ""
    return user.get_full_name() or user.email or user.get_username()


def csv_rows(filters: Filters):
    """The header, then one row per payment, per refund and per invoice in the period, oldest first (a refund's
    amount is negative; an invoice's is what it asks for, with what of it is paid and outstanding). Read in chunks,
    merged by date; clubsite.kit.csv writes them formula-safe."""
    rates = dict(PaymentSettings.objects.values_list("association_id", "gst_rate"))
    methods = dict(Method.choices)

    def payment_rows():
        rows = (
            filters.payments(Payment.objects.select_related("event", "recorded_by", "invoice"))
            .annotate(group=_group())
            .order_by("received_on", "recorded_at", "pk")
        )
        for p in rows.iterator(chunk_size=500):
            yield [
                p.received_on.isoformat(),
                p.number,
                "receipt",
                p.reference,
                p.description,
                p.event.title if p.event_id else p.group,
                p.payer_name,
                methods.get(p.method, p.method),
                p.amount,
                p.currency,
                gst_included(p.amount, p.lines, rates.get(p.association_id, DEFAULT_GST_RATE)),
                who(p.recorded_by),
                p.invoice.number if p.invoice_id else "",
                "",
                "",
                *line_discounts(p.lines),
            ]

    def refund_rows():
        rows = (
            filters.refunds(Refund.objects.select_related("payment", "payment__event", "refunded_by"))
            .annotate(group=_group("payment__"))
            .order_by("refunded_at", "pk")
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
                p.event.title if p.event_id else r.group,
                p.payer_name,
                methods.get(r.method, r.method),
                amount,
                p.currency,
                gst_included(amount, p.lines, rates.get(p.association_id, DEFAULT_GST_RATE)),
                who(r.refunded_by),
                "",
                "",
                "",
                "",
                "",
            ]

    def invoice_rows():
        """An invoice's amount is what it asks for, not money received: its Kind tells it apart in the sums."""
        rows = invoices(filters).select_related("issued_by").order_by("issued_on", "issued_at", "pk")
        for i in rows.iterator(chunk_size=500):
            paid = invoice_paid(i)
            po = f" (purchase order {i.po_number})" if i.po_number else ""
            yield [
                i.issued_on.isoformat(),
                i.number,
                "invoice",
                i.reference,
                f"Invoice to {i.billing_name}{po}: {i.description}",
                i.event.title if i.event_id else "",
                i.billing_name,
                "",
                i.amount_due,
                i.currency,
                gst_included(i.amount_due, i.lines, rates.get(i.association_id, DEFAULT_GST_RATE)),
                who(i.issued_by),
                i.get_status_display(),
                paid,
                i.amount_due - paid,
                "",
                "",
            ]

    yield CSV_HEADER
    yield from heapq.merge(payment_rows(), refund_rows(), invoice_rows(), key=lambda row: row[0])
