"""Background work for events: mail, the registration clock (lapses, offers, opening and closing), and the
live ratings worked out again after a result changes."""

from celery import shared_task

from outbox.tasks import WritesToOutbox


@shared_task(base=WritesToOutbox)
def send_event_email(subject: str, body: str, to: list[str]) -> int:
    """Writes one outbox message per recipient (`.delay` runs here: no broker needed); returns how many."""
    from outbox.services import queue_email

    return len(queue_email(to, subject, body))


@shared_task
def lapse_unpaid_entries() -> int:
    """Unpaid entries past their hold time lapse; their places go to the waiting list."""
    from . import services

    return services.lapse_unpaid_entries()


@shared_task
def expire_offers() -> int:
    """Offers from the waiting list not taken in time expire and pass on to the next in line."""
    from . import services

    return services.expire_offers()


@shared_task
def remind_expiring_offers() -> int:
    """Warns people whose offered place is about to expire."""
    from . import services

    return services.remind_expiring_offers()


@shared_task
def sync_event_statuses() -> int:
    """Opens and closes registration at the times the events set."""
    from . import services

    return services.sync_event_statuses()


@shared_task
def refresh_live_ratings(division_id: int) -> None:
    """Works out a division's live ratings after its results changed, into the cache the play pages read
    (events.play.services.live.refresh_after_commit). Safe to run twice: the second finds them cached."""
    from .models import Division
    from .play.services.live import division_live_ratings

    division = Division.objects.select_related("event__rating_list").filter(pk=division_id).first()
    if division is not None:
        division_live_ratings(division)
