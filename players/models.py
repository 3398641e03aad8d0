from datetime import date, timedelta
from decimal import Decimal

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.db.models import F, Q, Value
from django.db.models.functions import Coalesce, Lower, NullIf
from django.urls import reverse
from django.utils import timezone

from clubsite.kit.text import NOTE_TEXT, SHORT_TEXT, TextLimit
from money.balances import balance

from . import names


class User(AbstractUser):
    """An account. Log-in is by email, so it is unique (case-insensitively, see the constraint)."""

    email = models.EmailField("email address", unique=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(models.functions.Lower("email"), name="user_email_ci_unique"),
        ]


class Association(models.Model):
    name = models.CharField(max_length=200)
    short_name = models.CharField(max_length=40, blank=True)
    slug = models.SlugField(unique=True)
    country = models.CharField(max_length=2, default="SG", help_text="ISO 3166 country code")
    website = models.URLField(blank=True)
    renewal_payment_instructions = models.TextField(
        blank=True,
        validators=[TextLimit(SHORT_TEXT, "renewal payment instructions")],
        help_text="Shown to members who ask to renew: how to pay (bank account, PayNow, in person).",
    )
    joins_need_approval = models.BooleanField(
        "joins need staff approval",
        default=False,
        help_text="A person joining online becomes a member only once staff approve, even when paid in full.",
    )

    def __str__(self):
        return self.name


class Club(models.Model):
    association = models.ForeignKey(Association, on_delete=models.PROTECT, related_name="clubs")
    name = models.CharField(max_length=200)
    slug = models.SlugField(unique=True)
    city = models.CharField(max_length=100, blank=True)
    country = models.CharField(max_length=2, default="SG")
    meets = models.CharField(max_length=200, blank=True, help_text="When and where the club meets")

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name


class SchoolLevel(models.TextChoices):
    NONE = "none", "Not at school"
    PRIMARY = "primary", "Primary"
    SECONDARY = "secondary", "Secondary"


id_last4_validator = RegexValidator(r"^[A-Za-z0-9]{4}$", "Enter exactly the last four characters of the ID number.")


# Nobody is known to have lived longer: a date of birth further back is a slip of the year (1850 for 1950, 1014
# for 2014), not a player.
OLDEST_AGE = 120


def birth_date_problem(born: date | None, today: date | None = None) -> str | None:
    """Why `born` cannot be someone's date of birth, or None. One rule for every door that takes a date of birth:
    sign-up, the profile, a group entry and its class list, a name change, the API and the admin."""
    if born is None:
        return None
    today = today or timezone.localdate()
    if born > today:
        return "The date of birth cannot be in the future."
    age = today.year - born.year - ((today.month, today.day) < (born.month, born.day))
    if age > OLDEST_AGE:
        return (
            f"The date of birth {born.day} {born:%B} {born.year} would make the player {age} years old: check the year."
        )
    return None


def validate_birth_date(value: date | None) -> None:
    """birth_date_problem as a model field's validator (the admin, the API's serializers)."""
    if problem := birth_date_problem(value):
        raise ValidationError(problem, code="implausible_birth_date")


def by_family_name(path: str = "") -> tuple:
    """order_by() terms for players in alphabetical order by family name, then full name (as
    players.names.sort_key). `path` leads to the player from another model, e.g. "player__"."""
    return (
        Lower(Coalesce(NullIf(F(f"{path}family_name"), Value("")), F(f"{path}full_name"))).asc(),
        Lower(f"{path}full_name").asc(),
        f"{path}pk",
    )


def shown_name(display_name: str, full_name: str) -> str:
    """The name the site shows for a player: the one they chose, else their full name."""
    return display_name or full_name


