"""A club with its director and a night that has begun, with members at it: the ground of the play tests."""

from datetime import time, timedelta

from django.utils import timezone

from clubs.models import Attendance, AttendanceStatus, ClubNight, Officer, OfficerRole
from tests.factories import ClubFactory, PlayerFactory, UserFactory


def member(club, name: str, *, account: bool = True):
    return PlayerFactory(club=club, full_name=name, user=UserFactory() if account else None)


def club_night(club=None, *, days_ago: int = 0, players=()):
    club = club or ClubFactory()
    night = ClubNight.objects.create(
        club=club, on=timezone.localdate() - timedelta(days=days_ago), starts_at=time(19, 0)
    )
    for player in players:
        Attendance.objects.create(night=night, player=player, status=AttendanceStatus.CHECKED_IN)
    return night


def club_director(club, name: str = "Evan Cohen"):
    director = member(club, name)
    Officer.objects.create(club=club, player=director, role=OfficerRole.DIRECTOR)
    return director.user
