"""Who may see a member's profile: one rule, asked by the directory, the member page, the rating
lists (page, CSV, API), the rating reports and the rating-history pages.

The rule:

- Rating lists, rating reports and results are the association's public record of rated play:
  every rated player appears there by name, club, country and rating.
- A member's *profile* (directory entry, member page, member number, rating-history page and
  chart) is public only while the member is *listed*: they opted in to the directory and, when
  they are under 18, a parent or guardian opted in as well. Without a date of birth a member at
  school counts as under 18.
- The member themselves and association staff always see the profile.
- A public list of an event's entrants names an under-18 only when a parent or guardian agreed:
  to the directory listing, or to this entry's listing when someone else entered them (a teacher's
  group entry asks). Otherwise it shows their initials and school (`entrant_name`).

Every door asks `visible_players` / `with_profile_visible` (querysets) or `can_see_profile`
(one player); the condition itself is written once, in `_listed`.
"""

from __future__ import annotations

from datetime import date

from django.db.models import BooleanField, ExpressionWrapper, Q, QuerySet, Value
from django.http import Http404
from django.utils import timezone

from clubsite.kit.roles import is_association_staff

from .models import Player, SchoolLevel

ADULT_AGE = 18


def adult_if_born_on_or_before(today: date | None = None) -> date:
    """The latest date of birth of someone who is 18 or older today (29 February counts as 1 March)."""
    today = today or timezone.localdate()
    try:
        return today.replace(year=today.year - ADULT_AGE)
    except ValueError:
        return today.replace(year=today.year - ADULT_AGE, month=2, day=28)


def is_minor(player: Player, today: date | None = None) -> bool:
    """Under 18 (or at school, with no date of birth recorded)."""
    if player.date_of_birth:
        return player.date_of_birth > adult_if_born_on_or_before(today)
    return player.school_level != SchoolLevel.NONE


def _listed(prefix: str = "", today: date | None = None) -> Q:
    """The one condition for a public profile, on Player fields reached through `prefix`."""

    def f(name: str) -> str:
        return prefix + name

    adult = Q(**{f("date_of_birth__lte"): adult_if_born_on_or_before(today)}) | Q(
        **{f("date_of_birth__isnull"): True, f("school_level"): SchoolLevel.NONE}
    )
    guardian_agreed = Q(**{f("guardian_opted_in_on__isnull"): False})
    return Q(**{f("listed_in_directory"): True}) & (adult | guardian_agreed)


def _visible_to(viewer, prefix: str = "", today: date | None = None) -> Q | None:
    """The condition for `viewer` (None: everything is visible)."""
    if is_association_staff(viewer):
        return None
    condition = _listed(prefix, today)
    if viewer is not None and getattr(viewer, "is_authenticated", False):
        condition |= Q(**{prefix + "user_id": viewer.pk})
    return condition


def visible_players(viewer, queryset: QuerySet[Player] | None = None) -> QuerySet[Player]:
    """The players whose profile `viewer` may see (the public directory for anyone else)."""
    queryset = Player.objects.all() if queryset is None else queryset
    condition = _visible_to(viewer)
    return queryset if condition is None else queryset.filter(condition)


def with_profile_visible(queryset: QuerySet, viewer, prefix: str = "player__") -> QuerySet:
    """Rows about players (ratings, rating changes) with `profile_visible`: whether `viewer` may see
    the row's member number and follow a link to the player's pages. Names and ratings are public."""
    condition = _visible_to(viewer, prefix)
    expression = Value(True) if condition is None else ExpressionWrapper(condition, output_field=BooleanField())
    return queryset.annotate(profile_visible=expression)


def can_see_profile(viewer, player: Player) -> bool:
    return visible_players(viewer, Player.objects.filter(pk=player.pk)).exists()


def initials(name: str) -> str:
    """ "T. W. L." for Tan Wei Ling."""
    return " ".join(f"{word[0].upper()}." for word in name.split() if word[:1].isalnum()) or "—"


def entrant_name(
    viewer, player: Player, *, name_listed: bool, school: str = "", sees_names: bool = False, today=None
) -> str:
    """How `viewer` sees an entrant on an event's list of entrants (page, API, CSV).

    `name_listed`: whoever entered them said a parent or guardian agreed to list the name (Entry.name_listed_on).
    `sees_names`: the viewer runs the event (its organisers), who see every name. The entrant themselves and
    association staff see it too; anyone else sees an under-18 by name only with a guardian's agreement, and
    otherwise as their initials and school."""
    if sees_names or is_association_staff(viewer) or not is_minor(player, today):
        return player.name
    if player.user_id and getattr(viewer, "pk", None) == player.user_id:
        return player.name
    if name_listed or player.guardian_opted_in_on is not None:
        return player.name
    school = school or player.school
    return (
        f"{initials(player.full_name)}, a student of {school}"
        if school
        else f"{initials(player.full_name)} (a student)"
    )


ENTRANT_FIELDS = (
    "full_name",
    "display_name",
    "date_of_birth",
    "school",
    "school_level",
    "guardian_opted_in_on",
    "user",
)
"""The player fields entrant_name reads: what a list of entrants loads."""


def visible_player_or_404(viewer, queryset: QuerySet[Player] | None = None, **lookup) -> Player:
    """The player found by `lookup`, or 404 when there is none or `viewer` may not see them
    (a hidden member looks exactly like a member number that does not exist)."""
    queryset = Player.objects.all() if queryset is None else queryset
    player = visible_players(viewer, queryset).filter(**lookup).first()
    if player is None:
        raise Http404("No such member")
    return player
