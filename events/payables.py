"""Entries and group entries as things to pay for (money.payables): what is due, how money received is credited
to them, what is still owed and why money is held; and the events themselves as money sees them (EVENTS).
Registered in EventsConfig.ready."""

from datetime import date
from decimal import Decimal

from django.db.models import Count, Q, Sum, Value
from django.db.models.functions import Coalesce
from django.urls import reverse
from django.utils import timezone

from clubsite.kit.money import format_money
from money.balances import MONEY, balance_sql, owing
from money.core.references import ENTRY as ENTRY_CODE
from money.core.references import GROUP as GROUP_CODE
from money.payables import Due, Events, HeldNote, Kind, Line, Owing, Reductions

from .models import OWING_STATUSES, Entry, EntryStatus, Event, EventStatus, GroupEntry, Payment
from .permissions import can_manage_event
from .services.common import lock_event
from .services.discounts import price_of
from .services.mine import own_entries
from .services.payments import (
    PAYABLE_STATUSES,
    credit_entry,
    debit_entry,
    entry_reference,
    group_reference,
    reinstate_entry,
)
from .services.places import hold_for_invoice, with_shown_status
from .services.status import sync_status

ZERO = Decimal("0")


def entry_pay_by(entry) -> date | None:
    """The last day (in the event's time zone) to pay for the entry before its unpaid place lapses."""
    if not entry.payment_due_at:
        return None
    return timezone.localtime(entry.payment_due_at, entry.event.zone).date()


def closes_on(event: Event) -> date | None:
    """The day registration closes, in the event's time zone: no fee or place is taken up after it."""
    closes = event.registration_closes_at
    return timezone.localtime(closes, event.zone).date() if closes else None


def in_person_at(event: Event) -> str:
    """Where an entrant pays in person: the event's venue and address (as seed 004's form asks, at the club)."""
    return ", ".join(part for part in (event.venue.strip(), event.address.strip()) if part)


def _entry_line(entry: Entry) -> Line:
    """The entry as a receipt lists it: its amount against the full standard fee, the note naming what took it
    below (a concession, a member's or early-bird fee, a discount code, a free place)."""
    price = price_of(entry)
    fee = entry.fee
    charged = entry.amount_due
    parts = []
    if fee is not None and fee.is_concession:
        parts.append(f"{fee.name} concession")
    elif fee is not None and price.fee_amount != price.full:
        parts.append(fee.variant_name)
    if price.free:
        parts.append(f"free place ({entry.free_place})")
    elif price.discount:
        parts.append(f"discount code {price.code} {format_money(price.discount)} off")
    if fee is not None and fee.note:
        parts.append(fee.note)
    return Line(
        description=f"{entry.player.full_name}: {entry.category.name}, {entry.event.title}",
        standard=price.full if fee is not None else charged,
        amount=charged,
        note=", ".join(parts),
        taxed=bool(fee and "gst" in fee.note.lower()),
        status=entry.get_status_display(),
        paid=entry.amount_paid,
        balance=entry.owed,
        owing=entry.status in OWING_STATUSES,
        discount=price.discount,
        discount_note=f"free place ({entry.free_place})"
        if price.free
        else (f"code {price.code}" if price.code else ""),
    )


def _may_view_entry(user, entry: Entry) -> bool:
    if not (user and user.is_authenticated):
        return False
    return (
        entry.player.user_id == user.id
        or entry.entered_by_id == user.id
        or (entry.group_id is not None and entry.group.submitted_by_id == user.id)
        or can_manage_event(user, entry.event)
    )


def _entries(**where):
    return (
        Entry.objects.select_related("event", "player", "category", "fee", "group", "guest", "discount_code")
        .prefetch_related("category__fees")
        .filter(**where)
    )


