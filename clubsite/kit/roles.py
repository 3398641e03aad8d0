"""Who may do what. Every write checks these on the server.

- association staff (`is_staff`): everything;
- organisers: members of the "Organisers" group create events and manage the events they own;
- tournament directors: the events that name them;
- players: their own records.
"""

ORGANISERS_GROUP = "Organisers"


def is_association_staff(user) -> bool:
    return bool(user and user.is_authenticated and (user.is_staff or user.is_superuser))


def is_organiser(user) -> bool:
    if not (user and user.is_authenticated):
        return False
    if is_association_staff(user):
        return True
    # Cached on the user object: navigation asks on every page.
    if not hasattr(user, "_is_organiser"):
        user._is_organiser = user.groups.filter(name=ORGANISERS_GROUP).exists()
    return user._is_organiser


def player_of(user):
    """The player record linked to this account, or None."""
    if not (user and user.is_authenticated):
        return None
    return getattr(user, "player", None)
