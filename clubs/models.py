"""Club life: a club's officers and page, its series of club nights with their exceptions, the nights, and who
comes to each (RSVP, check-in at the door, the session fee charged and paid through the money ledger)."""

from decimal import Decimal
from urllib.parse import quote

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.urls import reverse

from clubsite.kit.text import NOTE_TEXT, TextLimit

from . import core


class OfficerRole(models.TextChoices):
    DIRECTOR = "director", "Club director"
    SECRETARY = "secretary", "Secretary"
    TREASURER = "treasurer", "Treasurer"


class Officer(models.Model):
    """A member holding an office of their club. The rights it gives are written once: clubs.permissions."""

    club = models.ForeignKey("players.Club", on_delete=models.CASCADE, related_name="officers")
    player = models.ForeignKey("players.Player", on_delete=models.CASCADE, related_name="club_offices")
    role = models.CharField(max_length=10, choices=OfficerRole.choices)
    since = models.DateField(auto_now_add=True)

    class Meta:
        ordering = ["club", "role", "pk"]
        constraints = [models.UniqueConstraint(fields=["club", "player", "role"], name="clubs_officer_once")]

    def __str__(self):
        return f"{self.get_role_display()} of {self.club_id}"


class ClubPage(models.Model):
    """What a club says of itself on its page: where it meets (with a map link), how to reach it, and about it."""

    club = models.OneToOneField("players.Club", on_delete=models.CASCADE, related_name="page")
    venue = models.CharField(max_length=200, blank=True, help_text="Where the club meets: the place's name")
    address = models.CharField(max_length=300, blank=True, help_text="Its street address, for the map link")
    map_url = models.URLField(
        "map link", max_length=500, blank=True, help_text="A link to a map; empty: a map search for the address"
    )
    contact_email = models.EmailField(blank=True)
    contact_phone = models.CharField(max_length=30, blank=True)
    about = models.TextField(
        blank=True,
        validators=[TextLimit(NOTE_TEXT, "about the club")],
        help_text="About the club, for newcomers. Its rules belong in the club's rule book.",
    )

    def __str__(self):
        return f"Page of {self.club_id}"


class Frequency(models.TextChoices):
    WEEKLY = core.WEEKLY, "Weekly"
    FORTNIGHTLY = core.FORTNIGHTLY, "Fortnightly"
    DATES = core.DATES, "On a list of dates"


class NightSeries(models.Model):
    """Club nights planned together: weekly, fortnightly or on listed dates, less its exceptions (clubs.core)."""

    club = models.ForeignKey("players.Club", on_delete=models.CASCADE, related_name="night_series")
    title = models.CharField(max_length=100, default="Club night")
    frequency = models.CharField(max_length=12, choices=Frequency.choices, default=Frequency.WEEKLY)
    first_on = models.DateField("first night", null=True, blank=True)
    last_on = models.DateField("last day", null=True, blank=True)
    dates = models.JSONField(default=list, blank=True, help_text="The listed dates (ISO), for a series by dates")
    starts_at = models.TimeField()
    ends_at = models.TimeField(null=True, blank=True)
    venue = models.CharField(max_length=200, blank=True)
    member_fee = models.DecimalField(
        max_digits=8, decimal_places=2, default=Decimal("0"), validators=[MinValueValidator(0)]
    )
    guest_fee = models.DecimalField(
        max_digits=8, decimal_places=2, default=Decimal("0"), validators=[MinValueValidator(0)]
    )
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "-first_on", "pk"]
        verbose_name_plural = "night series"
        constraints = [
            models.CheckConstraint(condition=Q(member_fee__gte=0, guest_fee__gte=0), name="clubs_series_fees"),
        ]

    def __str__(self):
        return f"{self.title} ({self.get_frequency_display().lower()})"


class NightException(models.Model):
    """A date a series does not meet (a public holiday)."""

    series = models.ForeignKey(NightSeries, on_delete=models.CASCADE, related_name="exceptions")
    on = models.DateField()
    reason = models.CharField(max_length=100, blank=True)

    class Meta:
        ordering = ["on"]
        constraints = [models.UniqueConstraint(fields=["series", "on"], name="clubs_exception_once")]

    def __str__(self):
        return f"{self.on}: {self.reason}"


class NightStatus(models.TextChoices):
    SCHEDULED = "scheduled", "Scheduled"
    CANCELLED = "cancelled", "Cancelled"


