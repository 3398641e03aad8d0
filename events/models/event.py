"""Announcements: events, their categories, fees and prizes (see events.services). Entries: models/entries.py."""

import re
from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.urls import reverse

from clubsite.kit.money import format_money
from clubsite.kit.text import LONG_TEXT, NOTE_TEXT, TextLimit
from events import pricing
from events.play.core import prizes
from money.models import WAIVED as MONEY_WAIVED
from money.models import Method

# The validators are imported here too because earlier migrations name them as this module's.
from .event_parts import (  # noqa: F401
    PRIZE_TIES_RULE,
    EventPayment,
    EventPlayRules,
    EventPrizes,
    EventRating,
    EventRegistration,
    EventWhenAndWhere,
    PairingSystem,
    PrizeTies,
    validate_one_line,
    validate_round_spread_caps,
    validate_sensible_date,
)

__all__ = [
    "EventKind",
    "EventStatus",
    "PairingSystem",
    "PaymentMethod",
    "BY_HAND_PAYMENT_METHODS",
    "Event",
    "Category",
    "Fee",
    "FeeAudience",
    "SchoolLevelRequirement",
    "PrizeKind",
    "PrizeTies",
    "Prize",
]


class EventKind(models.TextChoices):
    TOURNAMENT = "tournament", "Tournament"
    STUDENTS = "students", "Students' championship"
    CLUB = "club", "Club event"
    WORKSHOP = "workshop", "Workshop or coaching"


class EventStatus(models.TextChoices):
    DRAFT = "draft", "Draft"
    PUBLISHED = "published", "Published"
    REGISTRATION_OPEN = "registration_open", "Registration open"
    REGISTRATION_CLOSED = "registration_closed", "Registration closed"
    IN_PROGRESS = "in_progress", "In progress"
    COMPLETED = "completed", "Completed"
    CANCELLED = "cancelled", "Cancelled"


class PaymentMethod(models.TextChoices):
    """Money's ways of paying (money.models.Method, by its values), in the order an entrant is offered them, and
    a fee waived."""

    IN_PERSON = Method.IN_PERSON.value, "In person"
    CHEQUE = Method.CHEQUE.value, "Cheque"
    BANK_TRANSFER = Method.BANK_TRANSFER.value, "Bank transfer"
    PAYNOW = Method.PAYNOW.value, "PayNow QR"
    CARD = Method.CARD.value, "Card"
    WAIVED = MONEY_WAIVED, "Waived"


# What an organiser records by hand (card payments arrive from the provider, never typed in).
BY_HAND_PAYMENT_METHODS = [(v, label) for v, label in PaymentMethod.choices if v != PaymentMethod.CARD]


def _rounds_text(first: int, last: int) -> str:
    return f"round {first}" if first == last else f"rounds {first}–{last}"


def spread_caps_rule(caps: int | tuple[int | None, ...] | None) -> str:
    """The standings' spread cap in words: one cap, or caps by round ('200 in round 1, 100 in rounds 2–5')."""
    if caps is None:
        return ""
    if isinstance(caps, int):
        return f"A game counts for at most {caps} points of spread."
    runs: list[list] = []  # [cap, first round, last round]
    for number, cap in enumerate(caps, start=1):
        if runs and runs[-1][0] == cap:
            runs[-1][2] = number
        else:
            runs.append([cap, number, number])
    parts = [
        f"{cap} in {_rounds_text(first, last)}" if cap is not None else f"no cap in {_rounds_text(first, last)}"
        for cap, first, last in runs
    ]
    return f"A game counts for at most this much spread: {', '.join(parts)}."


