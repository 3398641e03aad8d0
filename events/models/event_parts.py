"""The event's settings grouped by concern, each an abstract part of Event (one table): where and when,
registration, payment, the rules play applies, prizes, rating. Event (events.models.event) is made of them."""

from decimal import Decimal
from functools import cache
from zoneinfo import ZoneInfo, available_timezones

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

from clubsite.kit.text import LONG_TEXT, MEDIUM_TEXT, SHORT_TEXT, TextLimit
from events.play.core import pairing, prizes
from events.play.core.standings import parse_round_spread_caps, round_spread_caps
from rulebooks.models import RuleBookVersion

# The event's pairing system is one of the systems the site pairs with: the one list in events.play.core.pairing.
PairingSystem = models.TextChoices(
    "PairingSystem", [(key.upper(), (key, label)) for key, label in pairing.SYSTEMS.items()]
)


# Dates an event may carry: anything outside is a typing slip (year 1 broke every page showing it).
FIRST_YEAR, LAST_YEAR = 2000, 2100
# The longest an unpaid place or an offered place may be held: 30 days.
MAX_HOLD_HOURS = 720


@cache
def _time_zones() -> frozenset[str]:
    return frozenset(available_timezones())


def is_time_zone(name: str) -> bool:
    """Whether `name` names a time zone (Asia/Singapore): looked up among the known names, so what was typed never
    names a file to open (100,000 characters once failed as a file name too long, a server error)."""
    return name in _time_zones()


def validate_sensible_date(value) -> None:
    """A date or moment between the years 2000 and 2100."""
    if value is not None and not FIRST_YEAR <= value.year <= LAST_YEAR:
        raise ValidationError(f"Enter a date between the years {FIRST_YEAR} and {LAST_YEAR}.")


def validate_one_line(text: str) -> None:
    """Text shown in email subjects and headers: no line breaks or other control characters."""
    if any(ord(c) < 32 or ord(c) == 127 for c in text or ""):
        raise ValidationError("Write this on one line, without line breaks or tabs.")


def bounded(low: int, high: int) -> list:
    return [MinValueValidator(low), MaxValueValidator(high)]


def validate_round_spread_caps(text: str) -> None:
    try:
        parse_round_spread_caps(text)
    except ValueError as error:
        raise ValidationError(f"Per-round spread caps: {error}. Write them like 200,100,100.") from None


class PrizeTies(models.TextChoices):
    """How players tied for a place share the prizes their tie covers (seed 000: ties are not broken)."""

    SPLIT = prizes.TIE_SPLIT, "Share the money of the places they cover equally"
    HIGHER = prizes.TIE_HIGHER, "Each receives the higher prize"
    DIRECTOR = prizes.TIE_DIRECTOR, "The director decides who receives each prize"


# How the public rules say each tie policy, in plain words.
PRIZE_TIES_RULE = {
    PrizeTies.SPLIT: "Players tied for a place share the prize money of the places their tie covers equally "
    "(two players tied for 2nd share the 2nd and 3rd prizes).",
    PrizeTies.HIGHER: "Players tied for a place each receive the prize of the highest place their tie covers.",
    PrizeTies.DIRECTOR: "The director decides how players tied for a place share the prizes their tie covers.",
}


class EventWhenAndWhere(models.Model):
    """Where and when the event is played, in its own time zone."""

    venue = models.CharField(max_length=200, blank=True)
    address = models.CharField(max_length=300, blank=True)
    starts_on = models.DateField(validators=[validate_sensible_date])
    ends_on = models.DateField(validators=[validate_sensible_date])
    time_zone = models.CharField(max_length=60, default=settings.TIME_ZONE)
    reporting_time = models.TimeField(null=True, blank=True)
    reporting_until = models.TimeField(null=True, blank=True)
    start_time = models.TimeField(null=True, blank=True)
    estimated_end_time = models.TimeField(null=True, blank=True)
    prize_presentation_time = models.TimeField(null=True, blank=True)
    prize_presentation_until = models.TimeField(null=True, blank=True)

    class Meta:
        abstract = True

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.time_zone)


class EventRegistration(models.Model):
    """How entries are taken: when, how many places, how long unpaid and offered places are held, groups."""

    registration_opens_at = models.DateTimeField(null=True, blank=True, validators=[validate_sensible_date])
    registration_closes_at = models.DateTimeField(null=True, blank=True, validators=[validate_sensible_date])
    max_entrants = models.PositiveIntegerField(
        null=True, blank=True, validators=bounded(1, 100_000), help_text="Places in the whole event"
    )
    keeps_waiting_list = models.BooleanField(default=True)
    payment_hold_hours = models.PositiveIntegerField(
        default=72,
        validators=bounded(1, MAX_HOLD_HOURS),
        help_text="How long an unpaid entry holds its place before it lapses (at most 720 hours)",
    )
    offer_hold_hours = models.PositiveIntegerField(
        default=48,
        validators=bounded(1, MAX_HOLD_HOURS),
        help_text="How long a place offered from the waiting list is held (at most 720 hours)",
    )
    max_group_size = models.PositiveSmallIntegerField(default=15, validators=bounded(1, 200))
    allows_guest_entries = models.BooleanField(
        "allows entry without an account",
        default=False,
        help_text="Anyone may enter with a name and an email address, confirmed by an emailed link (a parent entering "
        "a child for a one-off event need not sign up first)",
    )
    rules_agreement = models.TextField(
        blank=True,
        validators=[TextLimit(LONG_TEXT, "rules and indemnity")],
        help_text="The rules and indemnity entrants must agree to",
    )
    rules_agreement_html = models.TextField(blank=True, editable=False, help_text="The rules as the page shows them")
    # Entrants agree to a version, not to a book that may change after they entered.
    rule_book_version = models.ForeignKey(
        RuleBookVersion,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="events",
        verbose_name="rule book",
        help_text="The rule book and version the event follows; entrants agree to it",
    )
    rule_amendments = models.TextField(
        "amendments to the rule book",
        blank=True,
        validators=[TextLimit(LONG_TEXT, "amendments to the rule book")],
        help_text="Markdown: where this event's rules differ from the rule book's (shown beside it)",
    )
    rule_amendments_html = models.TextField(blank=True, editable=False)
    entrants_public = models.BooleanField(default=True, help_text="Show the list of entrants on the event page")

    class Meta:
        abstract = True


