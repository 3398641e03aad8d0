"""Messages after an action wrap a long unbroken word (a 200-character name in "Nearly done: ..."): unwrapped, it
made a phone's page about 2,000 px wide."""

import re

import pytest
from django.contrib import messages
from django.contrib.auth.models import AnonymousUser
from django.contrib.messages.storage.fallback import FallbackStorage
from django.template.loader import render_to_string
from django.test import RequestFactory

pytestmark = pytest.mark.django_db


def test_every_message_wraps_long_words():
    request = RequestFactory().get("/")
    request.user = AnonymousUser()
    request.session = {}
    request._messages = FallbackStorage(request)
    messages.success(request, "Nearly done: " + "x" * 200)
    messages.error(request, "y" * 200)
    html = render_to_string("base.html", request=request)
    alerts = re.findall(r'<div class="alert [^"]*" role="alert">', html)
    assert len(alerts) == 2 and all("text-break" in a for a in alerts)
