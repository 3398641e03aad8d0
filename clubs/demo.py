"""Demo club life: both demo clubs with officers, a page, and a season of weekly nights (twelve held, with
attendance, guests and session fees in the ledger; eight to come, with a holiday off and the demo player coming to
the next one), so a newcomer sees club life at once."""

import random
from datetime import date, time, timedelta
from decimal import Decimal

from django.utils import timezone

from money.models import Method
from players.models import Club, Player, User
from rulebooks import services as rule_books
from rulebooks.models import RuleBook

from . import services
from .models import OfficerRole

PAGES = {
    "jurong-green": {
        "venue": "Jurong Green Community Club",
        "address": "6 Jurong West Ave 1, Singapore 649520",
        "contact_email": "jurong-green@example.org",
        "about": "Friendly games every Saturday evening: newcomers get a board and a partner. Clocks on request.",
        "weekday": 5,
        "starts_at": time(19, 30),
    },
    "toa-payoh": {
        "venue": "Toa Payoh Public Library, Programme Zone",
        "address": "6 Toa Payoh Central, Singapore 319191",
        "contact_email": "toa-payoh@example.org",
        "contact_phone": "6123 4567",
        "about": "Wednesday nights of club play, with a table of three or four for those who like it lively.",
        "weekday": 2,
        "starts_at": time(19, 0),
    },
}
GUESTS = [("Hannah Visitor", "hannah.visitor@example.org"), ("Ivan Newcomer", "ivan.newcomer@example.org")]
HELD, TO_COME = 12, 8
# Singapore's public holidays on the same date every year; the demo's night off is the one nearest such a day.
FIXED_HOLIDAYS = ((1, 1, "New Year's Day"), (5, 1, "Labour Day"), (8, 9, "National Day"), (12, 25, "Christmas Day"))


def night_off(days: list) -> tuple:
    """The night off among the nights to come, and why: the night on a public holiday or nearest one (within
    three days, so in the holiday's week), else one a month ahead with the venue closed."""
    for day in days:
        for year in (day.year - 1, day.year, day.year + 1):
            for month, of_month, name in FIXED_HOLIDAYS:
                holiday = date(year, month, of_month)
                if holiday == day:
                    return day, f"{name}, a public holiday"
                if abs((holiday - day).days) <= 3:
                    return day, f"No club night in the week of {name} ({holiday:%-d %b})"
    return days[min(3, len(days) - 1)], "Venue closed"


# One demo club's own rule book: club-play relaxations of the association's tournament rules, written for the demo in
# the site's own words after a club's published rules (tournament rules, relaxed at club nights).
CLUB_BOOK_CLUB = "jurong-green"
CLUB_BOOK = """Club nights follow the association's tournament rules, relaxed as below. At the club's own tournaments
the association's rules apply in full.

1. **Clocks.** The club director says at the start of the night whether games are played on clocks. Use one when
   there are enough to go round.
2. **Without a clock.** A game lasts 50 minutes. With 5 minutes or less to go, a move takes at most 2 minutes; at
   50 minutes, a game with tiles left in the bag ends at once (each player subtracts the tiles on their rack), and
   one with an empty bag goes on at 1 minute a move, timed by the opponent.
3. **Arriving late.** No game is forfeited for arriving late at a club night: the director pairs latecomers as
   they come.
4. **Challenges.** When a computer is at hand, the players may check a challenge on it themselves; the director
   settles any disagreement.
5. **Newcomers.** A newcomer may ask for a word to be looked up before playing it, in their first three nights.
"""


def load(stdout) -> None:
    rng = random.Random(30)
    staff = User.objects.filter(is_staff=True).order_by("pk").first()
    diana = Player.objects.filter(user__email="director@example.org").first()
    priya = Player.objects.filter(user__email="player@example.org").first()
    today = timezone.localdate()
    for club in Club.objects.filter(slug__in=PAGES).order_by("name"):
        setup = dict(PAGES[club.slug])
        weekday, starts_at = setup.pop("weekday"), setup.pop("starts_at")
        services.update_page(staff, club, **setup)
        members = list(Player.objects.filter(club=club, user__isnull=True).order_by("member_number"))
        director = diana if diana is not None and diana.club_id == club.pk else members.pop(0)
        for player, role in ((director, OfficerRole.DIRECTOR), (members[0], OfficerRole.SECRETARY),
                             (members[1], OfficerRole.TREASURER)):  # fmt: skip
            services.appoint_officer(staff, club, player, role)
        # The club director keeps the door when they have an account; otherwise association staff did.
        keeper = director.user if director.user_id else staff
        if club.slug == CLUB_BOOK_CLUB:
            _publish_club_book(club, keeper, today)
        last_held = today - timedelta(days=(today.weekday() - weekday) % 7 or 7)
        first = last_held - timedelta(weeks=HELD - 1)
        holiday, why = night_off([first + timedelta(weeks=HELD + n) for n in range(TO_COME)])
        series = services.plan_series(
            staff,
            club,
            frequency="weekly",
            first_on=first,
            last_on=first + timedelta(weeks=HELD + TO_COME - 1),
            exceptions=[(holiday, why)],
            title="Club night",
            starts_at=starts_at,
            ends_at=time(22, 30),
            venue=setup["venue"],
            member_fee=Decimal("5.00"),
            guest_fee=Decimal("8.00"),
        )
        for night in series.nights.filter(on__lt=today).order_by("on"):
            regulars = rng.sample(members, min(len(members), rng.randint(5, 9)))
            if night.club_id == getattr(priya, "club_id", None) and rng.random() < 0.6:
                regulars.append(priya)
            for player in regulars:
                attendance = services.check_in(keeper, night, player)
                if rng.random() < 0.9:  # a few still owe the night's fee
                    method = rng.choice([Method.IN_PERSON, Method.PAYNOW])
                    services.record_fee(keeper, attendance, method, received_on=night.on)
            if rng.random() < 0.4:
                name, email = rng.choice(GUESTS)
                guest = services.check_in_guest(keeper, night, full_name=name, email=email, guest_of=regulars[0])
                services.record_fee(keeper, guest, Method.PAYNOW, received_on=night.on)
        if priya is not None and priya.club_id == club.pk:
            upcoming = series.nights.filter(on__gte=today).exclude(on=holiday).order_by("on").first()
            services.answer(priya.user, upcoming, coming=True, guests=1)
    stdout.write(f"Club life: {HELD} nights held and {TO_COME} to come at each demo club.")


def _publish_club_book(club, director, today) -> None:
    """The club's director publishes its club-play rules, amending the association's tournament rules when the rule
    books' demo is loaded."""
    amends = RuleBook.objects.filter(association=club.association, club__isnull=True).order_by("position").first()
    title = f"{club.name}: club-play rules"
    rule_books.publish_club_book(director, club, title=title, based_on=amends, text=CLUB_BOOK, effective_on=today)
