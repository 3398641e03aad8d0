"""Who may run a club: the one role check every door asks (pages, the API, the money ledger's session-fee kind).

- association staff hold every role of every club;
- a member who is a club's officer holds that role there (clubs.models.Officer), and only there;
- the club director runs the club: its page, officers, nights, the door and its results;
- the treasurer sees the club's takings and records session fees, as the director does;
- the secretary keeps the club's page.
"""

from clubsite.kit.roles import is_association_staff, player_of

from .models import Officer, OfficerRole

RUNS = (OfficerRole.DIRECTOR,)
KEEPS_PAGE = (OfficerRole.DIRECTOR, OfficerRole.SECRETARY)
KEEPS_MONEY = (OfficerRole.DIRECTOR, OfficerRole.TREASURER)


def has_club_role(user, club, *roles: str) -> bool:
    """Whether `user` holds one of `roles` in `club` (staff hold them all). Cached on the user per club: a page
    asks several times."""
    if not (user and user.is_authenticated) or club is None:
        return False
    if is_association_staff(user):
        return True
    cache = user.__dict__.setdefault("_club_roles", {})
    club_id = getattr(club, "pk", club)
    if club_id not in cache:
        player = player_of(user)
        cache[club_id] = (
            set(Officer.objects.filter(club_id=club_id, player=player).values_list("role", flat=True))
            if player is not None
            else set()
        )
    return bool(cache[club_id] & set(roles))


def may_run_club(user, club) -> bool:
    return has_club_role(user, club, *RUNS)


def may_keep_page(user, club) -> bool:
    return has_club_role(user, club, *KEEPS_PAGE)


def may_keep_money(user, club) -> bool:
    return has_club_role(user, club, *KEEPS_MONEY)


def clubs_run_by(user) -> list[int]:
    """The ids of the clubs where `user` holds an office (for My account's links)."""
    player = player_of(user)
    if player is None:
        return []
    return sorted(set(Officer.objects.filter(player=player).values_list("club_id", flat=True)))
