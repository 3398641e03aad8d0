from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404

from players.models import Club

from ..models import ClubNight


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