class Event(EventWhenAndWhere, EventRegistration, EventPayment, EventPlayRules, EventPrizes, EventRating, models.Model):
    """An announced event. Its status moves only through events.services (see TRANSITIONS)."""

    TRANSITIONS = {
        EventStatus.DRAFT: {EventStatus.PUBLISHED, EventStatus.CANCELLED},
        EventStatus.PUBLISHED: {
            EventStatus.REGISTRATION_OPEN,
            EventStatus.REGISTRATION_CLOSED,
            EventStatus.IN_PROGRESS,
            EventStatus.CANCELLED,
        },
        EventStatus.REGISTRATION_OPEN: {EventStatus.REGISTRATION_CLOSED, EventStatus.CANCELLED},
        EventStatus.REGISTRATION_CLOSED: {EventStatus.IN_PROGRESS, EventStatus.CANCELLED},
        EventStatus.IN_PROGRESS: {EventStatus.COMPLETED, EventStatus.CANCELLED},
        EventStatus.COMPLETED: set(),
        EventStatus.CANCELLED: set(),
    }
    PUBLIC_STATUSES = (
        EventStatus.PUBLISHED,
        EventStatus.REGISTRATION_OPEN,
        EventStatus.REGISTRATION_CLOSED,
        EventStatus.IN_PROGRESS,
        EventStatus.COMPLETED,
        EventStatus.CANCELLED,
    )

    slug = models.SlugField(max_length=80, unique=True)
    title = models.CharField(max_length=200, validators=[validate_one_line])
    organisers = models.CharField(max_length=500, blank=True, help_text="Jointly organised by …")
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="owned_events")
    directors = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="directed_events")
    association = models.ForeignKey("players.Association", on_delete=models.PROTECT, related_name="events")
    club = models.ForeignKey("players.Club", null=True, blank=True, on_delete=models.SET_NULL, related_name="events")
    club_members_only = models.BooleanField(
        "only the club's members may enter",
        default=False,
        help_text="A club tournament for the members of its club; others are told it is for the club's members",
    )
    kind = models.CharField(max_length=20, choices=EventKind.choices, default=EventKind.TOURNAMENT)
    status = models.CharField(max_length=20, choices=EventStatus.choices, default=EventStatus.DRAFT)

    eligibility = models.CharField(max_length=300, blank=True, help_text="For example: primary and secondary students")
    attire = models.CharField(max_length=200, blank=True)
    rules_reference = models.CharField(max_length=300, blank=True)
    contact = models.CharField(max_length=300, blank=True)
    description = models.TextField(blank=True, validators=[TextLimit(LONG_TEXT, "description")], help_text="Markdown")
    description_html = models.TextField(blank=True, editable=False, help_text="The description as the page shows it")

    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    published_at = models.DateTimeField(null=True, blank=True)
    registration_closed_at = models.DateTimeField(null=True, blank=True)
    cancelled_at = models.DateTimeField(null=True, blank=True)
    cancellation_reason = models.TextField(blank=True, validators=[TextLimit(NOTE_TEXT, "reason for cancelling")])

    class Meta:
        ordering = ["starts_on", "title"]
        indexes = [
            models.Index(fields=["status", "starts_on"]),
            # The past events' list, latest first: a page of it reads its rows in this order instead of sorting
            # every past event (25,000 of them took 10 ms a page).
            models.Index(fields=["-starts_on", "title"], name="event_latest_first"),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(ends_on__gte=models.F("starts_on")), name="event_ends_after_start"),
            models.CheckConstraint(
                condition=Q(registration_opens_at__isnull=True)
                | Q(registration_closes_at__isnull=True)
                | Q(registration_opens_at__lt=models.F("registration_closes_at")),
                name="event_registration_opens_before_close",
            ),
        ]

    # The texts written in Markdown, each with the field that keeps it as the pages show it (rendered when saved).
    MARKDOWN_FIELDS = {
        "description": "description_html",
        "rules_agreement": "rules_agreement_html",
        "rule_amendments": "rule_amendments_html",
        "payment_instructions": "payment_instructions_html",
    }

    def __str__(self):
        return self.title

    def get_absolute_url(self):
        return reverse("events:detail", args=[self.slug])

    def clean(self):
        super().clean()
        if self.prize_fund_by_fees and not self.prize_fund:
            raise ValidationError({"prize_fund": "Enter the prize fund to divide between the divisions."})
        if self.rule_book_version_id:
            refusal = self.rule_book_version.refusal_for(self.association_id, self.club_id)
            if refusal:
                raise ValidationError({"rule_book_version": refusal})

    @property
    def asks_agreement(self) -> bool:
        """Whether entrants agree to rules to enter: the rule book version the event follows, or its own rules and
        indemnity (an event naming no rule book)."""
        return bool(self.rule_book_version_id or self.rules_agreement)

    def rule_settings(self) -> list[str]:
        """The playing and prize rules the organiser chose, in plain words, for the public rules section.

        A yes/no rule appears only when it is on; spread for byes and forfeits always applies to play.
        """
        if self.kind == EventKind.WORKSHOP:
            return []
        rules = []
        caps = spread_caps_rule(self.standings_spread_cap())
        if caps:
            rules.append(caps)
        rules.append(f"A bye counts as a win by {self.bye_spread} points of spread.")
        rules.append(
            f"A forfeited game counts as a loss by {self.forfeit_spread} points of spread "
            "(a win by as much for the opponent)."
        )
        rules.append(
            f"A player too late for a game forfeits it by {self.late_forfeit_spread} points of spread "
            "(a win by as much for the opponent who was on time)."
        )
        if self.ties_stand:
            rules.append("Players level on wins and spread share their place: ties are not broken.")
        if self.ties_by_score_before_tiles:
            rules.append("A tied game is won by the player who was ahead before the end-of-game tile adjustment.")
        if self.overrun_forfeit:
            rules.append(
                "Overrunning the time by 15 minutes forfeits the game, by the margin at that point "
                "(after time penalties) or 150 points, whichever is greater."
            )
        if self.ties_stand and self.prize_ties in PRIZE_TIES_RULE:
            rules.append(PRIZE_TIES_RULE[self.prize_ties])
        if self.prize_fund_by_fees and self.prize_fund:
            rules.append(
                f"The {format_money(self.prize_fund)} prize fund is divided between the divisions in proportion "
                "to the fees their players paid."
            )
        if self.one_prize_per_player:
            rules.append("A player wins at most one prize.")
        return rules

    @property
    def is_public(self) -> bool:
        return self.status != EventStatus.DRAFT

    @property
    def is_cancelled(self) -> bool:
        return self.status == EventStatus.CANCELLED

    @property
    def registration_has_closed(self) -> bool:
        """Registration is over: closed by the clock or by hand, or play has begun."""
        return self.status in (EventStatus.REGISTRATION_CLOSED, EventStatus.IN_PROGRESS, EventStatus.COMPLETED)


