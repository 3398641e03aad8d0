"""Who may do what. Every write checks these on the server.

- association staff (`is_staff`): everything;
- organisers: members of the "Organisers" group create events and manage the events they own;
- tournament directors: the events that name them;
- players: their own records.
"""

from django.core.cache import cache

ORGANISERS_GROUP = "Organisers"
# How long the menu trusts what it knows of a person's groups (a change through the models forgets it at once).
MENU_SECONDS = 60


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


def offers_my_events(user) -> bool:
    """Whether the menu offers "My events": `is_organiser`, kept in the cache a minute a person, as every page with
    the menu asks it (a query each, a tenth of a polled page drawn). Only the menu asks this: what an organiser
    may do is checked by `is_organiser` itself. A change of the person's groups forgets it (`forget_menu`)."""
    if not (user and user.is_authenticated):
        return False
    if is_association_staff(user):
        return True
    key = f"menu:organiser:{user.pk}"
    found = cache.get(key)
    if found is None:
        found = is_organiser(user)
        cache.set(key, found, MENU_SECONDS)
    return found


def forget_menu(sender, instance, action, reverse, pk_set, **kwargs) -> None:
    """m2m_changed of the accounts' groups: the people whose groups changed see the menu as it now is."""
    if action not in ("post_add", "post_remove", "pre_clear"):
        return
    if not reverse:
        users = [instance.pk]  # user.groups changed
    elif action == "pre_clear":
        users = list(instance.user_set.values_list("pk", flat=True))  # group.user_set.clear(): who is leaving
    else:
        users = list(pk_set or ())
    cache.delete_many([f"menu:organiser:{pk}" for pk in users])


def player_of(user):
    """The player record linked to this account, or None."""
    if not (user and user.is_authenticated):
        return None
    return getattr(user, "player", None)
