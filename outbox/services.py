"""Writing mail to the outbox and sending it.

A message is written in the transaction of the change that causes it (`queue_email`). Once that commits, it is
sent by a Celery worker when a broker is configured (`dispatch` queues its task; if the broker is down the
request still succeeds and the periodic sweep sends it later), or in-process after the response when there is
no broker. A failed attempt is recorded on the message and retried with a back-off; after the last attempt the
message waits for staff to resend it from the admin. Nobody but staff ever sees a sending error.
"""

import logging
import threading
import time
from collections.abc import Iterable
from datetime import timedelta

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.utils import timezone

from clubsite.status import move

from .models import Message, MessageStatus

log = logging.getLogger(__name__)

# Minutes to wait after each failed attempt; after the last one the message waits for staff.
RETRY_MINUTES = (1, 5, 15, 60, 240)
MAX_ATTEMPTS = len(RETRY_MINUTES) + 1
# A new message becomes the sweep's after this long, in case its own task never ran (broker down at commit).
SWEEP_GRACE = timedelta(minutes=2)
SWEEP_BATCH = 100
_last_request_sweep = 0.0
_request = threading.local()


def queue_email(
    to: Iterable[str], subject: str, body: str, *, html: str = "", from_email: str = "", reply_to: str = ""
) -> list[int]:
    """Writes one message per distinct recipient in the caller's transaction; they are sent after it commits."""
    recipients = _distinct(to)
    if not recipients:
        return []
    moment = timezone.now()
    ids = [
        Message.objects.create(
            to=address,
            from_email=from_email or "",
            reply_to=reply_to or "",
            subject=subject,
            body=body,
            html=html or "",
            created_at=moment,
            next_attempt_at=moment + SWEEP_GRACE,
        ).pk
        for address in recipients
    ]
    transaction.on_commit(lambda: dispatch(ids), robust=True)
    return ids


def _distinct(addresses: Iterable[str]) -> list[str]:
    seen: dict[str, str] = {}
    for address in addresses:
        address = (address or "").strip()
        if address:
            seen.setdefault(address.lower(), address)
    return sorted(seen.values(), key=str.lower)


def _celery():
    from clubsite.celery import app

    return app


def dispatch(ids: list[int]) -> None:
    """Right after commit: inside a worker, send now; with a broker, queue a task per message; without one,
    send after the response (or now, outside a request)."""
    app = _celery()
    if app.current_worker_task is not None:
        deliver_all(ids)
    elif app.conf.task_always_eager:
        if getattr(_request, "active", False):
            _request.deferred.extend(ids)
        else:
            deliver_all(ids)
    else:
        publish(ids)


def publish(ids: list[int]) -> bool:
    """Queues a sending task per message; False (and the messages wait for the sweep) when the broker is down."""
    from clubsite.tasks import send_each

    from .tasks import deliver_message

    return send_each(deliver_message, [((message_id,), {}) for message_id in ids])


def deliver_all(ids: Iterable[int]) -> int:
    """Sends the given messages here and now; returns how many went out."""
    sent = 0
    for message_id in ids:
        message = deliver(message_id)
        sent += bool(message and message.status == MessageStatus.SENT)
    return sent


def deliver(message_id: int) -> Message | None:
    """Sends one message unless it is sent or given up already. Holds the message's row lock while sending, so two
    workers (or a task and the sweep) never both send it; returns None when there was nothing to do."""
    with transaction.atomic():
        message = (
            Message.objects.select_for_update(skip_locked=True)
            .filter(pk=message_id, status__in=[MessageStatus.PENDING, MessageStatus.FAILED])
            .exclude(status=MessageStatus.FAILED, next_attempt_at__isnull=True)
            .first()
        )
        if message is None:
            return None
        message.attempts += 1
        try:
            _send(message)
        except Exception as error:
            _record_failure(message, error)
        else:
            move(message, MessageStatus.SENT)
            message.sent_at = timezone.now()
            message.next_attempt_at = None
        message.save(update_fields=["status", "attempts", "last_error", "next_attempt_at", "sent_at"])
    return message


def _send(message: Message) -> None:
    email = EmailMultiAlternatives(
        message.subject,
        message.body,
        message.from_email or settings.DEFAULT_FROM_EMAIL,
        [message.to],
        reply_to=[message.reply_to] if message.reply_to else None,
    )
    if message.html:
        email.attach_alternative(message.html, "text/html")
    email.send()


def _record_failure(message: Message, error: Exception) -> None:
    move(message, MessageStatus.FAILED)
    message.last_error = f"{type(error).__name__}: {error}"[:2000]
    if message.attempts < MAX_ATTEMPTS:
        wait = RETRY_MINUTES[message.attempts - 1]
        message.next_attempt_at = timezone.now() + timedelta(minutes=wait)
        log.warning(
            "outbox: message %s to %s failed (attempt %d), retrying in %d min: %s",
            message.pk, message.to, message.attempts, wait, message.last_error,
        )  # fmt: skip
    else:
        message.next_attempt_at = None
        log.error(
            "outbox: message %s to %s failed %d times, waiting for staff to resend it: %s",
            message.pk, message.to, message.attempts, message.last_error,
        )  # fmt: skip


def send_due(limit: int = SWEEP_BATCH) -> int:
    """The sweep: sends messages whose task never ran (broker down) and retries failed ones that are due."""
    due = (
        Message.objects.filter(
            status__in=[MessageStatus.PENDING, MessageStatus.FAILED], next_attempt_at__lte=timezone.now()
        )
        .order_by("next_attempt_at", "pk")
        .values_list("pk", flat=True)
    )
    return deliver_all(list(due[:limit]))


def resend(ids: Iterable[int]) -> int:
    """Staff's resend: failed messages start afresh and are sent the usual way; returns how many."""
    with transaction.atomic():
        chosen = list(
            Message.objects.select_for_update()
            .filter(pk__in=list(ids), status=MessageStatus.FAILED)
            .values_list("pk", flat=True)
        )
        Message.objects.filter(pk__in=chosen).update(
            status=MessageStatus.PENDING, attempts=0, next_attempt_at=timezone.now() + SWEEP_GRACE
        )
        transaction.on_commit(lambda: dispatch(chosen), robust=True)
    return len(chosen)


# --- without a broker: after the response ------------------------------------------------------


def request_started(**kwargs) -> None:
    _request.active = True
    _request.deferred = []


def request_finished(**kwargs) -> None:
    """After the response has gone: send what this request wrote and, now and then, retry what is due."""
    global _last_request_sweep
    if not getattr(_request, "active", False):
        return
    ids, _request.deferred, _request.active = _request.deferred, [], False
    sweep = (
        getattr(settings, "OUTBOX_SWEEP_ON_REQUEST", True)
        and _celery().conf.task_always_eager
        and time.monotonic() - _last_request_sweep >= getattr(settings, "OUTBOX_SWEEP_EVERY", 60)
    )
    if not ids and not sweep:
        return
    try:
        deliver_all(ids)
        if sweep:
            _last_request_sweep = time.monotonic()
            send_due()
    except Exception:  # the response is gone; never let mail break the server
        log.exception("outbox: sending after the response failed")
