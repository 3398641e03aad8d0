"""Entries: one player's entry (alone or in a group entry), its status clock and its payments."""

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from money.balances import balance

from .discounts import DiscountCode
from .event import Category, Event, Fee, PaymentMethod

__all__ = [
    "GroupEntry",
    "EntryStatus",
    "Entry",
    "Payment",
    "PlayUpRequest",
    "ACTIVE_ENTRY_STATUSES",
    "PLACE_HOLDING_STATUSES",
    "PAYABLE_STATUSES",
    "OWING_STATUSES",
]


class GroupEntry(models.Model):
    """A teacher, parent or guardian entering several students; each student is an Entry of its own."""

    class Role(models.TextChoices):
        TEACHER = "teacher", "Teacher-in-charge"
        PARENT = "parent", "Parent"
        GUARDIAN = "guardian", "Guardian"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="group_entries")
    submitted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="group_entries")
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.TEACHER)
    contact_name = models.CharField(max_length=200)
    school = models.CharField(max_length=200, blank=True)
    address = models.CharField(max_length=300)
    phone = models.CharField(max_length=30)
    email = models.EmailField()
    rules_accepted_at = models.DateTimeField(null=True, blank=True)
    rules_version = models.ForeignKey(
        "rulebooks.RuleBookVersion",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="rule book version agreed to",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = "group entries"

    def __str__(self):
        return f"{self.contact_name} ({self.school or self.get_role_display()})"


class EntryStatus(models.TextChoices):
    PENDING_PAYMENT = "pending_payment", "Pending payment"
    CONFIRMED = "confirmed", "Confirmed"
    WAITLISTED = "waitlisted", "On the waiting list"
    OFFERED = "offered", "Place offered"
    EXPIRED = "expired", "Offer expired"
    LAPSED = "lapsed", "Lapsed (unpaid)"
    CANCELLED = "cancelled", "Cancelled"
    WITHDRAWN = "withdrawn", "Withdrawn"
    NOT_ADMITTED = "not_admitted", "Not admitted (event over)"


# Statuses in which a player is "in" the event (at most one entry per player per event).
ACTIVE_ENTRY_STATUSES = (
    EntryStatus.PENDING_PAYMENT,
    EntryStatus.CONFIRMED,
    EntryStatus.WAITLISTED,
    EntryStatus.OFFERED,
)
# Statuses that take one of the places (an offer holds its place while it runs).
PLACE_HOLDING_STATUSES = (EntryStatus.PENDING_PAYMENT, EntryStatus.CONFIRMED, EntryStatus.OFFERED)
# Statuses that pay: an entry pays for the place it holds (one withdrawn, cancelled, lapsed or waiting owes nothing).
PAYABLE_STATUSES = PLACE_HOLDING_STATUSES
# Statuses that owe their fee: a place taken. An offer from the waiting list not yet accepted owes nothing (its email
# says the fee is due after accepting); money paid on it is still taken (PAYABLE_STATUSES) and takes the place.
OWING_STATUSES = (EntryStatus.PENDING_PAYMENT, EntryStatus.CONFIRMED)


class Entry(models.Model):
    """One player's entry. Ordered first come, first served by `accepted_at`."""

    TRANSITIONS = {
        EntryStatus.PENDING_PAYMENT: {
            EntryStatus.CONFIRMED,
            EntryStatus.LAPSED,
            EntryStatus.CANCELLED,
            EntryStatus.WITHDRAWN,
        },
        EntryStatus.CONFIRMED: {EntryStatus.CANCELLED, EntryStatus.WITHDRAWN},
        # A completed event closes its waiting list: those still waiting, or offered a place they did not take, were
        # not admitted (events.services.lifecycle.settle_entries).
        EntryStatus.WAITLISTED: {
            EntryStatus.OFFERED,
            EntryStatus.CANCELLED,
            EntryStatus.WITHDRAWN,
            EntryStatus.NOT_ADMITTED,
        },
        EntryStatus.OFFERED: {
            EntryStatus.PENDING_PAYMENT,
            EntryStatus.CONFIRMED,
            EntryStatus.EXPIRED,
            EntryStatus.CANCELLED,
            EntryStatus.WITHDRAWN,
            EntryStatus.NOT_ADMITTED,
        },
        EntryStatus.EXPIRED: set(),
        # Money that arrives after the place lapsed can buy it back (money.services.reinstate).
        EntryStatus.LAPSED: {EntryStatus.PENDING_PAYMENT},
        EntryStatus.CANCELLED: set(),
        EntryStatus.NOT_ADMITTED: set(),
        # The organiser undoes a withdrawal while its place is still free (events.services.reinstate_withdrawal).
        EntryStatus.WITHDRAWN: {EntryStatus.PENDING_PAYMENT},
    }

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    category = models.ForeignKey(Category, on_delete=models.PROTECT, related_name="entries")
    player = models.ForeignKey("players.Player", on_delete=models.PROTECT, related_name="entries")
    group = models.ForeignKey(GroupEntry, null=True, blank=True, on_delete=models.SET_NULL, related_name="entries")
    # Entered without an account: the guest's email confirmed it and manages it (events.models.guests).
    guest = models.ForeignKey(
        "events.GuestEntry", null=True, blank=True, on_delete=models.SET_NULL, related_name="entries"
    )
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    status = models.CharField(max_length=20, choices=EntryStatus.choices)
    accepted_at = models.DateTimeField(help_text="When the entry was accepted: first come, first served")
    fee = models.ForeignKey(Fee, null=True, blank=True, on_delete=models.PROTECT, related_name="entries")
    amount_due = models.DecimalField(max_digits=8, decimal_places=2, default=Decimal("0"))
    amount_paid = models.DecimalField(max_digits=8, decimal_places=2, default=Decimal("0"))
    # How amount_due came about (events.pricing): the discount code used and what it took off the fee, or a free
    # place the organiser gave (its reason: helper, volunteer).
    discount_code = models.ForeignKey(
        DiscountCode, null=True, blank=True, on_delete=models.PROTECT, related_name="entries"
    )
    discount = models.DecimalField(max_digits=8, decimal_places=2, default=Decimal("0"))
    free_place = models.CharField(
        max_length=100, blank=True, help_text="A free place given by the organiser: why (helper, volunteer)"
    )
    concession_proof = models.CharField(max_length=100, blank=True)
    rules_accepted_at = models.DateTimeField(null=True, blank=True)
    rules_version = models.ForeignKey(
        "rulebooks.RuleBookVersion",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="rule book version agreed to",
    )
    school = models.CharField(max_length=200, blank=True, help_text="As given on the entry")
    phone = models.CharField(max_length=30, blank=True)
    # Whoever entered someone else says whether a parent or guardian agreed to list an under-18's name on the
    # event's public list of entrants (players.visibility.entrant_name reads it).
    name_listed_on = models.DateField(
        "parent or guardian agreed to list the name publicly on",
        null=True,
        blank=True,
        help_text="For an entrant under 18 entered by someone else: the public list of entrants shows the name "
        "only with this agreement (otherwise initials and school).",
    )
    payment_due_at = models.DateTimeField(null=True, blank=True)
    offered_at = models.DateTimeField(null=True, blank=True)
    offer_expires_at = models.DateTimeField(null=True, blank=True)
    offer_reminded_at = models.DateTimeField(null=True, blank=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    division = models.ForeignKey(
        "play.Division", null=True, blank=True, on_delete=models.SET_NULL, related_name="entries"
    )

    class Meta:
        ordering = ["event", "accepted_at", "pk"]
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(
                fields=["event", "player"],
                condition=Q(status__in=ACTIVE_ENTRY_STATUSES),
                name="entry_one_active_per_player_per_event",
            ),
            models.CheckConstraint(condition=Q(amount_due__gte=0), name="entry_amount_due_not_negative"),
            models.CheckConstraint(condition=Q(amount_paid__gte=0), name="entry_amount_paid_not_negative"),
            models.CheckConstraint(condition=Q(discount__gte=0), name="entry_discount_not_negative"),
        ]
        indexes = [
            models.Index(fields=["event", "status", "accepted_at"]),
            models.Index(fields=["status", "payment_due_at"]),
            models.Index(fields=["status", "offer_expires_at"]),
            # What is still owed (the treasurer's and an event's money pages) is a few entries among a
            # history of paid ones: found here instead of reading every entry.
            models.Index(
                fields=["event", "accepted_at"], condition=Q(amount_due__gt=F("amount_paid")), name="entry_owing"
            ),
        ]

    def __str__(self):
        return f"{self.player} in {self.category} ({self.get_status_display()})"

    @property
    def balance(self) -> Decimal:
        """What is left to pay (money.balances.balance)."""
        return balance(self.amount_due, self.amount_paid)

    @property
    def owed(self) -> Decimal:
        """What the entrant still has to pay: the balance of a place taken (`OWING_STATUSES`), else nothing (waiting,
        offered and not yet accepted, or ended)."""
        return self.balance if self.status in OWING_STATUSES else Decimal("0")

    @property
    def is_active(self) -> bool:
        return self.status in ACTIVE_ENTRY_STATUSES

    @property
    def holds_place(self) -> bool:
        return self.status in PLACE_HOLDING_STATUSES


class Payment(models.Model):
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="payments")
    amount = models.DecimalField(max_digits=8, decimal_places=2)
    method = models.CharField(max_length=20, choices=PaymentMethod.choices)
    reference = models.CharField(max_length=100, blank=True, help_text="For example the cheque number")
    note = models.CharField(max_length=200, blank=True)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    recorded_at = models.DateTimeField()
    money_payment = models.ForeignKey(
        "money.Payment",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="entry_payments",
        help_text="The money received (with its receipt) this part of came from; none for a waived fee",
    )

    class Meta:
        ordering = ["-recorded_at"]
        constraints = [models.CheckConstraint(condition=Q(amount__gt=0), name="payment_positive")]

    def __str__(self):
        return f"{settings.CURRENCY} {self.amount} {self.get_method_display()} for {self.entry_id}"


class PlayUpRequest(models.Model):
    """An entrant asking to play in a stronger division than their rating gives (never a weaker one)."""

    entry = models.OneToOneField("events.Entry", on_delete=models.CASCADE, related_name="play_up")
    division_name = models.CharField(max_length=50, blank=True, help_text="Empty: one division up")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"{self.entry} → {self.division_name or 'one up'}"
