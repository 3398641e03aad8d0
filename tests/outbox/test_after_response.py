"""Without a broker, mail goes out after the response: a slow mail server never slows a page down."""

import http.cookiejar
import re
import threading
import time
import urllib.parse
import urllib.request

import pytest
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend

from outbox.models import Message, MessageStatus
from tests.events.factories import fast_passwords  # noqa: F401
from tests.factories import UserFactory

release = threading.Event()


class StuckMailServer(EmailBackend):
    """A mail server that takes until the test releases it."""

    def send_messages(self, messages):
        assert release.wait(timeout=20), "never released"
        return super().send_messages(messages)


@pytest.mark.django_db(transaction=True)
def test_the_page_answers_before_the_mail_is_sent(live_server, settings):
    settings.EMAIL_BACKEND = f"{__name__}.StuckMailServer"
    release.clear()
    UserFactory(email="forgetful@example.org")
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    url = live_server.url + "/accounts/password/reset/"
    form = opener.open(url, timeout=10).read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form).group(1)
    data = urllib.parse.urlencode({"csrfmiddlewaretoken": token, "email": "forgetful@example.org"}).encode()
    started = time.monotonic()
    with opener.open(urllib.request.Request(url, data=data, headers={"Referer": url}), timeout=10) as response:
        assert response.status == 200 and "/accounts/password/reset/done/" in response.url
    assert time.monotonic() - started < 5
    message = Message.objects.get(to="forgetful@example.org")
    assert message.status == MessageStatus.PENDING and mail.outbox == []  # the page came first

    release.set()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and Message.objects.get(pk=message.pk).status != MessageStatus.SENT:
        time.sleep(0.05)
    assert Message.objects.get(pk=message.pk).status == MessageStatus.SENT
    assert [m.to for m in mail.outbox] == [["forgetful@example.org"]]
