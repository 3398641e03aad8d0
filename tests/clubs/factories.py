"""A club with its officers and members, made as people would (officers appointed through the services)."""

from dataclasses import dataclass
from datetime import date, time, timedelta
from decimal import Decimal

from django.utils import timezone

from clubs import services
from clubs.models import OfficerRole
from players.models import Membership, MembershipType
from tests.factories import ClubFactory, PlayerFactory, UserFactory, confirmed


def member_of(club, *, account: bool = True, **fields):
    """A member of `club` (a current membership of its association), with a confirmed account unless told not."""
    user = confirmed(UserFactory()) if account else None
    player = PlayerFactory(user=user, email=user.email if user else "", club=club, **fields)
    Membership.objects.create(
        player=player,
        association=club.association,
        type=MembershipType.ORDINARY,
        starts_on=timezone.localdate() - timedelta(days=30),
        expires_on=timezone.localdate() + timedelta(days=335),
    )
    return player


@dataclass
class ClubWorld:
    club: object
    director: object  # a Player, with .user
    treasurer: object
    member: object


def club_with_officers(staff, club=None, **club_fields) -> ClubWorld:
    """A club with a director and a treasurer (appointed by `staff`) and one more member."""
    club = club or ClubFactory(**club_fields)
    director = member_of(club, full_name="Dora Director")
    treasurer = member_of(club, full_name="Toby Treasurer")
    member = member_of(club, full_name="Mei Member")
    services.appoint_officer(staff, club, director, OfficerRole.DIRECTOR)
    services.appoint_officer(staff, club, treasurer, OfficerRole.TREASURER)
    return ClubWorld(club, director, treasurer, member)


def next_weekday(weekday: int, today: date | None = None) -> date:
    """The next day with this weekday (0 Monday), today included."""
    today = today or timezone.localdate()
    return today + timedelta(days=(weekday - today.weekday()) % 7)


def weekly_series(actor, club, *, first_on=None, weeks: int = 6, off=(), member_fee="5.00", guest_fee="8.00"):
    # The first night is today: the door opens only on the night's day.
    first_on = first_on or timezone.localdate()
    return services.plan_series(
        actor,
        club,
        frequency="weekly",
        first_on=first_on,
        last_on=first_on + timedelta(weeks=weeks - 1),
        exceptions=[(day, "Public holiday") for day in off],
        starts_at=time(19, 0),
        ends_at=time(22, 0),
        venue="Community Club, Room 2",
        member_fee=Decimal(member_fee),
        guest_fee=Decimal(guest_fee),
    )
