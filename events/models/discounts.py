"""Discount codes an organiser gives out for an event (or one of its categories): an amount or a percentage off, a
number of uses, a last day. Entries record the code they used (Entry.discount_code); the pricing rule is
events.pricing, the checks of a code events.services.discounts."""

from django.conf import settings
from django.db import models
from django.db.models import Q

from clubsite.kit.money import format_money
from events import pricing

from .event import Category, Event
from .event_parts import validate_sensible_date

__all__ = ["DiscountKind", "DiscountCode"]


class DiscountKind(models.TextChoices):
    AMOUNT = pricing.AMOUNT, "Amount off"
    PERCENT = pricing.PERCENT, "Percentage off"


class DiscountCode(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="discount_codes")
    category = models.ForeignKey(
        Category,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="discount_codes",
        help_text="Empty: every category of the event",
    )
    # Kept upper-case: an entrant types it in any case.
    code = models.CharField(max_length=40, help_text="Letters, digits and dashes, for example EARLY-SCHOOLS")
    kind = models.CharField(max_length=8, choices=DiscountKind.choices, default=DiscountKind.AMOUNT)
    value = models.DecimalField(max_digits=8, decimal_places=2, help_text="The amount off, or the percentage off")
    max_uses = models.PositiveIntegerField(
        null=True, blank=True, help_text="How many entries may use it; empty: no limit"
    )
    expires_on = models.DateField(
        null=True, blank=True, validators=[validate_sensible_date], help_text="Its last day; empty: no end"
    )
    note = models.CharField(max_length=200, blank=True, help_text="For the organisers: who it was given to")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "code"]
        constraints = [
            models.UniqueConstraint(fields=["event", "code"], name="discount_code_unique_per_event"),
            models.CheckConstraint(condition=Q(value__gt=0), name="discount_value_positive"),
            models.CheckConstraint(
                condition=~Q(kind=pricing.PERCENT) | Q(value__lte=100), name="discount_percent_at_most_100"
            ),
        ]

    def __str__(self):
        return self.code

    def as_discount(self) -> pricing.Discount:
        return pricing.Discount(code=self.code, kind=self.kind, value=self.value)

    @property
    def value_text(self) -> str:
        if self.kind == pricing.PERCENT:
            return f"{self.value.normalize():f}% off"
        return f"{format_money(self.value)} off"
