"""Prices at every door: what an entry costs (events.pricing, read with the entrant's membership and a discount code),
the organiser's discount codes, and free places.

A discount code's uses are counted under the event's lock, which every entry takes before it is inserted: two
entrants racing for a code's last use are served one after the other, and the second is told it is used up. A use
comes back when its entry ends without playing (withdrawn, cancelled, lapsed, an offer expired): the code counts the
entries holding or waiting for a place (ACTIVE_ENTRY_STATUSES)."""

import re
from datetime import date, timedelta

from django.db import IntegrityError, transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.formats import date_format

from clubsite.kit.money import parse_amount
from clubsite.kit.status import move
from clubsite.kit.text import check_free_text
from players.models import Membership

from .. import pricing
from ..models import ACTIVE_ENTRY_STATUSES, Category, DiscountCode, DiscountKind, Entry, EntryStatus, Event
from .common import EventError, RegistrationError, lock_event, now, require_manager
from .payments import hold_overpayment, locked_entry

CODE_SHAPE = re.compile(r"[A-Z0-9][A-Z0-9_-]{0,39}")


def normalised_code(text) -> str:
    """A code as it is kept and compared: trimmed, upper-case."""
    return str(text or "").strip().upper()


def closing_day(event: Event) -> date:
    """The day membership is checked on: the event's closing date for entries (in its own time zone), else its first
    day."""
    if event.registration_closes_at:
        return timezone.localtime(event.registration_closes_at, event.zone).date()
    return event.starts_on


def entry_day(event: Event, moment) -> date:
    """The day an entry was made, in the event's time zone: the day an early-bird fee is checked against."""
    return timezone.localtime(moment, event.zone).date()


def is_member(event: Event, player) -> bool:
    """Whether the player's membership of the event's association is valid on the closing date."""
    if player is None or player.pk is None:
        return False
    day = closing_day(event)
    return Membership.objects.filter(player=player, association_id=event.association_id).current(day).exists()


def uses(code: DiscountCode) -> int:
    """How many entries use the code now (an ended entry gives its use back)."""
    return Entry.objects.filter(discount_code=code, status__in=ACTIVE_ENTRY_STATUSES).count()


def event_code(event: Event, text, day: date) -> DiscountCode | None:
    """The discount code `text` names, checked for what holds for every entrant alike: its shape, this event and
    this day (a code wrong here is one refusal of the code, however many entries it was given for). None when no
    code was given."""
    code = normalised_code(text)
    if not code:
        return None
    if len(code) > 40 or not CODE_SHAPE.fullmatch(code):
        raise RegistrationError(
            "A discount code has letters, digits and dashes only (at most 40); check the code you were given.",
            field="discount_code",
        )
    found = DiscountCode.objects.filter(event=event, code=code).select_related("category").first()
    if found is None:
        if DiscountCode.objects.filter(code=code).exclude(event=event).exists():
            raise RegistrationError(f"The code {code} is for another event.", field="discount_code")
        raise RegistrationError(f"There is no discount code {code} for this event.", field="discount_code")
    if found.expires_on is not None and day > found.expires_on:
        raise RegistrationError(
            f"The code {code} expired on {date_format(found.expires_on, 'j M Y')}.", field="discount_code"
        )
    return found


def usable_code(event: Event, category: Category, text, day: date, *, taking: int = 1) -> DiscountCode | None:
    """The discount code `text` names, checked for this event, this category, this day and its uses left (`taking`:
    how many entries take a use now). The caller holds the event's lock. None when no code was given."""
    found = event_code(event, text, day)
    if found is None:
        return None
    code = found.code
    if found.category_id is not None and found.category_id != category.pk:
        raise RegistrationError(
            f"The code {code} is for the {found.category.name} category only.", field="discount_code"
        )
    if found.max_uses is not None:
        left = found.max_uses - uses(found)
        if left < taking:
            message = (
                f"The code {code} has been used up."
                if left <= 0
                else f"The code {code} has {left} use{'s' if left != 1 else ''} left, for {taking} entries."
            )
            raise RegistrationError(message, field="discount_code")
    return found


def fee_list(category: Category) -> list:
    """The category's fees in their order, read once per category object (none read for a category known to have no
    fee: `has_fees`)."""
    if not hasattr(category, "fee_list"):
        if getattr(category, "has_fees", True) is False:
            category.fee_list = []
        else:
            category.fee_list = list(category.fees.order_by("position", "amount", "pk"))
    return category.fee_list