class ClubNight(models.Model):
    """One evening of a club, made by its series (or on its own), with its session fees."""

    TRANSITIONS = {
        NightStatus.SCHEDULED: {NightStatus.CANCELLED},
        NightStatus.CANCELLED: {NightStatus.SCHEDULED},
    }

    club = models.ForeignKey("players.Club", on_delete=models.CASCADE, related_name="nights")
    series = models.ForeignKey(NightSeries, null=True, blank=True, on_delete=models.SET_NULL, related_name="nights")
    on = models.DateField("date")
    title = models.CharField(max_length=100, default="Club night")
    starts_at = models.TimeField()
    ends_at = models.TimeField(null=True, blank=True)
    venue = models.CharField(max_length=200, blank=True)
    member_fee = models.DecimalField(max_digits=8, decimal_places=2, default=Decimal("0"))
    guest_fee = models.DecimalField(max_digits=8, decimal_places=2, default=Decimal("0"))
    status = models.CharField(max_length=10, choices=NightStatus.choices, default=NightStatus.SCHEDULED)
    note = models.CharField(max_length=200, blank=True, help_text="Why it is off, or what is special about it")

    class Meta:
        ordering = ["on", "starts_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["series", "on"], name="clubs_night_once_per_series"),
            models.CheckConstraint(condition=Q(member_fee__gte=0, guest_fee__gte=0), name="clubs_night_fees"),
        ]
        indexes = [models.Index(fields=["club", "on"])]

    def __str__(self):
        return f"{self.title}, {self.on}"

    def get_absolute_url(self):
        return reverse("clubs:night", args=[self.club.slug, self.pk])


class AttendanceStatus(models.TextChoices):
    COMING = "coming", "Coming"
    NOT_COMING = "not_coming", "Not coming"
    CHECKED_IN = "checked_in", "Checked in"


class Attendance(models.Model):
    """A person at a club night: said they are coming (perhaps with guests), or checked in at the door. Checking in
    charges the session fee (the member's or the guest's price, `fee`); `paid` is what the money ledger applied
    (the session-fee payable kind, clubs.payables), never written by anything else."""

    TRANSITIONS = {
        AttendanceStatus.COMING: {AttendanceStatus.NOT_COMING, AttendanceStatus.CHECKED_IN},
        AttendanceStatus.NOT_COMING: {AttendanceStatus.COMING, AttendanceStatus.CHECKED_IN},
        AttendanceStatus.CHECKED_IN: set(),
    }
    MAX_GUESTS = 3

    night = models.ForeignKey(ClubNight, on_delete=models.CASCADE, related_name="attendances")
    player = models.ForeignKey("players.Player", on_delete=models.PROTECT, related_name="club_attendances")
    status = models.CharField(max_length=12, choices=AttendanceStatus.choices, default=AttendanceStatus.COMING)
    is_guest = models.BooleanField(default=False, help_text="Not a member of the club: pays the guest's price")
    guest_of = models.ForeignKey(
        "players.Player", null=True, blank=True, on_delete=models.SET_NULL, related_name="club_guests"
    )
    guests = models.PositiveSmallIntegerField(
        default=0, validators=[MaxValueValidator(MAX_GUESTS)], help_text="Guests they said they bring"
    )
    fee = models.DecimalField(max_digits=8, decimal_places=2, default=Decimal("0"))
    paid = models.DecimalField(max_digits=8, decimal_places=2, default=Decimal("0"))
    answered_at = models.DateTimeField(null=True, blank=True)
    checked_in_at = models.DateTimeField(null=True, blank=True)
    checked_in_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["night", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["night", "player"], name="clubs_attendance_once"),
            models.CheckConstraint(condition=Q(fee__gte=0, paid__gte=0), name="clubs_attendance_money"),
            models.CheckConstraint(condition=Q(paid__lte=F("fee")), name="clubs_attendance_paid_within_fee"),
            models.CheckConstraint(condition=Q(guests__lte=3), name="clubs_attendance_guests"),
        ]

    def __str__(self):
        return f"{self.player_id} at {self.night_id}"

    @property
    def balance(self) -> Decimal:
        return self.fee - self.paid


def map_link(page: ClubPage | None) -> str:
    """The club's map link: the one it gave, else a map search for its address (none without an address)."""
    if page is None:
        return ""
    if page.map_url:
        return page.map_url
    where = ", ".join(part for part in (page.venue, page.address) if part)
    return f"https://www.openstreetmap.org/search?query={quote(where)}" if page.address else ""


# Play at club nights (games, tables, the ladder's points, the club rating) lives in its own module.
from .play_models import (  # noqa: E402, F401
    AHEAD,
    SIDES,
    ClubGame,
    ClubGameStatus,
    ClubPlayRules,
    ClubRating,
    ClubTable,
    TableSeat,
)
