"""A paid entry withdrawn: its money is held as the refund due (issue 23, defect N11), and the pages that show the
entry say so, not only the money page: the entrant's My entries card, the organiser's manage table and the
entries CSV (a "Held" column beside "Amount paid")."""

import csv
import io

import pytest
from django.urls import reverse

from events import services as events
from tests.events.factories import fast_passwords  # noqa: F401
from tests.events.test_withdraw_and_reinstate import paid  # noqa: F401

pytestmark = pytest.mark.django_db


def test_a_withdrawn_entry_shows_its_money_held_as_the_refund_due(client, paid):  # noqa: F811
    event, entry, payment = paid
    events.withdraw_entry(entry.player.user, entry)

    client.force_login(entry.player.user)
    mine = client.get(reverse("events:my_entries")).content.decode()
    assert "S$3.00 held</strong> as a refund due" in mine and event.refund_policy in mine

    client.force_login(event.owner)
    manage = client.get(reverse("events:manage", args=[event.slug])).content.decode()
    held = manage[manage.index(f'id="held-{entry.pk}"') :]
    assert held.startswith(f'id="held-{entry.pk}">S$3.00 held: refund due')

    answer = client.get(reverse("events:export", args=[event.slug]))
    rows = list(csv.reader(io.StringIO(answer.content.decode("utf-8-sig"))))
    header, row = rows[0], rows[1]
    assert (row[header.index("Amount paid")], row[header.index("Held")]) == ("0.00", "3.00")


def test_nothing_held_leaves_the_held_cells_empty(client, paid):  # noqa: F811
    event, entry, _payment = paid
    client.force_login(event.owner)
    manage = client.get(reverse("events:manage", args=[event.slug])).content.decode()
    assert f'id="held-{entry.pk}"' not in manage
    rows = list(events.entries_for_export(event))
    assert rows[1][rows[0].index("Held")] == ""