def price_entry(
    event: Event, category: Category, fee, player, *, day: date, code: DiscountCode | None = None, free: bool = False
) -> pricing.Price:
    """What the entry costs, by the one pricing rule (events.pricing), with the category's fees, the day the entry is
    made, the entrant's membership on the closing date, a checked discount code and a free place."""
    rows = [f.as_row() for f in fee_list(category)]
    chosen = fee.as_row() if fee is not None else None
    member = is_member(event, player) if any(r.audience for r in rows) else False
    try:
        return pricing.price(
            rows,
            chosen,
            day=day,
            member=member,
            discount=code.as_discount() if code is not None else None,
            free=free,
            closing=closing_day(event),
        )
    except pricing.PricingError as refusal:
        raise RegistrationError(refusal.message, field=refusal.field) from None


def apply_price(entry: Entry, price: pricing.Price, code: DiscountCode | None) -> None:
    """Sets the entry's fee, discount and amount due from `price` (not saved)."""
    if price.fee is not None and (entry.fee is None or entry.fee.pk != price.fee.id):
        entry.fee = next(f for f in fee_list(entry.category) if f.pk == price.fee.id)
    entry.discount_code = code if price.code else None
    entry.discount = price.discount
    entry.amount_due = price.amount


def price_of(entry: Entry) -> pricing.Price:
    """How an entry's amount due came about, for its page and its receipt (no query beyond the category's fees)."""
    fee = entry.fee
    full = pricing.full_fee([f.as_row() for f in entry.category.fees.all()], fee.as_row() if fee else None)
    fee_amount = fee.amount if fee is not None else pricing.ZERO
    code = entry.discount_code.code if entry.discount_code_id else ""
    row = fee.as_row() if fee is not None else None
    amount = entry.amount_due
    return pricing.Price(row, full, fee_amount, entry.discount, amount, code=code, free=bool(entry.free_place))


# ---------------------------------------------------------------------------------------------------------
# The organiser's codes


CODE_FIELDS = ("code", "category", "kind", "value", "max_uses", "expires_on", "note")


def codes_with_uses(event: Event):
    """The event's codes, each with `used` (entries using it now), in one query."""
    return (
        DiscountCode.objects.filter(event=event)
        .select_related("category")
        .annotate(used=Count("entries", filter=Q(entries__status__in=ACTIVE_ENTRY_STATUSES)))
        .order_by("code", "pk")
    )


def save_discount_code(actor, event: Event, data: dict, code: DiscountCode | None = None) -> DiscountCode:
    """The organiser adds a discount code to the event (or changes one). A code's text must be unique in the event; a
    percentage is at most 100; the uses can be lowered no further than the entries already using it."""
    with transaction.atomic():
        event = lock_event(event.pk)
        require_manager(actor, event, "manage discount codes")
        if code is not None:
            code = DiscountCode.objects.select_for_update().filter(pk=code.pk, event=event).first()
            if code is None:
                raise EventError("That discount code belongs to another event.")
        code = code or DiscountCode(event=event, created_by=actor if getattr(actor, "pk", None) else None)
        text = normalised_code(data.get("code", code.code))
        if not text:
            raise EventError("Enter the code entrants will type, for example SCHOOLS-2027.", field="code")
        if len(text) > 40 or not CODE_SHAPE.fullmatch(text):
            raise EventError(
                "A code has letters, digits, dashes and underscores only, at most 40, starting with a letter or digit.",
                field="code",
            )
        code.code = text
        category = data.get("category", code.category)
        if category is not None and not isinstance(category, Category):
            category = Category.objects.filter(pk=category).first() if str(category).isdigit() else None
            if category is None:
                raise EventError("Choose one of the event's categories, or none for all.", field="category")
        if category is not None and category.event_id != event.pk:
            raise EventError("That category is not part of this event.", field="category")
        code.category = category
        kind = data.get("kind", code.kind) or DiscountKind.AMOUNT
        if kind not in DiscountKind.values:
            raise EventError("Choose an amount off or a percentage off.", field="kind")
        code.kind = kind
        what = "percentage" if kind == DiscountKind.PERCENT else "amount off"
        value = parse_amount(data.get("value", code.value), field="value", what=what, max_digits=8, error=EventError)
        if kind == DiscountKind.PERCENT and value > 100:
            raise EventError("A percentage off is at most 100.", field="value")
        code.value = value
        max_uses = data.get("max_uses", code.max_uses)
        if max_uses in ("", None):
            code.max_uses = None
        else:
            try:
                code.max_uses = int(str(max_uses).strip())
            except ValueError:
                raise EventError("Enter the number of uses as a whole number, or leave it empty.", field="max_uses")
            if not 1 <= code.max_uses <= 100_000:
                raise EventError("The number of uses is from 1 to 100000 (empty: no limit).", field="max_uses")
            if code.pk and code.max_uses < uses(code):
                raise EventError(
                    f"{uses(code)} entries use this code already: its uses cannot be fewer.", field="max_uses"
                )
        last_day = data.get("expires_on", code.expires_on) or None
        today = entry_day(event, now())
        # A code that has already ended is a typo in its year, unless it ended before (kept on its entries'
        # receipts) and is saved again unchanged; stopping a code from today on is "last day: yesterday".
        if isinstance(last_day, date) and last_day < today - timedelta(days=1) and last_day != code.expires_on:
            raise EventError(
                f"The last day {date_format(last_day, 'j M Y')} has passed: entrants could never use the code. "
                f"Give a day from {date_format(today, 'j M Y')} on, or yesterday to stop it now.",
                field="expires_on",
            )
        code.expires_on = last_day
        code.note = check_free_text(data.get("note", code.note) or "", "note", 200, EventError, field="note")
        try:
            code.full_clean(exclude=["event", "created_by"], validate_unique=False, validate_constraints=False)
        except Exception as error:  # a model field's own limit (a date out of range)
            messages = getattr(error, "message_dict", {})
            field, found = next(iter(messages.items()), ("code", [str(error)]))
            raise EventError(f"{found[0]}", field=field) from None
        if DiscountCode.objects.filter(event=event, code=text).exclude(pk=code.pk).exists():
            raise EventError(f"The event has a code {text} already.", field="code")
        try:
            with transaction.atomic():
                code.save()
        except IntegrityError:
            raise EventError(f"The event has a code {text} already.", field="code") from None
    return code


