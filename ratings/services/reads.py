"""Reading ratings at a point in time."""

from __future__ import annotations

from datetime import date

from django.db.models import Q

from ..models import PlayerRating, RatingList
from .compute import states_before


def ratings_as_of(
    rating_list: RatingList, day: date, player_ids: list[int] | None = None
) -> dict[int, tuple[int, int]]:
    """(rating, career games) of players on the list at the start of `day` (events that began
    before it), e.g. for placing entrants in divisions by rating. Unrated players are absent."""
    states, _ = states_before(
        rating_list,
        Q(event_date__gte=day),
        set(player_ids)
        if player_ids is not None
        else set(PlayerRating.objects.filter(rating_list=rating_list).order_by().values_list("player_id", flat=True)),
    )
    return {
        pid: (s.rating, s.games) for pid, s in states.items() if s.rating and (player_ids is None or pid in player_ids)
    }
