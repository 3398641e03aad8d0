"""Entering without an account: what a guest gave on the form, held until the emailed link confirms it."""

from datetime import timedelta

from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone

from players.models import SchoolLevel

from .event import Category, Event, Fee

__all__ = ["GuestEntry", "GUEST_CONFIRM_HOURS"]

# An entry given without an account takes no place until its emailed link is opened, and the link must be opened
# within this many hours; after that the form is filled in again.
GUEST_CONFIRM_HOURS = 48


class GuestEntry(models.Model):
    """One person entered without an account by the holder of `email` (themselves, or a parent or guardian for a
    child). The Entry is made when the emailed link is opened (`confirmed_at`); until then this holds what the form
    asked. The entrant's record is the one the matching rule finds, or a new one without membership."""

    class Role(models.TextChoices):
        SELF = "self", "Myself"
        PARENT = "parent", "My child"
        GUARDIAN = "guardian", "A child in my care"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="guest_entries")
    role = models.CharField("I am entering", max_length=10, choices=Role.choices, default=Role.SELF)
    contact_name = models.CharField("your name", max_length=200)
    email = models.EmailField("your email")
    full_name = models.CharField("name as on ID", max_length=200)
    date_of_birth = models.DateField()
    school_level = models.CharField(max_length=10, choices=SchoolLevel.choices, default=SchoolLevel.NONE)
    school = models.CharField(max_length=200, blank=True)
    phone = models.CharField(max_length=30, blank=True)
    member_number = models.CharField(
        max_length=12, blank=True, help_text="As given: a member number, “new” for someone not on record, or nothing"
    )
    category = models.ForeignKey(Category, on_delete=models.PROTECT, related_name="+")
    fee = models.ForeignKey(Fee, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    concession_proof = models.CharField(max_length=100, blank=True)
    discount_code = models.CharField(
        max_length=40,
        blank=True,
        help_text="The discount code given, as checked when the form was sent: checked again and used when the link "
        "is opened",
    )
    rules_accepted_at = models.DateTimeField(null=True, blank=True)
    rules_version = models.ForeignKey(
        "rulebooks.RuleBookVersion",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="rule book version agreed to",
    )
    answers = models.JSONField(
        default=dict,
        blank=True,
        help_text="The answers to the organiser's questions by question id, as checked when the form was sent",
    )
    name_listed = models.BooleanField(
        default=False, help_text="A parent or guardian agreed to list the child's name on the public list of entrants"
    )
    created_at = models.DateTimeField()
    confirmed_at = models.DateTimeField(null=True, blank=True)
    link_sent_at = models.DateTimeField(help_text="When the link was last emailed (asking again is rate-limited)")

    class Meta:
        ordering = ["-created_at"]
        verbose_name = "entry without an account"
        verbose_name_plural = "entries without an account"
        indexes = [models.Index(Lower("email"), "event", name="guest_entry_email_event")]

    def __str__(self):
        return f"{self.full_name} (by {self.contact_name})"

    @property
    def confirm_by(self):
        return self.created_at + timedelta(hours=GUEST_CONFIRM_HOURS)

    @property
    def entered_as(self) -> str:
        """Who the guest is to the entrant, as the entry's page says it."""
        return {self.Role.SELF: "the entrant", self.Role.PARENT: "parent"}.get(self.role, "guardian")

    @property
    def expired(self) -> bool:
        """Not confirmed in time: the link no longer confirms it."""
        return self.confirmed_at is None and timezone.now() > self.confirm_by

    @property
    def entry(self):
        """The entry made when the link was opened (None before)."""
        return next(iter(self.entries.all()), None) if self.confirmed_at else None
