"""A member's own entries: the one rule for "my entries", asked by the my-entries page, the account page,
the API (`/api/my/entries/`) and the payments a member pays for."""

from django.db.models import Case, F, Q, QuerySet, Value, When
from django.utils import timezone

from clubsite.kit.roles import player_of

from ..models import Entry, GroupEntry


def upcoming_first(event: str = "") -> tuple:
    """The order of a member's events (or of their entries: `event="event__"`): events not yet over first, soonest
    first; then past ones, latest first. My entries and My events list them so."""
    upcoming = Q(**{f"{event}ends_on__gte": timezone.localdate()})
    return (
        Case(When(upcoming, then=Value(0)), default=Value(1)),
        Case(When(upcoming, then=F(f"{event}starts_on"))).asc(),
        F(f"{event}starts_on").desc(),
    )


def own_entries(user, *, entered_for_others: bool = False) -> QuerySet[Entry]:
    """The entries `user` made: their own (as the player) and those in the group entries they submitted;
    with `entered_for_others`, also those they entered for someone else (what they pay for).

    The member's player and group entries are read first (two small queries): the same condition written
    across the joins (`player__user=user | group__submitted_by=user`) makes PostgreSQL read every entry."""
    if not (user and user.is_authenticated):
        return Entry.objects.none()
    player = player_of(user)
    groups = list(GroupEntry.objects.filter(submitted_by=user).values_list("pk", flat=True))
    mine = Q(player_id__in=[player.pk] if player else []) | Q(group_id__in=groups)
    if entered_for_others:
        mine |= Q(entered_by=user)
    return Entry.objects.filter(mine)