class SchoolLevelRequirement(models.TextChoices):
    ANY = "", "Anyone"
    PRIMARY = "primary", "Primary school students"
    SECONDARY = "secondary", "Secondary school students"
    STUDENT = "student", "Primary or secondary school students"


class Category(models.Model):
    """A category (division as announced) with its quota, eligibility, fees and prizes."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="categories")
    name = models.CharField(max_length=100)
    position = models.PositiveSmallIntegerField(default=0)
    quota = models.PositiveIntegerField(null=True, blank=True, help_text="Places; empty for no limit")
    school_level = models.CharField(max_length=10, choices=SchoolLevelRequirement.choices, blank=True)
    min_age = models.PositiveSmallIntegerField(null=True, blank=True)
    max_age = models.PositiveSmallIntegerField(null=True, blank=True)
    min_rating = models.PositiveIntegerField(null=True, blank=True)
    max_rating = models.PositiveIntegerField(null=True, blank=True)
    notes = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["event", "position", "pk"]
        verbose_name_plural = "categories"
        constraints = [
            models.UniqueConstraint(fields=["event", "name"], name="category_name_unique_in_event"),
            models.CheckConstraint(
                condition=Q(min_age__isnull=True) | Q(max_age__isnull=True) | Q(min_age__lte=models.F("max_age")),
                name="category_age_range",
            ),
            models.CheckConstraint(
                condition=Q(min_rating__isnull=True)
                | Q(max_rating__isnull=True)
                | Q(min_rating__lte=models.F("max_rating")),
                name="category_rating_band",
            ),
        ]

    def __str__(self):
        return self.name

    @property
    def eligibility_text(self) -> str:
        parts = []
        if self.school_level:
            parts.append(self.get_school_level_display())
        if self.min_age is not None and self.max_age is not None:
            parts.append(f"aged {self.min_age}–{self.max_age}")
        elif self.min_age is not None:
            parts.append(f"aged {self.min_age} or over")
        elif self.max_age is not None:
            parts.append(f"aged {self.max_age} or under")
        if self.min_rating is not None and self.max_rating is not None:
            parts.append(f"rated {self.min_rating}–{self.max_rating}")
        elif self.min_rating is not None:
            parts.append(f"rated {self.min_rating} or more")
        elif self.max_rating is not None:
            parts.append(f"rated {self.max_rating} or less (unrated welcome)")
        return ", ".join(parts) or "Open to all"


class FeeAudience(models.TextChoices):
    ANYONE = pricing.ANYONE, "Everyone"
    MEMBERS = pricing.MEMBERS, "Members"
    NON_MEMBERS = pricing.NON_MEMBERS, "Non-members"


class Fee(models.Model):
    category = models.ForeignKey(Category, on_delete=models.CASCADE, related_name="fees")
    name = models.CharField(max_length=100, default="Standard")
    amount = models.DecimalField(max_digits=8, decimal_places=2)
    note = models.CharField(max_length=100, blank=True, help_text="For example: incl. GST")
    is_concession = models.BooleanField(default=False)
    proof_label = models.CharField(
        max_length=100, blank=True, help_text="What a concession asks for, for example: Passion Card number"
    )
    # Member and non-member fees, and early-bird fees: the fee charged is the cheapest of the kind chosen that applies
    # (events.pricing).
    audience = models.CharField(
        "for",
        max_length=12,
        choices=FeeAudience.choices,
        default=FeeAudience.ANYONE,
        blank=True,
        help_text="Members: a membership valid on the closing date",
    )
    until = models.DateField(
        "early bird until",
        null=True,
        blank=True,
        validators=[validate_sensible_date],
        help_text="An early-bird fee: its last day (entries made on or before it)",
    )
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["category", "position", "amount", "pk"]
        constraints = [models.CheckConstraint(condition=Q(amount__gte=0), name="fee_not_negative")]

    def __str__(self):
        return f"{self.name} {format_money(self.amount, code=True)}"

    @property
    def conditions(self) -> str:
        """Who the fee is for and until when, in words ("for members, until 1 Mar 2027"); empty: everyone, always."""
        parts = [f"for {self.get_audience_display().lower()}"] if self.audience else []
        if self.until:
            parts.append(f"until {pricing.day_text(self.until)}")
        return ", ".join(parts)

    @property
    def variant_name(self) -> str:
        """How a receipt names a member's or an early-bird fee charged below the full fee."""
        if self.audience == FeeAudience.MEMBERS:
            return "members' early-bird fee" if self.until else "members' fee"
        return "early-bird fee" if self.until else f"{self.name} fee"

    def as_row(self) -> pricing.FeeRow:
        return pricing.FeeRow(
            id=self.pk,
            name=self.name,
            amount=self.amount,
            is_concession=self.is_concession,
            proof_label=self.proof_label,
            audience=self.audience,
            until=self.until,
            position=self.position,
        )


