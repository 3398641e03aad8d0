"""Writing mail to the outbox and sending it.

A message is written in the transaction of the change that causes it (`queue_email`). Once that commits, it is
sent by a Celery worker when a broker is configured (`dispatch` queues the drain task, which sends every pending
message over one mail connection; if the broker is down the request still succeeds and the periodic sweep sends it
later), or in-process after the response when there is no broker. A failed attempt is recorded on the message and
retried with a back-off; after the last attempt the message waits for staff to resend it from the admin. Nobody but
staff ever sees a sending error.
"""

import logging
import threading
import time
from collections.abc import Iterable
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from clubsite.kit.status import move, move_all

from .models import Drain, Message, MessageStatus

log = logging.getLogger(__name__)

# Minutes to wait after each failed attempt; after the last one the message waits for staff.
RETRY_MINUTES = (1, 5, 15, 60, 240)
MAX_ATTEMPTS = len(RETRY_MINUTES) + 1
# A new message becomes the sweep's after this long, in case its own task never ran (broker down at commit).
SWEEP_GRACE = timedelta(minutes=2)
SWEEP_BATCH = 100
# Messages the drain locks and sends per transaction, and its wait for more after a batch that was not full.
DRAIN_BATCH = 100
DRAIN_PAUSE = 0.2
# A drain queued this long ago that has not started is taken as lost (a worker died holding it): the next commit
# that writes mail queues another. Until then the sweep covers it.
DRAIN_LOST_AFTER = timedelta(minutes=1)
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
    """Right after commit: inside a worker, send now; with a broker, have the drain task send them; without one,
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
        request_drain()


def request_drain() -> bool:
    """Queues the drain task unless one is queued already and has not started (it reads the pending messages once it
    starts, so it will find these too); True when this call queued it. One read when one is queued: a burst of
    registrations costs the broker and the worker one task, not one per message. When the broker is down the
    messages wait for the sweep, and the next commit that writes mail tries the broker again."""
    from clubsite.kit.tasks import send

    moment = timezone.now()
    table = connection.ops.quote_name(Drain._meta.db_table)
    adapt = connection.ops.adapt_datetimefield_value
    with connection.cursor() as cursor:
        # Read first: through a burst a drain is queued, and the read writes nothing (the upsert takes the row's lock,
        # a write the database must flush to disk before answering).
        cursor.execute(f"SELECT 1 FROM {table} WHERE id = 1 AND queued_at >= %s", [adapt(moment - DRAIN_LOST_AFTER)])
        if cursor.fetchone():
            return False
        # Insert-or-update in one statement, so a missing row (a new or emptied database) needs no other query; of
        # two requests here at once, one claims it.
        cursor.execute(
            f"INSERT INTO {table} (id, queued_at) VALUES (1, %s) "
            f"ON CONFLICT (id) DO UPDATE SET queued_at = excluded.queued_at "
            f"WHERE {table}.queued_at IS NULL OR {table}.queued_at < %s",
            [adapt(moment), adapt(moment - DRAIN_LOST_AFTER)],
        )
        claimed = cursor.rowcount == 1
    if not claimed:
        return False
    if not send(drain_outbox):
        Drain.objects.filter(pk=1, queued_at=moment).update(queued_at=None)
        return False
    return True


def drain(limit: int = DRAIN_BATCH, pause: float = DRAIN_PAUSE) -> int:
    """Sends every pending message, oldest first, over one mail connection, `limit` at a time under their row locks
    (another drain skips them, so none is sent twice); returns how many went out. Failed ones wait for the sweep.

    While it finds mail it stays marked as queued, so the commits of a burst queue nothing more; after a batch that
    was not full it waits `pause` seconds for more to gather. Finding none, it clears the mark and looks once more:
    a commit that saw the mark just before is read then, and any later one queues the next drain."""
    mailer = get_connection()
    sent, cleared = 0, False
    try:
        while True:
            found, delivered = _drain_batch(mailer, limit)
            sent += delivered
            if found == limit:
                continue
            if found:
                time.sleep(pause)
            elif cleared:
                break
            else:
                Drain.objects.filter(pk=1).update(queued_at=None)
                cleared = True
    finally:
        _close(mailer)
    return sent


def _drain_batch(mailer, limit: int) -> tuple[int, int]:
    """Up to `limit` pending messages sent in one transaction: (how many were found, how many went out)."""
    with transaction.atomic():
        batch = list(
            Message.objects.select_for_update(skip_locked=True)
            .filter(status=MessageStatus.PENDING)
            .order_by("pk")[:limit]
        )
        delivered = [m.pk for m in batch if _attempt(m, mailer)]
        for message in batch:
            if message.status == MessageStatus.FAILED:
                message.save(update_fields=_ATTEMPT_FIELDS)
        if delivered:
            # One statement for those sent (locked, each moved along its transitions by _attempt, so all move).
            move_all(
                Message.objects.filter(pk__in=delivered),
                MessageStatus.SENT,
                only_movable=True,
                attempts=F("attempts") + 1,
                next_attempt_at=None,
                sent_at=timezone.now(),
            )
    return len(batch), len(delivered)


def _close(mailer) -> None:
    try:
        mailer.close()
    except Exception:  # a connection that fails to close is dropped all the same
        log.warning("outbox: closing the mail connection failed", exc_info=True)


def deliver_all(ids: Iterable[int]) -> int:
    """Sends the given messages here and now; returns how many went out."""
    sent = 0
    for message_id in ids:
        message = deliver(message_id)
        sent += bool(message and message.status == MessageStatus.SENT)
    return sent


_ATTEMPT_FIELDS = ["status", "attempts", "last_error", "next_attempt_at", "sent_at"]


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
        _attempt(message)
        message.save(update_fields=_ATTEMPT_FIELDS)
    return message


def _attempt(message: Message, mailer=None) -> bool:
    """One attempt at sending a locked message, recorded on it (the caller saves); whether it went out."""
    message.attempts += 1
    try:
        _send(message, mailer)
    except Exception as error:
        _record_failure(message, error)
        if mailer is not None:
            _close(mailer)  # a broken connection is not reused: the next message opens a new one
        return False
    move(message, MessageStatus.SENT)
    message.sent_at = timezone.now()
    message.next_attempt_at = None
    return True


def _send(message: Message, mailer=None) -> None:
    if mailer is not None:
        mailer.open()  # nothing when open already: the batch shares one connection
    email = EmailMultiAlternatives(
        message.subject,
        message.body,
        message.from_email or settings.DEFAULT_FROM_EMAIL,
        [message.to],
        reply_to=[message.reply_to] if message.reply_to else None,
        connection=mailer,
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
        move_all(
            Message.objects.filter(pk__in=chosen),
            MessageStatus.PENDING,
            attempts=0,
            next_attempt_at=timezone.now() + SWEEP_GRACE,
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


# Beside the service that queues it, so the two do not import each other; named as queued messages name it.
@shared_task(name="outbox.tasks.drain_outbox", ignore_result=True)
def drain_outbox() -> int:
    """Sends every pending message over one mail connection; failures wait for the sweep's retries."""
    return drain()
