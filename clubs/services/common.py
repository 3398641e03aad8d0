from clubsite.kit.errors import NotAllowed, ServiceError

from ..models import ClubNight
from ..permissions import may_run_club


class ClubError(ServiceError):
    """A refusal about a club, its officers or its nights."""


def lock_night(night_id: int) -> ClubNight:
    """The night, locked until the transaction ends: every change to its attendance takes this lock first."""
    night = ClubNight.objects.select_for_update(of=("self",)).select_related("club").filter(pk=night_id).first()
    if night is None:
        raise ClubError("That club night is no longer there.")
    return night


def require_director(actor, club) -> None:
    if not may_run_club(actor, club):
        raise NotAllowed(f"Only the club director of {club.name} or association staff can do this.")