class EventMoney(Events):
    """The events as the money pages see them."""

    def choices(self, ids):
        return Event.objects.filter(pk__in=ids).order_by("-starts_on", "title")

    def find(self, key: str):
        """With its status as every page shows it (`shown_status`, `shown_label`: "Full" once no place is left)."""
        rows = Event.objects.select_related("association", "owner")
        event = rows.filter(slug=key).first()
        if event is None and key.isascii() and key.isdigit() and len(key) < 16:
            event = rows.filter(pk=int(key)).first()
        if event is not None:
            with_shown_status([event])
        return event

    def may_manage(self, user, event) -> bool:
        return can_manage_event(user, event)

    def managed_by(self, user) -> list[int]:
        """The events they own, by id (read first: a join to the events inside a condition on the payments
        reads every payment)."""
        if not (user and user.is_authenticated):
            return []
        return list(Event.objects.filter(owner=user).values_list("pk", flat=True))

    def is_cancelled(self, event) -> bool:
        return event.status == EventStatus.CANCELLED

    def manage_url(self, event) -> str:
        return reverse("events:manage", args=[event.slug])

    def reductions(self, event_id: int | None = None) -> list[Reductions]:
        """One grouped query over the entries holding places with a discount or a free place."""
        rows = Entry.objects.filter(status__in=OWING_STATUSES).filter(Q(discount__gt=0) | ~Q(free_place=""))
        if event_id:
            rows = rows.filter(event_id=event_id)
        found = (
            rows.values("event_id", "event__title", "event__slug")
            .annotate(
                discounted=Count("pk", filter=Q(discount__gt=0)),
                discount=Coalesce(Sum("discount"), Value(ZERO), output_field=MONEY),
                free_places=Count("pk", filter=~Q(free_place="")),
                free_value=Coalesce(Sum("fee__amount", filter=~Q(free_place="")), Value(ZERO), output_field=MONEY),
            )
            .order_by("event__title", "event_id")
        )
        return [
            Reductions(
                event_id=r["event_id"],
                title=r["event__title"],
                slug=r["event__slug"],
                discounted=r["discounted"],
                discount=r["discount"],
                free_places=r["free_places"],
                free_value=r["free_value"],
            )
            for r in found
        ]


EVENTS = EventMoney()


