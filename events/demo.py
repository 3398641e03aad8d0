"""Demo events: the students' championship of the seed announcement, an open tournament, a club night, past events."""

from datetime import date, datetime, time, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

from django.conf import settings
from django.utils import timezone

from players.models import Association, Club, Player, SchoolLevel, User
from rulebooks import demo as rule_books

from . import services
from .models import Event, Fee, GroupEntry, PrizeKind

RULES = (
    "I agree to abide by the rules set by the organiser, and not to hold the organiser responsible for any injury "
    "or loss of property during the championship."
)
# Where the students' championship departs from the association's rule book. The event's texts keep each line
# break as typed, so a paragraph is one line (joined here only to fit the source).
AMENDMENTS = (
    "- **Failure to report:** a player not at the venue ten minutes after reporting time closes gives up their "
    "place.\n"
    "- **Overtime:** a student over time loses 10 points a minute, but no game is forfeited for overtime.\n"
    "- **Words:** challenges are judged by the computer adjudicator at the judges' table."
)
DESCRIPTION = (
    "Players are paired randomly for the first game; later games are **King of the Hill** (1st plays 2nd, 3rd "
    "plays 4th, …) on wins and spread. Prizes go to the top 10 in each category, on games won and then total "
    "spread.\n\n"
    "*Failure to report:* a participant who has not turned up ten minutes after reporting time closes is deemed to "
    "have given up their place.\n\n"
    "Light refreshments will be provided. Free practice and coaching for students every Saturday, 7.30 p.m. to "
    "10 p.m., at Jurong Green CC.\n"
)
PAYMENT = (
    "Pay **in person** at Jurong Green CC, or by **cheque** payable to *Jurong Green Community Club Management "
    "Committee* (write your name, contact number and school on the back). Entries without full payment are not "
    "accepted."
)

SECONDARY_PRIZES = [(1, 100), (2, 80), (3, 60), (4, 40), (5, 20)]
PRIMARY_PRIZES = [(1, 80), (2, 60), (3, 40), (4, 20), (5, 10)]


def _prizes(amounts):
    rows = [
        {
            "kind": PrizeKind.PLACE,
            "rank_from": rank,
            "rank_to": rank,
            "description": f"Shopping voucher S${amount} + trophy",
            "amount": amount,
            "position": rank,
        }
        for rank, amount in amounts
    ]
    rows.append({"kind": PrizeKind.PLACE, "rank_from": 6, "rank_to": 10, "description": "Trophy", "position": 6})
    rows.append(
        {
            "kind": PrizeKind.LUCKY_DRAW,
            "description": "Attractive lucky draw prizes for non-prize winners",
            "position": 11,
        }
    )
    return rows


FEES = [
    {"name": "Standard", "amount": Decimal("3.00"), "note": "incl. GST", "position": 0},
    {
        "name": "Passion Card holder",
        "amount": Decimal("2.00"),
        "note": "incl. GST",
        "is_concession": True,
        "proof_label": "Passion Card number",
        "position": 1,
    },
]


def _at(day, hour=23, minute=59):
    return datetime.combine(day, time(hour, minute), tzinfo=ZoneInfo(settings.TIME_ZONE))


