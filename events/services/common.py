"""Pieces shared by the event services: errors, the clock, the event lock, emails through the outbox."""

from datetime import datetime

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.formats import date_format

from clubsite.kit.errors import NotAllowed, ServiceError
from clubsite.kit.prepared import Prepared

from ..models import Event
from ..permissions import can_manage_event


class EventError(ServiceError):
    """A refusal about an event's announcement or lifecycle."""


class RegistrationError(ServiceError):
    """A refusal about an entry, a payment or the waiting list."""


def now() -> datetime:
    """The server's clock (tests move it with time-machine)."""
    return timezone.now()


# Every write to an event or its entries takes the lock first: compiled once per connection.
LOCKED_EVENT = Prepared(lambda event_id: Event.objects.select_for_update().filter(pk=event_id).order_by(), int)


def lock_event(event_id: int) -> Event:
    """Re-reads the event holding its row lock until the transaction ends (every place count happens under it)."""
    return LOCKED_EVENT.get(event_id)


def require_manager(actor, event: Event, action: str = "manage this event") -> None:
    if not can_manage_event(actor, event):
        raise NotAllowed(f"Only the event's organiser or association staff can {action}.")


def local_text(event: Event, moment: datetime | None) -> str:
    """A moment as people at the event read it: in the event's time zone."""
    if moment is None:
        return ""
    return date_format(timezone.localtime(moment, event.zone), "j M Y, H:i") + f" ({event.time_zone})"


def site_url(path: str) -> str:
    return getattr(settings, "SITE_URL", "").rstrip("/") + path


def mail_after_commit(template: str, subject: str, to: list[str], context: dict, *, reply_to: str = "") -> None:
    """Renders now and writes one outbox message per recipient in the current transaction; they are sent once it
    commits (nothing for a rollback), and a failure to send never reaches the person who caused it."""
    from outbox.services import queue_email

    if not any(to):
        return
    body = render_to_string(template, {**context, "SITE_NAME": settings.SITE_NAME, "CURRENCY": settings.CURRENCY})
    queue_email(to, subject, body, reply_to=reply_to)
