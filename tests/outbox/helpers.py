"""Shared by the outbox tests: a closed port, entering an event through the page."""

import socket

from django.urls import reverse

from events.models import Entry
from tests.events.factories import open_event, player_with_account


def closed_port() -> int:
    """A local port nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def enter_through_page(client):
    """A member enters an open event through the entry form; returns (response, entry, player)."""
    event, category, (fee,) = open_event()
    player = player_with_account()
    client.force_login(player.user)
    response = client.post(
        reverse("events:enter", args=[event.slug]),
        {"option": f"{category.pk}:{fee.pk}", "accept_rules": "on", "phone": "91234567"},
    )
    return response, Entry.objects.filter(event=event, player=player).first(), player
