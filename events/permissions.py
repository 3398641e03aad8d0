"""Who may manage or direct an event. Services check these on every write."""

from clubsite.kit.hooks import collect
from clubsite.kit.roles import is_association_staff


def can_manage_event(user, event) -> bool:
    """Association staff and the organiser who owns the event."""
    if not (user and user.is_authenticated):
        return False
    return is_association_staff(user) or event.owner_id == user.id


def directs_club(user, club) -> bool:
    """Whether `user` directs `club` (players.Club). The club app knows its officers; it answers through its
    AppConfig hook `directs_club`, as events comes before it and may not import it."""
    if not (user and user.is_authenticated) or club is None:
        return False
    return any(collect("directs_club", user, club).get("directs_club", []))


def can_direct_event(user, event) -> bool:
    """Those who manage it, plus the tournament directors it names."""
    if can_manage_event(user, event):
        return True
    if not (user and user.is_authenticated):
        return False
    if hasattr(event, "_prefetched_objects_cache") and "directors" in event._prefetched_objects_cache:
        return any(d.pk == user.id for d in event.directors.all())
    return event.directors.filter(pk=user.id).exists()


def directed_events(user):
    """The events a person organises or directs: every event for association staff, none for a visitor. The one
    answer to "whose events are these?" for the My events page, the account page and the play API (one query)."""
    from .models import Event

    if not (user and user.is_authenticated):
        return Event.objects.none()
    if is_association_staff(user):
        return Event.objects.all()
    # Owned and directed found apart and united (each through its index; either condition on one scan of the events
    # reads every event), so an event owned and directed by the same person is listed once.
    owned = Event.objects.filter(owner=user).order_by().values("pk")
    directed = Event.directors.through.objects.filter(user=user).values("event_id")
    return Event.objects.filter(pk__in=owned.union(directed))