class Player(models.Model):
    """A person who plays, with or without a log-in."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="player"
    )
    full_name = models.CharField("full name as on ID", max_length=200)
    family_name = models.CharField(
        "family name (surname)",
        max_length=100,
        blank=True,
        help_text="As it begins or ends your full name (Chua in Chua Xavier, Smith in John Smith). "
        "Leave it empty if you have no family name: your name is then used as written.",
    )
    display_name = models.CharField(max_length=100, blank=True)
    member_number = models.PositiveIntegerField(unique=True, editable=False)
    date_of_birth = models.DateField(null=True, blank=True, validators=[validate_birth_date])
    school = models.CharField(max_length=200, blank=True)
    school_level = models.CharField(max_length=10, choices=SchoolLevel.choices, default=SchoolLevel.NONE)
    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.SET_NULL, related_name="players")
    country = models.CharField(max_length=2, default="SG")
    email = models.EmailField(blank=True)
    phone = models.CharField(max_length=30, blank=True)
    # Only ever the last four characters: the whole national ID number is never stored.
    id_last4 = models.CharField(
        "last four characters of ID number", max_length=4, blank=True, validators=[id_last4_validator]
    )
    # The member's own choice; under-18s are listed only once a parent or guardian also opted in
    # (the whole rule: players.visibility).
    listed_in_directory = models.BooleanField("list me in the member directory", default=True)
    guardian_name = models.CharField("parent or guardian's name", max_length=200, blank=True)
    guardian_opted_in_on = models.DateField(
        "parent or guardian agreed to the directory listing on",
        null=True,
        blank=True,
        help_text="For members under 18: the date a parent or guardian opted in to the directory.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["full_name"]
        indexes = [models.Index(fields=["full_name"])]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("players:detail", args=[self.member_number])

    @property
    def name(self) -> str:
        return shown_name(self.display_name, self.full_name)

    def clean(self):
        super().clean()
        problem = names.family_name_problem(self.full_name, self.family_name)
        if problem:
            raise ValidationError({"family_name": problem})

    @property
    def name_parts(self) -> names.NameParts:
        return names.name_parts(self.full_name, self.family_name)

    @property
    def tsh_name(self) -> str:
        """'Chua, Xavier' (tsh lists family name first); a name without family name as written."""
        return names.tsh_name(self.full_name, self.family_name)

    @property
    def sort_key(self) -> tuple[str, str]:
        """Alphabetical order: by family name, then the full name (by_family_name() for queries)."""
        return names.sort_key(self.full_name, self.family_name)

    def age_on(self, day: date) -> int | None:
        if not self.date_of_birth:
            return None
        dob = self.date_of_birth
        return day.year - dob.year - ((day.month, day.day) < (dob.month, dob.day))


class MembershipType(models.TextChoices):
    ORDINARY = "ordinary", "Ordinary"
    STUDENT = "student", "Student"
    JUNIOR = "junior", "Junior"
    SENIOR = "senior", "Senior"
    FAMILY = "family", "Family"
    LIFE = "life", "Life"
    HONORARY = "honorary", "Honorary"


class PaymentMethod(models.TextChoices):
    IN_PERSON = "in_person", "In person"
    CHEQUE = "cheque", "Cheque"
    BANK_TRANSFER = "bank_transfer", "Bank transfer"
    ONLINE = "online", "Online"
    WAIVED = "waived", "Waived"


def year_end(starts_on: date) -> date:
    """The last day of a year's membership from `starts_on` (from 29 February, to 28 February)."""
    try:
        next_year = starts_on.replace(year=starts_on.year + 1)
    except ValueError:  # 29 February
        next_year = starts_on.replace(year=starts_on.year + 1, day=28) + timedelta(days=1)
    return next_year - timedelta(days=1)


class MembershipQuerySet(models.QuerySet):
    def current(self, day: date | None = None):
        day = day or timezone.localdate()
        return self.filter(Q(expires_on__isnull=True) | Q(expires_on__gte=day), starts_on__lte=day)

    def expiring_within(self, days: int, day: date | None = None):
        day = day or timezone.localdate()
        return self.filter(expires_on__gte=day, expires_on__lte=day + timezone.timedelta(days=days))


class Membership(models.Model):
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="memberships")
    association = models.ForeignKey(Association, on_delete=models.PROTECT, related_name="memberships")
    type = models.CharField(max_length=10, choices=MembershipType.choices, default=MembershipType.ORDINARY)
    starts_on = models.DateField()
    expires_on = models.DateField(null=True, blank=True, help_text="Empty for life and honorary membership")
    fee = models.DecimalField(max_digits=8, decimal_places=2, default=0)
    paid_on = models.DateField(null=True, blank=True)
    payment_method = models.CharField(max_length=20, choices=PaymentMethod.choices, blank=True)
    payment_reference = models.CharField(max_length=100, blank=True)
    reminder_sent_on = models.DateField(null=True, blank=True)

    objects = MembershipQuerySet.as_manager()

    class Meta:
        ordering = ["-starts_on"]
        constraints = [
            models.CheckConstraint(
                condition=Q(expires_on__isnull=True) | Q(expires_on__gte=models.F("starts_on")),
                name="membership_expiry_after_start",
            ),
            models.CheckConstraint(condition=Q(fee__gte=0), name="membership_fee_not_negative"),
        ]

    def __str__(self):
        return f"{self.get_type_display()} {self.starts_on}–{self.expires_on or 'life'}"

    def is_current(self, day: date | None = None) -> bool:
        day = day or timezone.localdate()
        return self.starts_on <= day and (self.expires_on is None or self.expires_on >= day)

    @property
    def is_paid(self) -> bool:
        return self.paid_on is not None or self.fee == 0