def delete_discount_code(actor, code: DiscountCode) -> None:
    """The organiser removes a code no entry has used (one that was used stays, on those entries' receipts: set its
    uses to stop it instead)."""
    with transaction.atomic():
        event = lock_event(code.event_id)
        require_manager(actor, event, "manage discount codes")
        if Entry.objects.filter(discount_code=code).exists():
            raise EventError(
                f"Entries used the code {code.code}: it stays on their receipts. Give it an end date to stop it."
            )
        DiscountCode.objects.filter(pk=code.pk).delete()


# ---------------------------------------------------------------------------------------------------------
# Free places


def give_free_place(actor, entry: Entry, reason: str) -> Entry:
    """The organiser gives the entry a free place (a helper, a volunteer): nothing is due, a pending place is
    confirmed, and what it had paid is held for the organiser to refund or keep."""
    reason = check_free_text(reason, "reason for the free place", 100, RegistrationError, field="reason")
    if not reason:
        raise RegistrationError("Say why the place is free, for example: helper.", field="reason")
    with transaction.atomic():
        event, entry = locked_entry(actor, entry, "give free places")
        if not entry.is_active:
            raise RegistrationError(f"This entry is {entry.get_status_display().lower()}: it holds no place.")
        entry.free_place = reason
        entry.discount = pricing.ZERO
        entry.discount_code = None
        entry.amount_due = pricing.ZERO
        hold_overpayment(actor, entry, f"{entry.player.full_name}: free place")
        fields = ["free_place", "discount", "discount_code", "amount_due", "amount_paid"]
        if entry.status == EntryStatus.PENDING_PAYMENT:
            move(entry, EntryStatus.CONFIRMED)
            entry.confirmed_at = now()
            fields += ["status", "confirmed_at"]
        entry.save(update_fields=fields)
    return entry


def end_free_place(actor, entry: Entry) -> Entry:
    """The organiser takes a free place back: the entry is charged its fee again (by the pricing rule, as on the day it
    was made, without a discount code) and a confirmed place stays confirmed, owing it."""
    with transaction.atomic():
        event, entry = locked_entry(actor, entry, "change free places")
        if not entry.free_place:
            raise RegistrationError("This entry has no free place.")
        if not entry.is_active:
            raise RegistrationError(f"This entry is {entry.get_status_display().lower()}.")
        price = price_entry(event, entry.category, entry.fee, entry.player, day=entry_day(event, entry.accepted_at))
        entry.free_place = ""
        apply_price(entry, price, None)
        entry.save(update_fields=["free_place", "discount", "discount_code", "amount_due", "fee"])
    return entry
