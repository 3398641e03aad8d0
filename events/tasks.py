"""Background work for events: mail, the registration clock (lapses, offers, opening and closing)."""

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
def forget_unconfirmed_guest_entries() -> int:
    """Entries given without an account and never confirmed are deleted a week after their link lapsed."""
    from . import services

    return services.forget_unconfirmed_guest_entries()
