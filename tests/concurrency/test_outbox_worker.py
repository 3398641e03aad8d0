"""A real Celery worker, against PostgreSQL and the real broker, sends mail from the outbox."""

import time
from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from clubsite.kit.tasks import resume_broker
from outbox import services
from outbox.models import Message, MessageStatus
from tests.concurrency.test_worker import worker  # noqa: F401

pytestmark = [pytest.mark.worker, pytest.mark.postgres]


@pytest.fixture
def site_queues_to_worker(worker):  # noqa: F811
    """The site's Celery app as in production (not eager, the real broker), its outbox tasks routed to the
    test worker's own queue."""
    from clubsite.celery import app

    client, queue, mail_dir, proc = worker
    amqp = app.amqp
    saved = (app.conf.task_always_eager, app.conf.broker_url, app.conf.task_routes, app._pool, amqp._producer_pool)
    app.conf.task_always_eager = False
    app.conf.broker_url = client.conf.broker_url
    app.conf.task_routes = {"outbox.tasks.*": {"queue": queue}}
    app._pool = amqp._producer_pool = None
    amqp.flush_routes()
    amqp.__dict__.pop("router", None)
    resume_broker()
    yield worker
    app.conf.task_always_eager, app.conf.broker_url, app.conf.task_routes, app._pool, amqp._producer_pool = saved
    amqp.flush_routes()
    amqp.__dict__.pop("router", None)


def wait_until_sent(ids, proc, timeout=90):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if Message.objects.filter(pk__in=ids, status=MessageStatus.SENT).count() == len(ids):
            return
        time.sleep(0.2)
    proc.terminate()
    output = proc.communicate(timeout=20)[0] or ""
    states = list(Message.objects.filter(pk__in=ids).values_list("status", "last_error"))
    raise AssertionError(f"not sent by the worker: {states}\n{output}")


def read_mail(mail_dir, expected):
    deadline = time.time() + 10
    while time.time() < deadline and len(list(mail_dir.glob("*"))) < expected:
        time.sleep(0.2)
    return "".join(p.read_text() for p in mail_dir.glob("*"))


def test_the_worker_sends_what_a_committed_change_wrote(site_queues_to_worker):
    client, queue, mail_dir, proc = site_queues_to_worker
    with transaction.atomic():
        ids = services.queue_email(["one@example.org", "two@example.org"], "Outbox by worker", "Hello")
    wait_until_sent(ids, proc)
    sent = read_mail(mail_dir, 1)
    assert "To: one@example.org\n" in sent and "To: two@example.org\n" in sent
    assert "one@example.org, two@example.org" not in sent  # never a shared To: line
    assert all(m.attempts == 1 and m.sent_at for m in Message.objects.filter(pk__in=ids))


def test_the_sweep_sends_what_was_written_while_the_broker_was_down(worker):  # noqa: F811
    client, queue, mail_dir, proc = worker
    stranded = Message.objects.create(
        to="stranded@example.org",
        subject="Written while the broker was down",
        body="Hello",
        next_attempt_at=timezone.now() - timedelta(seconds=1),
    )
    client.send_task("outbox.tasks.send_due_messages", queue=queue)
    wait_until_sent([stranded.pk], proc)
    assert "To: stranded@example.org" in read_mail(mail_dir, 1)
