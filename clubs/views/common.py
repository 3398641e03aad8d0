from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q, Sum
from django.shortcuts import get_object_or_404

from players.models import Club

from .. import core
from ..models import AttendanceStatus, ClubNight

# Members who said they are coming, checked in since or not, and the guests they said they bring.
SAID_COMING = Q(
    attendances__is_guest=False, attendances__status__in=[AttendanceStatus.COMING, AttendanceStatus.CHECKED_IN]
)


def with_coming(nights):
    """`nights` annotated with who said they are coming; each gets its `coming_text` once listed (with_coming_text)."""
    return nights.annotate(
        coming=Count("attendances", filter=SAID_COMING), coming_guests=Sum("attendances__guests", filter=SAID_COMING)
    )


def with_coming_text(nights: list) -> list:
    for night in nights:
        night.coming_text = core.coming_text(night.coming, night.coming_guests or 0)
    return nights


def club_or_404(slug: str) -> Club:
    return get_object_or_404(Club.objects.select_related("association"), slug=slug)


def night_or_404(club: Club, pk: int) -> ClubNight:
    night = get_object_or_404(ClubNight.objects.select_related("series"), club=club, pk=pk)
    night.club = club
    return night


def require(allowed: bool) -> None:
    """A page of a club's officers: 403 for anyone else (the services refuse their writes the same way)."""
    if not allowed:
        raise PermissionDenied("Only the club's officers or association staff can open this page.")
