"""With a broker, a burst of mail queues one drain task, not one per message; the drain sends every pending message
over one mail connection, each once, and leaves failures to the sweep."""

from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend
from django.db import transaction
from django.utils import timezone

from outbox import services
from outbox.models import Drain, Message, MessageStatus

pytestmark = pytest.mark.django_db


class Queued(list):
    up = True  # False: the broker is down


@pytest.fixture
def broker(monkeypatch):
    """Celery as in production (not eager); what would go to the broker is recorded instead."""
    from clubsite.celery import app
    from clubsite.kit import tasks

    queued = Queued()
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = False

    def send(task, *args, **kwargs):
        queued.append(task.name)
        return queued.up

    monkeypatch.setattr(tasks, "send", send)
    yield queued
    app.conf.task_always_eager = eager


def write(on_commit, *addresses):
    with on_commit(execute=True), transaction.atomic():
        return services.queue_email(addresses, "Entry received", "Hello")


def test_a_burst_of_mail_queues_one_drain_which_sends_it_all(broker, on_commit):
    ids = [i for n in range(5) for i in write(on_commit, f"m{n}@example.org")]
    assert broker == ["outbox.tasks.drain_outbox"]  # one task for five commits
    assert mail.outbox == []

    assert services.drain() == 5
    assert sorted(m.to[0] for m in mail.outbox) == [f"m{n}@example.org" for n in range(5)]
    sent = Message.objects.filter(pk__in=ids)
    assert {(m.status, m.attempts) for m in sent} == {(MessageStatus.SENT, 1)} and all(m.sent_at for m in sent)
    assert services.drain() == 0 and len(mail.outbox) == 5  # never twice


def test_mail_written_once_the_drain_has_started_queues_another(broker, on_commit):
    write(on_commit, "first@example.org")
    services.drain()
    write(on_commit, "second@example.org")
    assert broker == ["outbox.tasks.drain_outbox"] * 2
    assert services.drain() == 1 and [m.to for m in mail.outbox] == [["first@example.org"], ["second@example.org"]]


def test_a_drain_queued_long_ago_and_never_started_is_queued_again(broker, on_commit):
    write(on_commit, "first@example.org")
    with time_machine.travel(timezone.now() + services.DRAIN_LOST_AFTER - timedelta(seconds=5)):
        write(on_commit, "second@example.org")
    assert len(broker) == 1
    with time_machine.travel(timezone.now() + services.DRAIN_LOST_AFTER + timedelta(seconds=5)):
        write(on_commit, "third@example.org")
    assert len(broker) == 2


def test_broker_down_the_next_commit_tries_again(broker, on_commit):
    broker.up = False
    write(on_commit, "first@example.org")
    assert Drain.objects.get().queued_at is None  # nothing is waiting for a task that never went
    broker.up = True
    write(on_commit, "second@example.org")
    assert len(broker) == 2 and services.drain() == 2


def test_a_new_or_emptied_database_still_queues_the_drain(broker, on_commit):
    Drain.objects.all().delete()
    write(on_commit, "first@example.org")
    assert len(broker) == 1 and Drain.objects.get().queued_at


class CountingBackend(EmailBackend):
    """The test mail server: counts connections, refuses addresses at refused.example.org."""

    opened = 0

    def open(self):
        if getattr(self, "connected", False):
            return False
        type(self).opened += 1
        self.connected = True
        return True

    def close(self):
        self.connected = False

    def send_messages(self, messages):
        if any(a.endswith("@refused.example.org") for m in messages for a in m.to):
            raise OSError("recipient refused")
        return super().send_messages(messages)


def test_the_drain_sends_over_one_connection_and_leaves_failures_to_the_sweep(broker, on_commit, settings):
    settings.EMAIL_BACKEND = f"{__name__}.CountingBackend"
    CountingBackend.opened = 0
    write(on_commit, "a@example.org", "b@refused.example.org", "c@example.org", "d@example.org")
    assert services.drain(limit=3) == 3
    assert sorted(m.to[0] for m in mail.outbox) == ["a@example.org", "c@example.org", "d@example.org"]
    assert CountingBackend.opened == 2  # one, and a new one after the failure
    failed = Message.objects.get(to="b@refused.example.org")
    assert failed.status == MessageStatus.FAILED and failed.attempts == 1 and "recipient refused" in failed.last_error
    assert failed.next_attempt_at > timezone.now()
    assert services.drain() == 0  # a failure waits for its retry time

    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    with time_machine.travel(failed.next_attempt_at + timedelta(seconds=1)):
        assert services.send_due() == 1
    assert Message.objects.get(pk=failed.pk).status == MessageStatus.SENT


def test_the_drain_leaves_given_up_messages_for_staff(broker, on_commit):
    (message_id,) = write(on_commit, "gone@example.org")
    Message.objects.filter(pk=message_id).update(status=MessageStatus.FAILED, attempts=6, next_attempt_at=None)
    assert services.drain() == 0 and mail.outbox == []


def test_while_a_drain_is_queued_a_commit_only_reads(broker, on_commit):
    """No write (which the database would flush to disk) for each commit of a burst."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    write(on_commit, "first@example.org")
    with CaptureQueriesContext(connection) as queries:
        assert services.request_drain() is False
    assert [q["sql"].split()[0] for q in queries.captured_queries] == ["SELECT"]
