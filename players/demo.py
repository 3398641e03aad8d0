"""Demo members: an association, two clubs, about 60 members, an organiser and a staff account."""

import random
from datetime import date, timedelta

from allauth.account.models import EmailAddress
from django.contrib.auth.models import Group
from django.utils import timezone

from clubsite.kit.roles import ORGANISERS_GROUP
from money.models import PaymentSettings

from . import services
from .models import Association, Club, Membership, MembershipOffer, MembershipType, SchoolLevel, User

DEMO_PASSWORD = "scrabble-demo-2026"
ACCOUNTS = [
    ("staff@example.org", "Siti Staff", {"is_staff": True, "is_superuser": True}),
    ("organiser@example.org", "Oliver Organiser", {}),
    ("director@example.org", "Diana Director", {}),
    ("player@example.org", "Priya Player", {}),
]
GIVEN = (
    "Adrian Beatrice Chen Daniel Evelyn Farid Grace Irfan Kumar Lakshmi Marcus Nurul Oscar Priyanka"
    " Rachel Suresh Umar Vivian Xavier Yusof"
).split()
SURNAMES = "Tan Lim Lee Ng Wong Goh Chua Koh Teo Ong Ho Sim Yeo Low Chia Kumar Rahman Pillai Fernandez Ismail".split()
SCHOOLS = ["Jurong West Secondary", "Yuhua Primary", "Boon Lay Secondary", "Rulang Primary", "Pioneer Secondary"]
# Ages (turned this year) well inside each school level's, so every demo pupil may enter their level's category.
LEVEL_AGES = {SchoolLevel.PRIMARY: (8, 12), SchoolLevel.SECONDARY: (13, 16)}


def load(stdout) -> bool:
    """Creates the demo members once; returns False when they were already there."""
    if Association.objects.filter(slug="sa").exists():
        return False
    rng = random.Random(2026)
    sa = Association.objects.create(name="Scrabble Association (Singapore)", short_name="SA", slug="sa", country="SG")
    # How the demo association is paid: a PayNow QR on every payment page, numbered receipts.
    PaymentSettings.objects.create(
        association=sa,
        receipt_prefix="SA",
        address="1 Demo Road #01-01\nSingapore 123456",
        paynow_proxy_type="UEN",
        paynow_proxy="S88SS0001A",
        paynow_name="Scrabble Association",
        gst_registration="M90000001A",
    )
    # The types the Join page offers, with the fees the demo members paid (students 10, others 20).
    for offer in (
        {"type": MembershipType.ORDINARY, "fee": 20, "description": "adults"},
        {"type": MembershipType.STUDENT, "fee": 10, "description": "students", "proof_label": "Student card number"},
        {"type": MembershipType.JUNIOR, "fee": 10, "description": "under 18", "max_age": 17},
        {"type": MembershipType.SENIOR, "fee": 10, "description": "60 and over", "min_age": 60},
        {"type": MembershipType.LIFE, "fee": 300, "joinable_online": False},
    ):
        MembershipOffer.objects.create(association=sa, **offer)
    clubs = [
        Club.objects.create(
            association=sa,
            name="Jurong Green Scrabble Club",
            slug="jurong-green",
            city="Singapore",
            meets="Saturdays 7.30 p.m., Jurong Green CC",
        ),
        Club.objects.create(
            association=sa,
            name="Toa Payoh Word Club",
            slug="toa-payoh",
            city="Singapore",
            meets="Wednesdays 7 p.m., Toa Payoh library",
        ),
    ]
    organisers, _ = Group.objects.get_or_create(name=ORGANISERS_GROUP)
    today = timezone.localdate()
    for email, name, flags in ACCOUNTS:
        user = User.objects.create_user(
            username=email.split("@")[0], email=email, password=DEMO_PASSWORD, first_name=name, **flags
        )
        EmailAddress.objects.create(user=user, email=email, verified=True, primary=True)
        if email.startswith(("organiser", "director")):
            user.groups.add(organisers)
        player = services.create_player(user=user, full_name=name, email=email, club=rng.choice(clubs))
        Membership.objects.create(
            player=player,
            association=sa,
            starts_on=today - timedelta(days=200),
            expires_on=today + timedelta(days=165),
            fee=20,
            paid_on=today - timedelta(days=200),
        )
    for i in range(56):
        name = f"{rng.choice(SURNAMES)} {rng.choice(GIVEN)}"
        student = i % 3 == 0
        level = rng.choice([SchoolLevel.PRIMARY, SchoolLevel.SECONDARY]) if student else SchoolLevel.NONE
        # A pupil's age and school fit their level, as the students' categories require of real entrants.
        ages = LEVEL_AGES[level] if student else (20, 75)
        born = date(today.year - rng.randint(*ages), rng.randint(1, 12), 1)
        player = services.create_player(
            full_name=name,
            email=f"member{i + 1}@example.org",
            club=rng.choice(clubs),
            date_of_birth=born,
            school=rng.choice([s for s in SCHOOLS if s.endswith(level.label)]) if student else "",
            school_level=level,
            # Pupils are in the directory only where a parent agreed: about half of them here.
            guardian_name=f"Parent of {name}" if student and i % 2 == 0 else "",
            guardian_opt_in=student and i % 2 == 0,
        )
        start = today - timedelta(days=rng.randint(30, 700))
        expiry = start + timedelta(days=365)
        Membership.objects.create(
            player=player,
            association=sa,
            type=MembershipType.STUDENT if student else MembershipType.ORDINARY,
            starts_on=start,
            expires_on=expiry,
            fee=10 if student else 20,
            paid_on=start,
        )
    stdout.write(f"Created {sa.name}, {len(clubs)} clubs and 60 members.")
    return True
