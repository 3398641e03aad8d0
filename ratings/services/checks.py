"""What may be rated: an event must be rated, on a list, with every result confirmed."""

from __future__ import annotations

from clubsite.kit.errors import ServiceError
from events.models import Event
from events.play.models import Game, GameStatus

from ..models import RatingList

# Unconfirmed games named in a refusal, at most.
MAX_LISTED_GAMES = 20


class RatingError(ServiceError):
    pass


def check_rateable(event: Event) -> RatingList:
    if not event.rated:
        raise RatingError(f"{event.title} is not a rated event.")
    if not event.rating_list_id:
        raise RatingError(f"{event.title} has no rating list: choose one before rating it.", field="rating_list")
    return event.rating_list


def _unconfirmed(event_ids: list[int]):
    return Game.objects.filter(division__event_id__in=event_ids).exclude(status=GameStatus.CONFIRMED)


def unconfirmed_games(event_ids: list[int], limit: int | None = None) -> list[str]:
    """The games of these events whose results are not confirmed, one line each."""
    rows = (
        _unconfirmed(event_ids)
        .select_related("division__event", "player_a", "player_b")
        .order_by("division__event__starts_on", "division__position", "division__name", "round_number", "board", "pk")
    )[:limit]
    lines = []
    for g in rows:
        opponent = g.player_b.name if g.player_b_id else g.get_kind_display().lower()
        prefix = f"{g.division.event.title}, " if len(event_ids) > 1 else ""
        lines.append(
            f"{prefix}division {g.division.name} round {g.round_number}: "
            f"{g.player_a.name} v {opponent} ({g.get_status_display().lower()})"
        )
    return lines


def refuse_unconfirmed(event_ids: list[int]) -> None:
    count = _unconfirmed(event_ids).count()
    if not count:
        return
    shown = "; ".join(unconfirmed_games(event_ids, MAX_LISTED_GAMES))
    more = f"; and {count - MAX_LISTED_GAMES} more" if count > MAX_LISTED_GAMES else ""
    raise RatingError(
        f"{count} result{'s are' if count != 1 else ' is'} not confirmed, so this cannot be rated yet: {shown}{more}."
    )