class EventPayment(models.Model):
    """How entrants pay: the ways the organiser takes, the instructions, the refund policy."""

    payment_methods = models.JSONField(default=list, blank=True)
    payment_instructions = models.TextField(
        blank=True, validators=[TextLimit(MEDIUM_TEXT, "payment instructions")], help_text="Markdown"
    )
    payment_instructions_html = models.TextField(
        blank=True, editable=False, help_text="The payment instructions as the page shows them"
    )
    refund_policy = models.TextField(blank=True, validators=[TextLimit(SHORT_TEXT, "refund policy")])

    class Meta:
        abstract = True


class EventPlayRules(models.Model):
    """The rules tournament play applies (events.play reads them): games, pairing, spread and ties."""

    number_of_games = models.PositiveSmallIntegerField(default=5, validators=bounded(1, 100))
    pairing_system = models.CharField(max_length=20, choices=PairingSystem.choices, default=PairingSystem.KOTH)
    time_control_minutes = models.PositiveSmallIntegerField(default=25, validators=bounded(1, 600))
    lexicon = models.CharField(max_length=40, blank=True, default="CSW")
    bye_spread = models.PositiveSmallIntegerField(default=50, validators=bounded(0, 1000))
    forfeit_spread = models.PositiveSmallIntegerField(default=50, validators=bounded(0, 1000))
    # Seed 003 forfeits a late arrival by 100; other events' rules say 50: each event says its own.
    late_forfeit_spread = models.PositiveSmallIntegerField(
        "late-arrival forfeit spread",
        default=100,
        validators=bounded(0, 1000),
        help_text="A player too late for a game loses it by this much; the opponent who was on time wins by as much",
    )
    ties_stand = models.BooleanField(default=True, help_text="Tied players share the rank (no tie-break)")
    overrun_forfeit = models.BooleanField(
        "overrun forfeit (APSP)",
        default=False,
        help_text="Overrunning the time by 15 minutes forfeits the game, by the margin then "
        "(after time penalties) or 150, whichever is greater",
    )
    ties_by_score_before_tiles = models.BooleanField(
        "ties broken by the score before the tile adjustment",
        default=False,
        help_text="A tied game is won by the player who was ahead before the end-of-game tile adjustment",
    )
    spread_cap = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=bounded(1, 1000),
        help_text="The most spread one game counts for in the standings",
    )
    round_spread_caps = models.CharField(
        "per-round spread caps",
        max_length=300,
        blank=True,
        validators=[validate_round_spread_caps],
        help_text="Caps by round from round 1, separated by commas, e.g. 200,100; "
        "an empty entry, or a later round, uses the spread cap above",
    )

    class Meta:
        abstract = True

    def standings_spread_cap(self) -> int | tuple[int | None, ...] | None:
        """The spread cap the standings apply: one value, or one per round (index 0 = round 1)."""
        return round_spread_caps(parse_round_spread_caps(self.round_spread_caps), self.spread_cap, self.number_of_games)


class EventPrizes(models.Model):
    """How the prizes are given: one per player, tied places, a prize fund divided between divisions."""

    one_prize_per_player = models.BooleanField(default=True, help_text="A player wins at most one prize")
    prize_ties = models.CharField(
        "tied places",
        max_length=10,
        choices=PrizeTies.choices,
        default=PrizeTies.SPLIT,
        help_text="How players tied for a place share the prizes of the places their tie covers",
    )
    prize_fund = models.DecimalField(
        max_digits=10,
        decimal_places=2,
        null=True,
        blank=True,
        validators=[MinValueValidator(Decimal("0.01"))],
        help_text="The whole event's prize money, if it is divided between divisions",
    )
    prize_fund_by_fees = models.BooleanField(
        "divide the prize fund by fees",
        default=False,
        help_text="Each division's part of the prize fund is in proportion to the fees its players paid (APSP)",
    )

    class Meta:
        abstract = True

    @property
    def prize_ties_rule(self) -> str:
        return PRIZE_TIES_RULE.get(self.prize_ties, "") if self.ties_stand else ""


class EventRating(models.Model):
    """Whether and on which list the event is rated."""

    rated = models.BooleanField(default=True)
    rating_list = models.ForeignKey(
        "ratings.RatingList", null=True, blank=True, on_delete=models.PROTECT, related_name="events"
    )
    third_rated = models.BooleanField("1/3-rated", default=False)

    class Meta:
        abstract = True
