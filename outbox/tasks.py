"""The outbox's Celery tasks: send what is pending (queued once for a burst of mail), send one message (with
retries), and the periodic sweep."""

from celery import Task, shared_task
from django.utils import timezone

from . import services
from .models import MessageStatus


class WritesToOutbox(Task):
    """For mail tasks that only render a message and write it to the outbox. Queuing one runs it here and now:
    writing a row needs no broker (so a broker outage cannot break the caller), and the message is then sent
    by `deliver_message`. A worker that receives one (queued by an older release) runs it the same way."""

    def apply_async(self, args=None, kwargs=None, **options):
        return self.apply(args, kwargs)


@shared_task(bind=True, ignore_result=True, max_retries=services.MAX_ATTEMPTS)
def deliver_message(self, message_id: int) -> None:
    """Sends one message; a failure is recorded on it and retried after its back-off (the sweep retries too). Queued
    by earlier releases, one per message; kept so those still queued are sent."""
    message = services.deliver(message_id)
    if message and message.status == MessageStatus.FAILED and message.next_attempt_at:
        countdown = max((message.next_attempt_at - timezone.now()).total_seconds(), 1)
        raise self.retry(countdown=countdown)


@shared_task(ignore_result=True)
def send_due_messages() -> int:
    """Every minute (celery beat): messages whose task was never queued, and failed ones due for a retry."""
    return services.send_due()
