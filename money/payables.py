"""What can be paid for. Each app that charges money (events: entries and group entries; players: membership
renewals) registers a kind here in its AppConfig.ready; money reaches what a reference names only through these,
so money depends on no other app and every way to pay goes through the same door.

A kind says everything money needs of its things: its reference, what is due and how money received is credited
to it, who pays for it and who manages it, what is still owed (the organiser's and the treasurer's lists) and why
money paid for it is held. The kinds whose things belong to events also carry `events`: what money needs of the
events themselves (the treasurer's filter, one event's money page, which events' money a person manages)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal

from money.balances import balance
from money.core.references import make_reference, parse_reference


@dataclass(frozen=True)
class Line:
    """One thing charged, as a receipt lists it."""

    description: str
    standard: Decimal  # the standard fee
    amount: Decimal  # what is charged (less than standard: a concession)
    note: str = ""  # the concession's name, "incl. GST", …
    taxed: bool = False  # the amount includes GST
    status: str = ""  # for a group: where this student's entry stands
    paid: Decimal = Decimal("0")
    balance: Decimal = Decimal("0")
    owing: bool = True  # its fee is owed (a place taken): a quotation or invoice lists it
    discount: Decimal = Decimal("0")  # of the reduction below the standard fee, what a discount code took off
    discount_note: str = ""  # the code, or a free place and why


@dataclass(frozen=True)
class Reductions:
    """What an event's entries were let off, as the treasurer's report lists it: discount codes and free places."""

    event_id: int
    title: str
    slug: str
    discounted: int  # entries with a discount code
    discount: Decimal  # what the codes took off
    free_places: int
    free_value: Decimal  # the fees the free places would have cost


@dataclass(frozen=True)
class Due:
    """An amount due, as the payer and the organiser see it."""

    kind: str
    target_id: int
    association_id: int
    title: str  # "Entry: Open category, Burst Open 2026"
    payer_name: str
    payer_email: str
    total: Decimal  # charged in all
    paid: Decimal  # applied so far
    payable: bool  # False: a payment arriving now is held (the entry lapsed, the renewal was cancelled)
    why_not: str = ""  # why it is not payable, in words for the organiser
    url: str = ""  # the page of what is paid for
    event_id: int | None = None  # for the treasurer's page: which event
    pay_by: date | None = None  # the last day to pay before the place lapses (none: no such day)
    methods: tuple[str, ...] = ()  # the ways of paying it accepts (money.models.Method); empty: every way
    payment_instructions_html: str = ""  # how its organiser asks to be paid (payee, where, when), as the page shows it
    in_person_at: str = ""  # where it is paid in person (the venue and its address); empty: not said
    billing_name: str = ""  # whom its quotation or invoice is addressed to at first (a school); "": the payer
    billing_address: str = ""  # and where
    closes_on: date | None = None  # the last day its fees and places can be taken up (registration closes)
    lines: tuple[Line, ...] = field(default_factory=tuple)

    @property
    def reference(self) -> str:
        return make_reference(self.kind, self.target_id)

    @property
    def balance(self) -> Decimal:
        return balance(self.total, self.paid)

    @property
    def owed(self) -> Decimal:
        """What the payer is asked for: the balance while it can be paid, else nothing (a withdrawn entry owes
        nothing; money arriving on it is held)."""
        return self.balance if self.payable else Decimal("0")


@dataclass(frozen=True)
class Owing:
    """One thing with something still to pay, as the organiser's and the treasurer's pages list it."""

    kind: str
    target_id: int
    name: str  # whose it is: the player, the member
    what: str  # the category, the membership
    charged: Decimal
    paid: Decimal
    note: str = ""  # beside the name: a group's contact, a member number
    status: str = ""
    status_label: str = ""
    asked_at: datetime | None = None  # when it was asked for (a renewal)
    event_id: int | None = None
    event_title: str = ""
    event_slug: str = ""
    record_url: str = ""  # where its manager records a payment by hand (none: not by hand)

    @property
    def reference(self) -> str:
        return make_reference(self.kind, self.target_id)

    @property
    def balance(self) -> Decimal:
        return balance(self.charged, self.paid)


@dataclass(frozen=True)
class HeldNote:
    """Why money paid for something is held, and whether reinstating it could apply the money after all."""

    why: str
    can_reinstate: bool


GONE = HeldNote("What it paid for is gone.", False)


class Events:
    """What money needs of the events payments belong to. The kinds whose things belong to events carry one
    (Kind.events); money finds it with `events()`."""

    def choices(self, ids):
        """The events among `ids` (a values("event_id") queryset), newest first, as a queryset for a choice field."""
        raise NotImplementedError

    def find(self, key: str):
        """The event with this slug, or this number; None when there is none."""
        raise NotImplementedError

    def may_manage(self, user, event) -> bool:
        """Whether `user` manages the event, and so its money."""
        raise NotImplementedError

    def managed_by(self, user) -> list[int]:
        """The ids of the events whose money `user` manages (association staff manage every event's)."""
        raise NotImplementedError

    def is_cancelled(self, event) -> bool:
        raise NotImplementedError

    def manage_url(self, event) -> str:
        """The organiser's page of the event."""
        raise NotImplementedError

    def reductions(self, event_id: int | None = None) -> list[Reductions]:
        """Discounts and free places given on the events' entries that hold places (one event's, with event_id)."""
        return []


class NoEvents(Events):
    """No kind belongs to events: there are none to filter by, find or manage."""

    def choices(self, ids):
        return ids.none()

    def find(self, key: str):
        return None

    def may_manage(self, user, event) -> bool:
        return False

    def managed_by(self, user) -> list[int]:
        return []

    def is_cancelled(self, event) -> bool:
        return False

    def manage_url(self, event) -> str:
        return ""


class Kind:
    """A kind of thing to pay for. Subclasses implement every method that raises NotImplementedError; `lock`
    and `apply` run inside the caller's transaction."""

    code = ""  # its letter in references: money.core.references.ENTRY, GROUP, RENEWAL
    label = ""
    events: Events | None = None  # its things belong to events (entries); None: to the association alone
    owing_title = ""  # the heading of its list of what is still owed ("entries"); empty: it lists none

    def reference(self, target_id: int) -> str:
        """What the payer quotes for thing `target_id` of this kind."""
        return make_reference(self.code, target_id)

    def due(self, target_id: int, *, lock: bool = False) -> Due | None:
        """The amount due (None: no such thing). With lock, its rows stay locked until the transaction ends."""
        raise NotImplementedError

    def apply(self, target_id: int, payment, amount: Decimal, actor) -> None:
        """Credit `amount` of `payment` to it (never more than its balance); a fully paid place is confirmed."""
        raise NotImplementedError

    def unapply(self, target_id: int, payment, amount: Decimal, actor) -> None:
        """Take back `amount` credited by `payment` (a refund): what was paid and what is charged both fall."""
        raise NotImplementedError

    def reinstate(self, target_id: int, actor) -> None:
        """Make a lapsed one payable again (or raise a ServiceError saying why it cannot be)."""
        raise NotImplementedError

    def hold_for_invoice(self, target_id: int, last_day: date) -> None:
        """An invoice is issued for it, to be paid by `last_day`: hold what lapses unpaid until then (never for
        less than it already is). Runs in the caller's transaction, under the lock `due(lock=True)` took. Nothing
        by default: a thing that does not lapse."""

    def may_view(self, user, target_id: int) -> bool:
        raise NotImplementedError

    def owned_by(self, user):
        """The ids (a values("pk") queryset) of this kind's things that are the user's own: what they pay for."""
        raise NotImplementedError

    def may_manage(self, user, target_id: int) -> bool:
        raise NotImplementedError

    def may_see(self, user, target_id: int) -> bool:
        """Who sees what is due and what was paid for it (its page, receipts, the API): its payer and managers."""
        return self.may_view(user, target_id) or self.may_manage(user, target_id)

    def owing(self, event_id: int | None = None):
        """Its things with something still to pay (of one event, when given), in the order the pages list them,
        as a queryset a page reads a slice of; None when it lists none of its own (a group's entries are listed
        as entries)."""
        return None

    def owing_rows(self, rows: list) -> list[Owing]:
        """A page of `owing()` as the pages show it (no query per row)."""
        raise NotImplementedError

    def report_group(self, target: str):
        """The heading the treasurer's report counts money for things of this kind under when it belongs to no
        event ("Club nights: Toa Payoh Scrabble Club"), as a database expression of the thing's id at the field
        named `target`; None: under no event, with membership and other fees."""
        return None

    def held_notes(self, target_ids: set[int]) -> dict[int, HeldNote]:
        """For each of these things money paid for is held on: why, and whether reinstating could apply it (one
        query, whatever the number). A thing that is gone is left out."""
        raise NotImplementedError


KINDS: dict[str, Kind] = {}


def register(kind: Kind) -> None:
    KINDS[kind.code] = kind


def events() -> Events:
    """What money needs of events, from the kinds that belong to them (NoEvents when none does)."""
    for kind in KINDS.values():
        if kind.events is not None:
            return kind.events
    return NoEvents()


def resolve(reference: str) -> tuple[Kind, int] | None:
    """The kind and id a reference names, when its check character is right and its kind is known."""
    parsed = parse_reference(reference or "")
    if parsed is None or parsed[0] not in KINDS:
        return None
    return KINDS[parsed[0]], parsed[1]


def due_for(reference: str, *, lock: bool = False) -> tuple[Kind, Due] | None:
    found = resolve(reference)
    if found is None:
        return None
    kind, target_id = found
    due = kind.due(target_id, lock=lock)
    return (kind, due) if due is not None else None
