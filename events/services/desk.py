"""The desk list: the entrants of each category as the registration desk ticks them off on the day, with what each
has paid and still owes. Read in two queries however many entrants there are."""

from dataclasses import dataclass, field
from decimal import Decimal

from clubsite.kit.money import format_money
from players.models import by_family_name

from ..models import OWING_STATUSES, Category, Entry, EntryStatus, Event
from .common import require_manager

# Who is expected at the desk: those who took a place (paid or not), then those waiting for one (an offer not yet
# accepted among them: it owes nothing until accepted). Cancelled, withdrawn, lapsed and other ended entries are not
# coming and are left out.
LISTED_STATUSES = (*OWING_STATUSES, EntryStatus.OFFERED, EntryStatus.WAITLISTED)

# How the desk reads each status: a confirmed place needs no word; the others do.
DESK_STATUS = {
    EntryStatus.CONFIRMED: "Confirmed",
    EntryStatus.PENDING_PAYMENT: "Unpaid: place held",
    EntryStatus.OFFERED: "Offered a place",
    EntryStatus.WAITLISTED: "Waiting list",
}


@dataclass
class DeskRow:
    entry: Entry
    name: str
    member_number: int
    school: str
    fee_name: str
    fee: Decimal | None  # None: no place taken, nothing charged yet
    price_note: str  # how the fee came to be less than the fee's amount: a free place, a discount code
    paid: Decimal
    balance: Decimal
    status: str


@dataclass
class DeskCategory:
    category: Category
    rows: list[DeskRow] = field(default_factory=list)  # places taken, by family name
    waiting: list[DeskRow] = field(default_factory=list)  # waiting or offered, first come first served

    @property
    def fee_total(self) -> Decimal:
        return sum((row.fee or Decimal("0") for row in self.rows), Decimal("0"))

    @property
    def paid_total(self) -> Decimal:
        return sum((row.paid for row in self.rows), Decimal("0"))

    @property
    def balance_total(self) -> Decimal:
        return sum((row.balance for row in self.rows), Decimal("0"))

    @property
    def count(self) -> int:
        return len(self.rows)


def _school(entry: Entry) -> str:
    """The school given on the entry, else the player's school, the group's school or the player's club."""
    player = entry.player
    group_school = entry.group.school if entry.group_id else ""
    return entry.school or player.school or group_school or (player.club.name if player.club_id else "")


def _price_note(entry: Entry) -> str:
    """A free place and its reason, or the discount code used and what it took off: the desk then knows why a fee
    reads less than the category's."""
    if entry.free_place:
        return f"Free place: {entry.free_place}"
    if entry.discount:
        code = entry.discount_code.code if entry.discount_code_id else "a discount code"
        return f"{code}: less {format_money(entry.discount)}"
    return ""


def _row(entry: Entry) -> DeskRow:
    holds = entry.status in OWING_STATUSES
    return DeskRow(
        entry=entry,
        name=entry.player.full_name,
        member_number=entry.player.member_number,
        school=_school(entry),
        fee_name=entry.fee.name if entry.fee_id else "",
        fee=entry.amount_due if holds else None,
        price_note=_price_note(entry) if holds else "",
        paid=entry.amount_paid,
        balance=entry.owed,
        status=DESK_STATUS[entry.status],
    )


def desk_list(actor, event: Event) -> list[DeskCategory]:
    """Each category of `event` with its entrants: those who took a place in family-name order (the desk finds a
    name), then the waiting list in its order; each with fee, paid and balance, the totals over the places taken.
    For the event's organisers and staff (it lists names, schools and money)."""
    require_manager(actor, event, "see its desk list")
    listed = {category.pk: DeskCategory(category) for category in event.categories.order_by("position", "pk")}
    entries = (
        Entry.objects.filter(event=event, status__in=LISTED_STATUSES)
        .select_related("player", "player__club", "fee", "group", "discount_code")
        .order_by(*by_family_name("player__"))
    )
    waiting = []
    for entry in entries:
        if entry.status in OWING_STATUSES:
            listed[entry.category_id].rows.append(_row(entry))
        else:
            waiting.append(entry)
    for entry in sorted(waiting, key=lambda e: (e.accepted_at, e.pk)):
        listed[entry.category_id].waiting.append(_row(entry))
    return list(listed.values())
