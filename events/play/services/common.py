"""What every play service shares: its errors, who may direct, the division lock."""

from __future__ import annotations

from clubsite.kit.errors import NotAllowed, ServiceError
from events.models import Event
from events.permissions import can_direct_event
from events.play.core import pairing
from events.play.models import Division


class PlayError(ServiceError):
    """A refusal about rounds, pairings or results."""


class PairingRefused(PlayError):
    """No pairing within the repeat limit; `best` is the least-repeat pairing, which may be accepted."""

    def __init__(self, message: str, best: pairing.PairingResult | None):
        super().__init__(message)
        self.best = best


def require_director(actor, event: Event) -> None:
    if not can_direct_event(actor, event):
        raise NotAllowed("Only the event's directors, its organiser or association staff can do this.")


def lock_division(division_id: int) -> Division:
    return Division.objects.select_for_update().select_related("event").get(pk=division_id)


def check_open(division: Division) -> None:
    if division.finalised_at:
        raise PlayError(f"{division.name} is finalised: its results are locked.")
