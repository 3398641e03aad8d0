"""Mail never loses or breaks a request: it is written to the outbox with the change, one recipient per message,
sent after commit, retried when sending fails, and shown to staff (never to the member) when it keeps failing."""

import time
from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from events.services.common import mail_after_commit
from outbox import services
from outbox.models import Message, MessageStatus
from tests.events.factories import fast_passwords  # noqa: F401
from tests.factories import UserFactory
from tests.outbox.helpers import closed_port, enter_through_page

pytestmark = pytest.mark.django_db


def smtp_down(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", closed_port()
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_TIMEOUT = 5


def test_each_recipient_gets_a_message_of_their_own(on_commit):
    with on_commit(execute=True):
        with transaction.atomic():
            mail_after_commit(
                "events/email/event_cancelled.txt",
                "Cancelled: Open",
                ["parent@example.org", "pupil@example.org", "PUPIL@example.org", ""],
                {"event": None, "paid": False, "url": "/"},
            )
        assert mail.outbox == [] and Message.objects.count() == 2  # written with the change, sent after commit
    assert sorted(m.to for m in mail.outbox) == [["parent@example.org"], ["pupil@example.org"]]
    assert set(Message.objects.values_list("status", flat=True)) == {MessageStatus.SENT}


def test_a_rolled_back_change_leaves_no_mail(on_commit):
    with on_commit(execute=True), pytest.raises(RuntimeError), transaction.atomic():
        services.queue_email(["a@example.org"], "Subject", "Body")
        raise RuntimeError("the change fails")
    assert not Message.objects.exists() and mail.outbox == []


def test_the_entry_mail_is_in_the_outbox_and_sent(client, on_commit):
    with on_commit(execute=True):
        response, entry, player = enter_through_page(client)
    assert response.status_code == 302 and entry
    message = Message.objects.get()
    assert message.to == player.email and message.status == MessageStatus.SENT and message.sent_at
    assert message.attempts == 1 and [m.to for m in mail.outbox] == [[player.email]]


# --- SMTP down ----------------------------------------------------------------------------------


def test_smtp_down_the_entry_succeeds_and_the_mail_is_retried(client, settings, on_commit):
    smtp_down(settings)
    with on_commit(execute=True):
        response, entry, player = enter_through_page(client)
    assert response.status_code == 302 and entry  # the member sees their entry, not an error
    page = client.get(response["Location"]).content.decode()
    assert "Connection refused" not in page and "Errno" not in page
    message = Message.objects.get()
    assert message.status == MessageStatus.FAILED and message.attempts == 1
    assert "ConnectionRefusedError" in message.last_error
    assert timedelta(seconds=50) < message.next_attempt_at - timezone.now() <= timedelta(minutes=1)

    assert services.send_due() == 0  # not due yet
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"  # the mail server is back
    with time_machine.travel(timezone.now() + timedelta(minutes=2)):
        assert services.send_due() == 1
    message.refresh_from_db()
    assert message.status == MessageStatus.SENT and message.attempts == 2
    assert [m.to for m in mail.outbox] == [[player.email]]
    assert services.send_due() == 0 and len(mail.outbox) == 1  # never twice


def test_without_a_broker_the_next_request_retries_what_is_due(client, settings, on_commit):
    smtp_down(settings)
    with on_commit(execute=True):
        enter_through_page(client)
    message = Message.objects.get(status=MessageStatus.FAILED)
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.OUTBOX_SWEEP_ON_REQUEST, settings.OUTBOX_SWEEP_EVERY = True, 0
    with time_machine.travel(timezone.now() + timedelta(minutes=2)):
        assert client.get(reverse("home")).status_code == 200
    message.refresh_from_db()
    assert message.status == MessageStatus.SENT and len(mail.outbox) == 1


def test_after_the_last_attempt_staff_see_it_and_resend_it(client, settings, on_commit):
    smtp_down(settings)
    with on_commit(execute=True):
        services.queue_email(["member@example.org"], "Your entry", "Body")
    moment = timezone.now()
    for _ in range(services.MAX_ATTEMPTS - 1):
        moment += timedelta(hours=5)
        with time_machine.travel(moment):
            services.send_due()
    message = Message.objects.get()
    assert message.status == MessageStatus.FAILED and message.attempts == services.MAX_ATTEMPTS
    assert message.next_attempt_at is None  # given up: waits for staff
    with time_machine.travel(moment + timedelta(days=1)):
        assert services.send_due() == 0

    staff = UserFactory(is_staff=True, is_superuser=True)
    client.force_login(staff)
    listing = client.get(reverse("admin:outbox_message_changelist") + "?delivery=given_up").content.decode()
    assert "member@example.org" in listing and "ConnectionRefusedError" in listing

    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    with on_commit(execute=True):
        response = client.post(
            reverse("admin:outbox_message_changelist"),
            {"action": "resend", "_selected_action": [message.pk]},
            follow=True,
        )
    assert "1 message(s) will be sent again." in response.content.decode()
    message.refresh_from_db()
    assert message.status == MessageStatus.SENT and [m.to for m in mail.outbox] == [["member@example.org"]]


def test_sending_twice_sends_once(on_commit):
    with on_commit(execute=True):
        (message_id,) = services.queue_email(["a@example.org"], "S", "B")
    assert services.deliver(message_id) is None and len(mail.outbox) == 1


# --- the broker down ----------------------------------------------------------------------------


def test_broker_down_the_entry_succeeds_quickly_and_the_mail_is_sent_later(client, broker_down, on_commit):
    started = time.monotonic()
    with on_commit(execute=True):  # the commit and its callbacks (queuing the task) are part of the timing
        response, entry, player = enter_through_page(client)
    elapsed = time.monotonic() - started
    assert response.status_code == 302 and entry
    assert elapsed < 3, f"entering took {elapsed:.1f}s with the broker down"
    message = Message.objects.get()
    assert message.status == MessageStatus.PENDING and mail.outbox == []

    # Once the broker is back, beat's sweep (run here as the worker would) sends it.
    with time_machine.travel(timezone.now() + services.SWEEP_GRACE + timedelta(seconds=1)):
        assert services.send_due() == 1
    message.refresh_from_db()
    assert message.status == MessageStatus.SENT and [m.to for m in mail.outbox] == [[player.email]]


def test_broker_down_old_style_delay_callers_keep_working(broker_down, on_commit):
    """Callers that still queue `send_event_email.delay(...)` after commit write to the outbox, fast."""
    from events.tasks import send_event_email
    from players.tasks import send_email

    started = time.monotonic()
    with on_commit(execute=True), transaction.atomic():
        for i in range(20):
            transaction.on_commit(lambda i=i: send_event_email.delay("News", "Body", [f"m{i}@example.org"]))
        transaction.on_commit(lambda: send_email.delay(subject="S", body="B", to=["x@example.org"]))
    assert time.monotonic() - started < 3
    assert Message.objects.filter(status=MessageStatus.PENDING).count() == 21 and mail.outbox == []
