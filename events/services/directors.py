"""Who directs an event: the organiser names and removes its tournament directors."""

from allauth.account.models import EmailAddress
from django.db import transaction

from players.models import Player, User

from ..models import (
    Event,
    EventStatus,
)
from .common import EventError, lock_event, require_manager


def set_directors(actor, event: Event, users) -> Event:
    with transaction.atomic():
        event = lock_event(event.pk)
        require_manager(actor, event, "choose its directors")
        event.directors.set(users)
    return event


def account_for(who: str) -> User | None:
    """The account with this member number or email address (a verified address first), or None."""
    who = (who or "").strip()
    if not who:
        return None
    if who.isdigit():
        player = Player.objects.filter(member_number=int(who), user__isnull=False).select_related("user").first()
        return player.user if player else None
    address = EmailAddress.objects.filter(email__iexact=who).select_related("user").order_by("-verified", "pk").first()
    if address:
        return address.user
    return User.objects.filter(email__iexact=who, is_active=True).order_by("pk").first()


def add_director(actor, event: Event, who: str) -> User:
    """The organiser names a tournament director by member number or email address of their account."""
    with transaction.atomic():
        event = lock_event(event.pk)
        require_manager(actor, event, "choose its directors")
        if event.status in (EventStatus.COMPLETED, EventStatus.CANCELLED):
            raise EventError(f"A {event.get_status_display().lower()} event needs no more directors.", field="who")
        if not (who or "").strip():
            raise EventError("Enter a member number or an email address.", field="who")
        user = account_for(who)
        if user is None or not user.is_active:
            raise EventError(f"No account has the member number or email address {who.strip()}.", field="who")
        name = user.get_full_name() or user.email
        if user.pk == event.owner_id:
            raise EventError(f"{name} organises this event and may already direct it.", field="who")
        if event.directors.filter(pk=user.pk).exists():
            raise EventError(f"{name} already directs this event.", field="who")
        event.directors.add(user)
    return user


def remove_director(actor, event: Event, user_id: int) -> None:
    with transaction.atomic():
        event = lock_event(event.pk)
        require_manager(actor, event, "choose its directors")
        if not event.directors.filter(pk=user_id).exists():
            raise EventError("That person does not direct this event.")
        event.directors.remove(user_id)
