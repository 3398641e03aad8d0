from django.core.management.base import CommandError

from events.models import Event
from events.play.models import Division
from players.models import User


def command_user(email: str | None) -> User:
    """Commands act as a named staff account (default: the first superuser)."""
    users = User.objects.filter(is_staff=True)
    user = (
        users.filter(email__iexact=email).first() if email else users.filter(is_superuser=True).order_by("pk").first()
    )
    if user is None:
        raise CommandError("No staff account to act as: create a superuser or pass --as EMAIL of a staff member.")
    return user


def find_division(event_slug: str, name: str | None) -> Division:
    event = Event.objects.filter(slug=event_slug).first()
    if event is None:
        raise CommandError(f"No event with slug {event_slug!r}.")
    divisions = list(event.divisions.all())
    if name is None and len(divisions) == 1:
        return divisions[0]
    match = [d for d in divisions if d.name.lower() == (name or "").lower()]
    if not match:
        names = ", ".join(d.name for d in divisions) or "none"
        raise CommandError(
            f"Give --division: one of {names}."
            if name is None
            else f"{event} has no division {name!r} (it has: {names})."
        )
    return match[0]