class EntryKind(Kind):
    code = ENTRY_CODE
    label = "Entry"
    events = EVENTS
    owing_title = "entries"

    def _get(self, target_id: int, lock: bool) -> Entry | None:
        if lock:
            event_id = Entry.objects.filter(pk=target_id).values_list("event_id", flat=True).first()
            if event_id is None:
                return None
            sync_status(lock_event(event_id))
            Entry.objects.select_for_update().filter(pk=target_id).first()
        return _entries(pk=target_id).first()

    def due(self, target_id: int, *, lock: bool = False) -> Due | None:
        entry = self._get(target_id, lock)
        if entry is None:
            return None
        event = entry.event
        email = entry.player.email or (entry.group.email if entry.group_id else "")
        if entry.guest_id:  # entered without an account: the guest pays and gets the receipt
            payer_name, email = entry.guest.contact_name, entry.guest.email
        else:
            payer_name = entry.group.contact_name if entry.group_id else entry.player.full_name
        return Due(
            kind=self.code,
            target_id=entry.pk,
            association_id=event.association_id,
            title=f"Entry: {entry.player.full_name}, {entry.category.name}, {event.title}",
            payer_name=payer_name,
            payer_email=entry.group.email if entry.group_id and entry.group.email else email,
            total=entry.amount_due,
            paid=entry.amount_paid,
            payable=entry.status in PAYABLE_STATUSES,
            why_not=f"This entry is {entry.get_status_display().lower()}: it holds no place to pay for.",
            url=event.get_absolute_url(),
            event_id=event.pk,
            pay_by=entry_pay_by(entry),
            closes_on=closes_on(event),
            methods=tuple(event.payment_methods or ()),
            payment_instructions_html=event.payment_instructions_html,
            in_person_at=in_person_at(event),
            lines=(_entry_line(entry),),
        )

    def apply(self, target_id, payment, amount, actor) -> None:
        credit_entry(actor, Entry.objects.select_related("event").get(pk=target_id), payment, amount)

    def unapply(self, target_id, payment, amount, actor) -> None:
        debit_entry(Entry.objects.get(pk=target_id), amount)

    def reinstate(self, target_id, actor) -> None:
        reinstate_entry(actor, Entry.objects.select_related("event", "category").get(pk=target_id))

    def hold_for_invoice(self, target_id, last_day) -> None:
        hold_for_invoice(Entry.objects.select_related("event").filter(pk=target_id), last_day)

    def may_view(self, user, target_id) -> bool:
        entry = _entries(pk=target_id).first()
        return entry is not None and _may_view_entry(user, entry)

    def may_manage(self, user, target_id) -> bool:
        entry = Entry.objects.select_related("event").filter(pk=target_id).first()
        return entry is not None and can_manage_event(user, entry.event)

    def owned_by(self, user):
        """Their own entries, those they made for others and those in the group entries they submitted."""
        return own_entries(user, entered_for_others=True).values("pk")

    def owing(self, event_id: int | None = None):
        """Entries with a place taken and something still to pay (Entry.owed), each with `balance_due`."""
        rows = (
            Entry.objects.filter(owing(), status__in=OWING_STATUSES)
            .select_related("event", "player", "category", "group")
            .annotate(balance_due=balance_sql())
        )
        if event_id:
            rows = rows.filter(event_id=event_id)
        return rows.order_by("event__starts_on", "event_id", "accepted_at", "pk")

    def owing_rows(self, rows) -> list[Owing]:
        return [
            Owing(
                kind=self.code,
                target_id=e.pk,
                name=e.player.full_name,
                what=e.category.name,
                charged=e.amount_due,
                paid=e.amount_paid,
                note=e.group.contact_name if e.group_id else "",
                status=e.status,
                status_label=e.get_status_display(),
                event_id=e.event_id,
                event_title=e.event.title,
                event_slug=e.event.slug,
                record_url=reverse("events:record_payment", args=[e.pk]),
            )
            for e in rows
        ]

    def held_notes(self, target_ids) -> dict[int, HeldNote]:
        notes = {}
        for entry in Entry.objects.filter(pk__in=target_ids):
            if entry.status == EntryStatus.LAPSED:
                notes[entry.pk] = HeldNote("The entry lapsed before this payment arrived.", True)
            elif entry.status == EntryStatus.WITHDRAWN:
                notes[entry.pk] = HeldNote(
                    "The entry was withdrawn: refund by the event's refund policy, or reinstate the entry while "
                    "its place is free.",
                    True,
                )
            elif entry.status in PAYABLE_STATUSES:
                notes[entry.pk] = HeldNote("Paid more than was due.", entry.balance > 0)
            else:
                notes[entry.pk] = HeldNote(f"The entry is {entry.get_status_display().lower()}.", False)
        return notes