def load(stdout) -> None:
    organiser = User.objects.get(email="organiser@example.org")
    director = User.objects.get(email="director@example.org")
    association = Association.objects.get(slug="sa")
    jurong = Club.objects.get(slug="jurong-green")
    toa_payoh = Club.objects.get(slug="toa-payoh")
    today = timezone.localdate()
    now = timezone.now()

    # The students' championship of the seed announcement, open for entries.
    day = today + timedelta(days=30)
    students = services.create_event(
        organiser,
        title="Jurong Green Students' Scrabble Championship",
        organisers="Jurong Green Community Club Management Committee, Scrabble Club, South West CDC and "
        "Women's Executive Committee",
        association=association,
        club=jurong,
        kind="students",
        venue="Jurong Green Community Club",
        address="No. 6 Jurong West Avenue 1, Singapore 649520",
        starts_on=day,
        ends_on=day,
        reporting_time=time(9, 0),
        reporting_until=time(9, 15),
        start_time=time(9, 30),
        estimated_end_time=time(16, 45),
        prize_presentation_time=time(17, 15),
        prize_presentation_until=time(17, 45),
        eligibility="Open to primary and secondary school students only",
        attire="School uniform",
        number_of_games=5,
        pairing_system="koth",
        time_control_minutes=25,
        lexicon="CSW",
        rules_reference="Scrabble Association Tournament Rules and Regulations (5-point challenge penalty)",
        contact="Jurong Green CC staff, tel. 6567 1374; Mr Yong, 9677 0503",
        description=DESCRIPTION,
        rated=False,
        registration_opens_at=now - timedelta(days=7),
        registration_closes_at=_at(today + timedelta(days=20)),
        max_entrants=None,
        payment_methods=["in_person", "cheque"],
        payment_instructions=PAYMENT,
        payment_hold_hours=72,
        offer_hold_hours=48,
        max_group_size=15,
        rule_book_version=rule_books.current(rule_books.ASSOCIATION_SLUG),
        rule_amendments=AMENDMENTS,
        rules_agreement=RULES,
        refund_policy="Fees are not refunded after the closing date, except when the organisers cancel the event.",
    )
    secondary = services.save_category(
        organiser,
        students,
        name="Category A – Secondary School Student",
        position=1,
        quota=40,
        school_level="secondary",
        fees=FEES,
        prizes=_prizes(SECONDARY_PRIZES),
    )
    primary = services.save_category(
        organiser,
        students,
        name="Category B – Primary School Student",
        position=2,
        quota=40,
        school_level="primary",
        fees=FEES,
        prizes=_prizes(PRIMARY_PRIZES),
    )
    services.set_directors(organiser, students, [director])
    # The organiser's own question, answered for the group's students below.
    shirt = services.save_question(
        organiser,
        students,
        kind="choice",
        label="T-shirt size",
        choices=["XS", "S", "M", "L"],
        help_text="Every player gets the championship T-shirt.",
    )
    services.publish_event(organiser, students)
    pupils = list(Player.objects.exclude(school_level=SchoolLevel.NONE).order_by("member_number"))
    pupils = [p for p in pupils if services.category_refusal(_level_category(p, primary, secondary), p) is None]
    for number, pupil in enumerate(pupils[:12]):
        category = _level_category(pupil, primary, secondary)
        fees = list(category.fees.all())
        concession = number % 4 == 3
        entry = services.register_entry(
            organiser,
            students,
            category=category,
            fee=fees[1] if concession else fees[0],
            concession_proof=f"PC{7000 + number}" if concession else "",
            accept_rules=True,
            player=pupil,
            date_of_birth=pupil.date_of_birth,
        )
        if number % 3 != 2:
            services.record_payment(
                organiser,
                entry,
                amount=entry.amount_due,
                method="cheque" if number % 2 else "in_person",
                reference=f"{300100 + number}" if number % 2 else "",
            )
    services.register_group(
        director,
        students,
        contact={
            "role": GroupEntry.Role.TEACHER,
            "contact_name": "Diana Director",
            "school": "Rulang Primary",
            "address": "Rulang Primary School, 6 Jurong West Street 52",
            "phone": "6561 0000",
            "email": "director@example.org",
        },
        students=[
            {
                "full_name": "Tan Wei Ling",
                "date_of_birth": date(students.starts_on.year - 10, 4, 1),
                "school": "Rulang Primary",
                "phone": "9123 0001",
                "category": primary,
                "fee": primary.fees.get(is_concession=False),
                "answers": {shirt.pk: "S"},
            },
            {
                "full_name": "Muhammad Irfan",
                "date_of_birth": date(students.starts_on.year - 11, 5, 1),
                "school": "Rulang Primary",
                "phone": "9123 0002",
                "category": primary,
                "fee": primary.fees.get(is_concession=False),
                "answers": {shirt.pk: "M"},
            },
        ],
        accept_rules=True,
    )

    # An open, rated tournament with a small quota (full, with a waiting list).
    open_day = today + timedelta(days=45)
    open_event = services.create_event(
        organiser,
        title="Jurong Green Open",
        organisers="Jurong Green Scrabble Club",
        association=association,
        club=jurong,
        kind="tournament",
        venue="Jurong Green Community Club",
        address="No. 6 Jurong West Avenue 1, Singapore 649520",
        starts_on=open_day,
        ends_on=open_day + timedelta(days=1),
        start_time=time(9, 30),
        estimated_end_time=time(18, 0),
        number_of_games=12,
        pairing_system="swiss",
        rated=True,
        registration_opens_at=now - timedelta(days=3),
        registration_closes_at=_at(open_day - timedelta(days=7)),
        max_entrants=8,
        payment_methods=["paynow", "bank_transfer", "in_person"],
        payment_instructions=(
            "Pay by PayNow: your entry's payment page (*Pay now*) shows a QR code with the amount and your payment "
            "reference. Or pay in person at the club, quoting the reference."
        ),
        description="Twelve games over two days, Swiss pairings, CSW.",
        rule_book_version=rule_books.current(rule_books.ASSOCIATION_SLUG),
    )
    services.save_category(
        organiser,
        open_event,
        name="Open",
        fees=[
            {"name": "Standard", "amount": Decimal("25.00")},
            {
                "name": "Student or senior",
                "amount": Decimal("15.00"),
                "is_concession": True,
                "proof_label": "student or senior card number",
            },
        ],
        prizes=[
            {"kind": PrizeKind.PLACE, "rank_from": 1, "rank_to": 1, "description": "S$200 and trophy", "amount": 200},
            {"kind": PrizeKind.PLACE, "rank_from": 2, "rank_to": 3, "description": "S$80", "amount": 80},
            {"kind": PrizeKind.HIGH_GAME, "description": "S$30", "amount": 30},
        ],
    )
    services.publish_event(organiser, open_event)
    open_category = open_event.categories.get()
    # The demo player entered early and has paid: My entries shows a confirmed entry with its receipt.
    player_user = User.objects.get(email="player@example.org")
    paid = services.register_entry(
        player_user,
        open_event,
        category=open_category,
        fee=open_category.fees.get(is_concession=False),
        phone="9123 4567",
        accept_rules=True,
    )
    services.record_payment(organiser, paid, amount=paid.amount_due, method="in_person")
    adults = list(
        Player.objects.filter(school_level=SchoolLevel.NONE, user__isnull=True).order_by("member_number")[:10]
    )
    for adult in adults:
        services.register_entry(
            organiser,
            open_event,
            category=open_category,
            fee=open_category.fees.get(is_concession=False),
            player=adult,
            date_of_birth=adult.date_of_birth,
            accept_rules=True,
        )

    # A club night open for entries, with a small fee paid by PayNow.
    night = today + timedelta(days=14)
    club_night = services.create_event(
        organiser,
        title="Toa Payoh Club Night",
        association=association,
        club=toa_payoh,
        kind="club",
        venue="Toa Payoh library",
        starts_on=night,
        ends_on=night,
        start_time=time(19, 0),
        estimated_end_time=time(22, 0),
        number_of_games=3,
        rated=False,
        registration_opens_at=now - timedelta(days=1),
        registration_closes_at=_at(night - timedelta(days=1), 18, 0),
        payment_methods=["paynow", "in_person"],
        payment_instructions=(
            "Pay by PayNow from your entry's payment page (*Pay now*), or in person at the club, within three days "
            "of entering: an unpaid place then goes to the next in line."
        ),
    )
    services.save_category(
        organiser,
        club_night,
        name="Everyone",
        quota=24,
        fees=[
            {"name": "Standard", "amount": Decimal("5.00"), "note": "incl. GST"},
            {
                "name": "Student or senior",
                "amount": Decimal("3.00"),
                "is_concession": True,
                "proof_label": "student or senior card number",
                "note": "incl. GST",
            },
        ],
    )
    services.publish_event(organiser, club_night)
    # ... and has entered the club night without paying yet: its place is held, with the amount due and Pay now.
    night_category = club_night.categories.get()
    services.register_entry(
        player_user, club_night, category=night_category, fee=night_category.fees.get(is_concession=False)
    )

    _last_years_championship(organiser, association, jurong, students)

    # A past open tournament.
    for months, title in ((2, "Singapore Masters"),):
        past_day = today - timedelta(days=30 * months)
        past = services.create_event(
            organiser,
            title=title,
            association=association,
            club=jurong,
            kind="tournament",
            venue="Jurong Green Community Club",
            starts_on=past_day,
            ends_on=past_day,
            registration_opens_at=now - timedelta(days=30 * months + 40),
            registration_closes_at=now - timedelta(days=30 * months + 5),
        )
        services.save_category(organiser, past, name="Open", fees=[])
        services.publish_event(organiser, past)
        services.start_event(organiser, past)
        services.complete_event(organiser, past)
    stdout.write("Created 5 demo events (the students' championship is open for entries, last year's is over).")