class MembershipOffer(models.Model):
    """A membership type as the association offers it to people joining: its fee, whether it can be joined online,
    and the proof it needs (a date of birth within an age range, a document's number such as a student card's).
    The one rule of what a join must give: players.joining.join_problems."""

    association = models.ForeignKey(Association, on_delete=models.CASCADE, related_name="offers")
    type = models.CharField(max_length=10, choices=MembershipType.choices)
    fee = models.DecimalField(max_digits=8, decimal_places=2, validators=[MinValueValidator(0)])
    joinable_online = models.BooleanField("can be joined online", default=True)
    description = models.CharField(max_length=200, blank=True, help_text="Who the type is for, shown on Join.")
    needs_date_of_birth = models.BooleanField(default=False)
    min_age = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MaxValueValidator(OLDEST_AGE)], help_text="At least this age on joining"
    )
    max_age = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MaxValueValidator(OLDEST_AGE)], help_text="At most this age on joining"
    )
    proof_label = models.CharField(
        max_length=100,
        blank=True,
        help_text='A document the person must name to join, e.g. "Student card number"; empty for none.',
    )

    class Meta:
        ordering = ["association", "fee", "type"]
        constraints = [
            models.UniqueConstraint(fields=["association", "type"], name="one_offer_per_type"),
            models.CheckConstraint(condition=Q(fee__gte=0), name="offer_fee_not_negative"),
        ]

    def __str__(self):
        return f"{self.get_type_display()} membership"

    @property
    def asks_date_of_birth(self) -> bool:
        """An age limit is checked against the date of birth, so it needs one too."""
        return self.needs_date_of_birth or self.min_age is not None or self.max_age is not None

    def clean(self):
        super().clean()
        if self.min_age is not None and self.max_age is not None and self.min_age > self.max_age:
            raise ValidationError({"max_age": "The highest age cannot be below the lowest."})


class ClaimStatus(models.TextChoices):
    PENDING = "pending", "Waiting for approval"
    APPROVED = "approved", "Approved"
    REJECTED = "rejected", "Rejected"


class PlayerClaim(models.Model):
    """A signed-up person asking to be linked to an existing player record."""

    TRANSITIONS = {
        ClaimStatus.PENDING: {ClaimStatus.APPROVED, ClaimStatus.REJECTED},
    }

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="claims")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="claims")
    status = models.CharField(max_length=10, choices=ClaimStatus.choices, default=ClaimStatus.PENDING)
    message = models.TextField(blank=True, validators=[TextLimit(NOTE_TEXT, "message")])
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "player"], condition=Q(status="pending"), name="one_pending_claim_per_player"
            )
        ]

    def __str__(self):
        return f"{self.user} → {self.player} ({self.status})"


class RenewalStatus(models.TextChoices):
    REQUESTED = "requested", "Waiting for payment"
    PAID = "paid", "Paid"
    CANCELLED = "cancelled", "Cancelled"


class RenewalRequest(models.Model):
    """A member asking to renew: the amount due is fixed when asked; staff record the payment,
    which adds the new membership (players.services.record_renewal_payment)."""

    TRANSITIONS = {
        RenewalStatus.REQUESTED: {RenewalStatus.PAID, RenewalStatus.CANCELLED},
    }

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="renewals")
    association = models.ForeignKey(Association, on_delete=models.PROTECT, related_name="renewals")
    type = models.CharField(max_length=10, choices=MembershipType.choices)
    amount = models.DecimalField(max_digits=8, decimal_places=2)
    amount_paid = models.DecimalField(max_digits=8, decimal_places=2, default=0)
    status = models.CharField(max_length=10, choices=RenewalStatus.choices, default=RenewalStatus.REQUESTED)
    requested_at = models.DateTimeField(auto_now_add=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    paid_on = models.DateField(null=True, blank=True)
    payment_method = models.CharField(max_length=20, choices=PaymentMethod.choices, blank=True)
    payment_reference = models.CharField(max_length=100, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    membership = models.OneToOneField(
        Membership, null=True, blank=True, on_delete=models.SET_NULL, related_name="renewal"
    )
    # A join is a first membership asked for online (players.joining): paid like a renewal, it may also wait for
    # staff approval, as the association said when it was asked.
    is_join = models.BooleanField(default=False)
    needs_approval = models.BooleanField(default=False)
    approved_at = models.DateTimeField(null=True, blank=True)
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    proof = models.CharField(max_length=100, blank=True, help_text="The document the type needs, as given")

    class Meta:
        ordering = ["-requested_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["player"], condition=Q(status="requested"), name="one_open_renewal_per_player"
            ),
            models.CheckConstraint(condition=Q(amount__gte=0), name="renewal_amount_not_negative"),
        ]

    def __str__(self):
        return f"{self.player} renewal ({self.get_status_display().lower()})"

    @property
    def balance(self) -> Decimal:
        """What is left to pay of the renewal's fee (money.balances.balance)."""
        return balance(self.amount, self.amount_paid)

    @property
    def waits_for_approval(self) -> bool:
        return self.needs_approval and self.approved_at is None


class PlayerMerge(models.Model):
    """Two records of one person made one by staff (players.merging): what went, why, and who did it. The old member
    number leads to the kept record's page from here."""

    kept = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="merged_records")
    old_member_number = models.PositiveIntegerField(unique=True)
    old_full_name = models.CharField(max_length=200)
    reason = models.TextField(validators=[TextLimit(NOTE_TEXT, "reason")])
    moved = models.JSONField(default=dict, blank=True, help_text="What the old record held, by kind, moved to the kept")
    merged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    merged_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-merged_at"]

    def __str__(self):
        return f"{self.old_member_number} {self.old_full_name} → {self.kept.member_number}"
