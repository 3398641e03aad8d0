"""Every write of club life, each owning its transaction, locks, checks and refusals: officers and the club's page
(officers), series of nights and their exceptions (nights), saying one is coming (rsvp), the door: check-in, guests
and session fees (door); and what a night took (takings, read only)."""

from .common import ClubError
from .door import check_in, check_in_guest, likely_guests, record_fee, session_reference
from .nights import add_exception, plan_series
from .officers import appoint_officer, remove_officer, update_page
from .rsvp import answer
from .takings import NightTakings, takings

__all__ = [
    "ClubError",
    "NightTakings",
    "add_exception",
    "answer",
    "appoint_officer",
    "check_in",
    "check_in_guest",
    "likely_guests",
    "plan_series",
    "record_fee",
    "remove_officer",
    "session_reference",
    "takings",
    "update_page",
]
