"""Live ratings on the play pages: while a division of a rated event is being played, each player's
rating if the event ended now (ratings.services.live_ratings, which rates as a run would)."""

from __future__ import annotations

from events.models import Division
from ratings.services import LiveRatings, live_ratings


def division_live_ratings(division: Division) -> LiveRatings | None:
    """The division's live ratings while it is played: for a rated event on a rating list, until the
    division is final (then the rating run gives the real ratings). None otherwise."""
    if division.finalised_at is not None:
        return None
    event = division.event
    if not (event.rated and event.rating_list_id):
        return None
    return live_ratings(division)