# Last year's championship: members and early birds paid less, and the organiser asked two questions.
PAST_FEES = [
    {"name": "Standard", "amount": Decimal("3.00"), "note": "incl. GST", "position": 0},
    {"name": "Member", "amount": Decimal("2.50"), "note": "incl. GST", "audience": "members", "position": 1},
    {
        "name": "Passion Card holder",
        "amount": Decimal("2.00"),
        "note": "incl. GST",
        "is_concession": True,
        "proof_label": "Passion Card number",
        "position": 2,
    },
]


def _last_years_championship(organiser, association, club, this_year) -> None:
    """Last year's students' championship, held and completed: what an organiser copies to start this year's
    (Manage → Copy), with its categories, fees, prizes, questions, texts and rule book version."""
    held_on = this_year.starts_on - timedelta(days=364)  # the same weekday, a year before
    early_bird = {"name": "Early bird", "amount": Decimal("2.50"), "note": "incl. GST", "position": 3}
    # Entered while registration was open: the dates are set back to last year's once the entries are in (below).
    now = timezone.now()
    past = services.create_event(
        organiser,
        title=f"National Students' Championship {held_on.year}",
        organisers="Jurong Green Community Club Management Committee and Scrabble Club",
        association=association,
        club=club,
        kind="students",
        venue="Jurong Green Community Club",
        address="No. 6 Jurong West Avenue 1, Singapore 649520",
        starts_on=this_year.starts_on,
        ends_on=this_year.starts_on,
        reporting_time=time(9, 0),
        reporting_until=time(9, 15),
        start_time=time(9, 30),
        estimated_end_time=time(16, 45),
        eligibility="Open to primary and secondary school students only",
        attire="School uniform",
        number_of_games=5,
        pairing_system="koth",
        time_control_minutes=25,
        lexicon="CSW",
        description=DESCRIPTION,
        rated=False,
        registration_opens_at=now - timedelta(days=1),
        registration_closes_at=this_year.registration_closes_at,
        payment_methods=["in_person", "cheque"],
        payment_instructions=PAYMENT,
        rule_book_version=this_year.rule_book_version,
        rule_amendments=AMENDMENTS,
        rules_agreement=RULES,
        refund_policy=this_year.refund_policy,
    )
    early = {**early_bird, "until": this_year.registration_closes_at.date() - timedelta(days=14)}
    categories = [
        services.save_category(
            organiser,
            past,
            name=name,
            position=position,
            quota=40,
            school_level=level,
            fees=[*PAST_FEES, early],
            prizes=_prizes(prizes),
        )
        for position, (name, level, prizes) in enumerate(
            (
                ("Category A – Secondary School Student", "secondary", SECONDARY_PRIZES),
                ("Category B – Primary School Student", "primary", PRIMARY_PRIZES),
            ),
            start=1,
        )
    ]
    secondary, primary = categories
    shirt = services.save_question(
        organiser, past, kind="choice", label="T-shirt size", choices=["XS", "S", "M", "L"], required=True
    )
    services.save_question(
        organiser, past, kind="short", label="Food allergies", help_text="For the lunch and refreshments."
    )
    services.publish_event(organiser, past)
    pupils = Player.objects.exclude(school_level=SchoolLevel.NONE).filter(user__isnull=True).order_by("-member_number")
    pupils = [p for p in pupils if services.category_refusal(_level_category(p, primary, secondary), p) is None]
    for number, pupil in enumerate(pupils[:6]):
        category = _level_category(pupil, primary, secondary)
        entry = services.register_entry(
            organiser,
            past,
            category=category,
            fee=category.fees.get(name="Standard"),
            accept_rules=True,
            player=pupil,
            date_of_birth=pupil.date_of_birth,
            answers={shirt.pk: ["S", "M", "L"][number % 3]},
        )
        services.record_payment(organiser, entry, amount=entry.amount_due, method="in_person")
    # Held a year ago: no service moves an event and its entrants back in time (nor should anyone be told).
    year = timedelta(days=364)
    Event.objects.filter(pk=past.pk).update(
        starts_on=held_on,
        ends_on=held_on,
        registration_opens_at=this_year.registration_opens_at - year,
        registration_closes_at=this_year.registration_closes_at - year,
    )
    Fee.objects.filter(category__event=past, name="Early bird").update(until=early["until"] - year)
    past.refresh_from_db()
    services.start_event(organiser, past)
    services.complete_event(organiser, past)


def _level_category(pupil, primary, secondary):
    return secondary if pupil.school_level == SchoolLevel.SECONDARY else primary
