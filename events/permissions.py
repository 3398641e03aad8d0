"""Who may manage or direct an event. Services check these on every write."""

from players.roles import is_association_staff


def can_manage_event(user, event) -> bool:
    """Association staff and the organiser who owns the event."""
    if not (user and user.is_authenticated):
        return False
    return is_association_staff(user) or event.owner_id == user.id


def can_direct_event(user, event) -> bool:
    """Those who manage it, plus the tournament directors it names."""
    if can_manage_event(user, event):
        return True
    if not (user and user.is_authenticated):
        return False
    if hasattr(event, "_prefetched_objects_cache") and "directors" in event._prefetched_objects_cache:
        return any(d.pk == user.id for d in event.directors.all())
    return event.directors.filter(pk=user.id).exists()
