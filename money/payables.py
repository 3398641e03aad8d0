"""What can be paid for. Each app that charges money (events: entries and group entries; players: membership
renewals) registers a kind here in its AppConfig.ready; money's services reach what a reference names only
through these, so money depends on no other app and every way to pay goes through the same door."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

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
    lines: tuple[Line, ...] = field(default_factory=tuple)

    @property
    def reference(self) -> str:
        return make_reference(self.kind, self.target_id)

    @property
    def balance(self) -> Decimal:
        return max(self.total - self.paid, Decimal("0"))

    @property
    def owed(self) -> Decimal:
        """What the payer is asked for: the balance while it can be paid, else nothing (a withdrawn entry owes
        nothing; money arriving on it is held)."""
        return self.balance if self.payable else Decimal("0")


class Kind:
    """A kind of thing to pay for. Subclasses implement every method; `lock` and `apply` run inside the
    caller's transaction."""

    code = ""  # one letter of the reference: E, G, M
    label = ""

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


KINDS: dict[str, Kind] = {}


def register(kind: Kind) -> None:
    KINDS[kind.code] = kind


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