class GroupKind(Kind):
    """One reference and one total for a whole group entry; a payment settles its entries in the order they
    were entered, each in full before the next gets anything."""

    code = GROUP_CODE
    label = "Group entry"
    events = EVENTS

    def due(self, target_id: int, *, lock: bool = False) -> Due | None:
        group = GroupEntry.objects.select_related("event").filter(pk=target_id).first()
        if group is None:
            return None
        if lock:
            sync_status(lock_event(group.event_id))
            list(Entry.objects.select_for_update().filter(group=group).values_list("pk", flat=True))
        entries = list(_entries(group=group).order_by("accepted_at", "pk"))
        # The group pays for the places its students have taken (an offer not yet accepted owes nothing yet).
        payable = [e for e in entries if e.status in OWING_STATUSES]
        students = f"{len(payable)} entr{'y' if len(payable) == 1 else 'ies'}"
        event = group.event
        deadlines = [e.payment_due_at for e in payable if e.payment_due_at and e.balance > 0]
        return Due(
            kind=self.code,
            target_id=group.pk,
            association_id=event.association_id,
            title=f"Group entry: {group.school or group.contact_name}, {students}, {event.title}",
            payer_name=group.contact_name,
            payer_email=group.email,
            billing_name=group.school,  # a school's purchase is billed to the school, at the address the form took
            billing_address=group.address,
            total=sum((e.amount_due for e in payable), ZERO),
            paid=sum((e.amount_paid for e in payable), ZERO),
            payable=any(e.balance > 0 for e in payable),
            why_not="None of the group's entries has anything left to pay.",
            url=event.get_absolute_url(),
            event_id=event.pk,
            pay_by=timezone.localtime(min(deadlines), event.zone).date() if deadlines else None,
            closes_on=closes_on(event),
            methods=tuple(event.payment_methods or ()),
            payment_instructions_html=event.payment_instructions_html,
            in_person_at=in_person_at(event),
            lines=tuple(_entry_line(e) for e in entries),
        )

    def apply(self, target_id, payment, amount, actor) -> None:
        left = amount
        for entry in (
            Entry.objects.select_related("event")
            .filter(group_id=target_id, status__in=OWING_STATUSES)
            .order_by("accepted_at", "pk")
        ):
            share = min(left, entry.balance)
            if share > 0:
                credit_entry(actor, entry, payment, share)
                left -= share
            if left <= 0:
                break

    def unapply(self, target_id, payment, amount, actor) -> None:
        """Takes back from the entries this payment paid, the last one paid first."""
        left = amount
        paid = (
            Payment.objects.filter(money_payment=payment)
            .values("entry")
            .annotate(total=Sum("amount"))
            .order_by("-entry__accepted_at", "-entry")
        )
        for row in paid:
            entry = Entry.objects.get(pk=row["entry"])
            # What an entry counts as paid bounds what is taken back from it: money of a withdrawn one is held
            # already (and refunded from the held part first).
            share = min(left, row["total"], entry.amount_paid)
            if share > 0:
                debit_entry(entry, share)
                left -= share
            if left <= 0:
                break

    def reinstate(self, target_id, actor) -> None:
        from .services.common import RegistrationError

        raise RegistrationError(
            "A group's entries are reinstated one by one from the entries page; refund the held money otherwise."
        )

    def hold_for_invoice(self, target_id, last_day) -> None:
        hold_for_invoice(Entry.objects.select_related("event").filter(group_id=target_id), last_day)

    def may_view(self, user, target_id) -> bool:
        group = GroupEntry.objects.select_related("event").filter(pk=target_id).first()
        if group is None or not (user and user.is_authenticated):
            return False
        return group.submitted_by_id == user.id or can_manage_event(user, group.event)

    def may_manage(self, user, target_id) -> bool:
        group = GroupEntry.objects.select_related("event").filter(pk=target_id).first()
        return group is not None and can_manage_event(user, group.event)

    def owned_by(self, user):
        return GroupEntry.objects.filter(submitted_by=user).values("pk")

    def held_notes(self, target_ids) -> dict[int, HeldNote]:
        """Money held on a group entry can be applied while any of its entries still owes something."""
        owing_ids = set(
            Entry.objects.filter(owing(), group_id__in=target_ids, status__in=OWING_STATUSES)
            .values_list("group_id", flat=True)
            .distinct()
        )
        return {
            target_id: HeldNote("Paid more than the group's entries owed.", target_id in owing_ids)
            for target_id in target_ids
        }


ENTRY, GROUP = EntryKind(), GroupKind()


__all__ = [
    "ENTRY",
    "EVENTS",
    "GROUP",
    "EntryKind",
    "EventMoney",
    "GroupKind",
    "EntryStatus",
    "entry_reference",
    "group_reference",
]
