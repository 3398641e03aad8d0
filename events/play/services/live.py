"""Live ratings on the play pages: while a division of a rated event is being played, each player's
rating if the event ended now (ratings.services.live_ratings, which rates as a run would)."""

from __future__ import annotations

from clubsite.tasks import enqueue
from events.models import Division
from events.tasks import refresh_live_ratings
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


def refresh_after_commit(division: Division) -> None:
    """Once the caller's change to the division's results commits, its live ratings are worked out again in
    the background (`events.tasks.refresh_live_ratings`), so whoever looks next, a player refreshing the
    standings, finds them ready rather than waiting for them (a 300-player division: about 10 ms). Nothing
    is lost if the task never runs: the next page works them out itself."""
    event = division.event
    if division.finalised_at is None and event.rated and event.rating_list_id:
        enqueue(refresh_live_ratings, division.pk)