class PrizeKind(models.TextChoices):
    PLACE = "place", "Place"
    HIGH_GAME = "high_game", "High game"
    CLASS = "class", "Class prize"
    LUCKY_DRAW = "lucky_draw", "Lucky draw"


class Prize(models.Model):
    category = models.ForeignKey(Category, on_delete=models.CASCADE, related_name="prizes")
    kind = models.CharField(max_length=12, choices=PrizeKind.choices, default=PrizeKind.PLACE)
    rank_from = models.PositiveSmallIntegerField(null=True, blank=True)
    rank_to = models.PositiveSmallIntegerField(null=True, blank=True)
    description = models.CharField(max_length=200)
    amount = models.DecimalField(max_digits=9, decimal_places=2, null=True, blank=True)
    class_min_rating = models.PositiveIntegerField(
        null=True, blank=True, help_text="Class prize: lowest pre-event rating in the class"
    )
    class_max_rating = models.PositiveIntegerField(
        null=True, blank=True, help_text="Class prize: highest pre-event rating in the class"
    )
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["category", "position", models.F("rank_from").asc(nulls_last=True), "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__isnull=True) | Q(amount__gte=0), name="prize_not_negative"),
            models.CheckConstraint(
                condition=Q(rank_from__isnull=True) | Q(rank_to__isnull=True) | Q(rank_from__lte=models.F("rank_to")),
                name="prize_rank_range",
            ),
        ]

    def __str__(self):
        return f"{self.ranks_text} {self.description}".strip()

    @property
    def amount_in_description(self) -> bool:
        """Whether the description already states the amount ("S$80", "S$80.00 voucher"): then it is
        not shown a second time."""
        if self.amount is None:
            return False
        numbers = re.findall(r"\d[\d,]*(?:\.\d+)?", self.description)
        return any(Decimal(n.replace(",", "")) == self.amount for n in numbers)

    @property
    def ranks_text(self) -> str:
        def ordinal(n: int) -> str:
            suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
            return f"{n}{suffix}"

        if self.kind == PrizeKind.CLASS:
            title = prizes.class_title(self.class_min_rating, self.class_max_rating, place=self.rank_from or 1)
            return title or self.get_kind_display()
        if self.rank_from is None:
            return self.get_kind_display()
        if self.rank_to is None or self.rank_to == self.rank_from:
            return ordinal(self.rank_from)
        return f"{ordinal(self.rank_from)}–{ordinal(self.rank_to)}"
