"""A member says whether they are coming to a club night, and how many guests they bring."""

from django.db import transaction
from django.utils import timezone

from clubsite.kit.errors import NotAllowed
from clubsite.kit.roles import player_of
from clubsite.kit.status import move

from ..models import Attendance, AttendanceStatus, NightStatus
from .common import ClubError, lock_night


@transaction.atomic
def answer(user, night, *, coming: bool, guests: int = 0) -> Attendance:
    """The signed-in member's answer for `night` (said again, it replaces the last one)."""
    player = player_of(user)
    if player is None:
        raise NotAllowed("Sign in with your member record to say you are coming.")
    night = lock_night(night.pk)
    if player.club_id != night.club_id:
        raise ClubError(f"Members of {night.club.name} say they are coming; visitors are welcome at the door.")
    if night.status != NightStatus.SCHEDULED:
        raise ClubError(f"The club night of {night.on:%-d %B %Y} is off.")
    if night.on < timezone.localdate():
        raise ClubError(f"The club night of {night.on:%-d %B %Y} is over.")
    if isinstance(guests, bool) or not isinstance(guests, int) or not 0 <= guests <= Attendance.MAX_GUESTS:
        raise ClubError(f"Bring from 0 to {Attendance.MAX_GUESTS} guests.", field="guests")
    attendance = Attendance.objects.filter(night=night, player=player).first()
    target = AttendanceStatus.COMING if coming else AttendanceStatus.NOT_COMING
    if attendance is None:
        attendance = Attendance(night=night, player=player)
    elif attendance.status == AttendanceStatus.CHECKED_IN:
        raise ClubError("You are checked in at this night already.")
    if attendance.status != target or attendance._state.adding:
        move(attendance, target)
    attendance.guests = guests if coming else 0
    attendance.answered_at = timezone.now()
    attendance.save()
    return attendance
