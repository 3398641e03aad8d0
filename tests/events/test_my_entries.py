"""A member's own entries: one rule (`own_entries`) for the my-entries page, the account page, the API and the
payments a member pays for; pages that cost the same queries however long the member's history."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from rest_framework.test import APIClient

from events import services
from events.models import EntryStatus, EventStatus, GroupEntry
from events.payables import EntryKind
from tests.events.factories import (
    CategoryFactory,
    EntryFactory,
    EventFactory,
    fast_passwords,  # noqa: F401
    player_with_account,
)
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def group_of(user, event):
    return GroupEntry.objects.create(
        event=event, submitted_by=user, contact_name="Ms Tan", address="1 School Road", phone="61234567", email="t@x.sg"
    )


def entries_in_events(player, days, **fields):
    """An entry of `player` in a new event `days` from today (negative: in the past) for each of `days`."""
    today = timezone.localdate()
    made = []
    for d in days:
        day = today + timedelta(days=d)
        status = EventStatus.COMPLETED if d < 0 else EventStatus.REGISTRATION_OPEN
        category = CategoryFactory(event=EventFactory(starts_on=day, ends_on=day, status=status))
        made.append(EntryFactory(category=category, player=player, **fields))
    return made


def test_own_entries_are_the_members_and_those_of_the_groups_they_submitted():
    player = player_with_account()
    user = player.user
    mine = EntryFactory(player=player)
    group_event = EventFactory()
    student = EntryFactory(category=CategoryFactory(event=group_event), group=group_of(user, group_event))
    for_a_friend = EntryFactory(entered_by=user)
    EntryFactory()  # someone else's
    EntryFactory(group=group_of(UserFactory(), group_event), category=student.category)  # another teacher's

    assert set(services.own_entries(user)) == {mine, student}
    assert set(services.own_entries(user, entered_for_others=True)) == {mine, student, for_a_friend}
    assert set(EntryKind().owned_by(user).values_list("pk", flat=True)) == {mine.pk, student.pk, for_a_friend.pk}
    # A teacher without a player record of their own still has the group's entries; a visitor has none.
    teacher = UserFactory()
    taught = EntryFactory(category=CategoryFactory(event=group_event), group=group_of(teacher, group_event))
    assert list(services.own_entries(teacher)) == [taught]
    from django.contrib.auth.models import AnonymousUser

    assert list(services.own_entries(AnonymousUser())) == []


def test_my_entries_are_paged_upcoming_soonest_first_then_past_latest_first(client):
    player = player_with_account()
    days = [-400, 30, -10, 5, -90] + list(range(-200, -230, -1))  # 35 entries: two pages of 20
    entries = entries_in_events(player, days)
    by_day = dict(zip(days, entries, strict=True))
    expected = [by_day[d] for d in (5, 30, -10, -90, -200)] + [by_day[d] for d in range(-201, -230, -1)]
    expected.append(by_day[-400])
    client.force_login(player.user)

    first = client.get(reverse("events:my_entries"))
    second = client.get(reverse("events:my_entries"), {"page": 2})

    shown = [e.pk for e in first.context["entries"]] + [e.pk for e in second.context["entries"]]
    assert shown == [e.pk for e in expected]
    assert len(first.context["entries"]) == 20
    assert "page=2" in first.content.decode() and "Page 2 of 2" in second.content.decode()


def _count(client, url) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_my_entries_page_account_page_and_api_cost_the_same_queries_for_a_long_history(client):
    api = APIClient()
    few, many = player_with_account(), player_with_account()
    for player, count in ((few, 2), (many, 12)):
        entries = entries_in_events(player, range(1, count + 1))
        # One of each on a waiting list: its position is read with the others', not one query each.
        for entry in entries[: count // 2]:
            entry.status = EntryStatus.WAITLISTED
            entry.save()
            EntryFactory(category=entry.category, status=EntryStatus.WAITLISTED, accepted_at=entry.accepted_at)

    counts = {}
    for player in (few, many):
        client.force_login(player.user)
        api.force_authenticate(player.user)
        with CaptureQueriesContext(connection) as queries:
            assert api.get("/api/my/entries/").status_code == 200
        counts[player.pk] = (
            _count(client, reverse("events:my_entries")),
            _count(client, reverse("players:me")),
            len(queries),
        )
    assert counts[few.pk] == counts[many.pk]


def test_waiting_list_positions_of_a_page_match_each_entrys_own():
    event = EventFactory()
    one, two = CategoryFactory(event=event), CategoryFactory(event=event)
    start = timezone.now()
    waiting = [
        EntryFactory(category=category, status=EntryStatus.WAITLISTED, accepted_at=start + timedelta(minutes=i % 3))
        for i, category in enumerate([one, two, one, one, two, one])
    ]
    EntryFactory(category=one, status=EntryStatus.CONFIRMED)
    shown = [*waiting[2:], EntryFactory(category=two)]

    positions = services.waitlist_positions(shown)

    assert positions == {e.pk: services.waitlist_position(e) for e in waiting[2:]}
    assert sorted(positions.values()) != [1] * 4  # real positions, not all first


def test_the_api_gives_each_entry_its_waiting_list_position():
    api = APIClient()
    player = player_with_account()
    category = CategoryFactory()
    EntryFactory(category=category, status=EntryStatus.WAITLISTED, player=PlayerFactory())
    mine = EntryFactory(category=category, status=EntryStatus.WAITLISTED, player=player)
    api.force_authenticate(player.user)
    (row,) = api.get("/api/my/entries/").json()["results"]
    assert row["id"] == mine.pk and row["waitlist_position"] == 2
    api.force_authenticate(category.event.owner)
    rows = api.get("/api/organiser/entries/").json()["results"]
    assert [r["waitlist_position"] for r in rows] == [1, 2]


def test_the_account_page_shows_current_entries_soonest_first_and_not_past_ones(client):
    player = player_with_account()
    by_day = dict(zip([-30, 40, 0, 7], entries_in_events(player, [-30, 40, 0, 7]), strict=True))
    client.force_login(player.user)

    shown = [e.pk for e in client.get(reverse("players:me")).context["my_event_entries"]]

    assert shown == [by_day[d].pk for d in (0, 7, 40)]  # today's event is still current; last month's is not
    page = client.get(reverse("players:me")).content.decode()
    assert date_format(by_day[7].event.starts_on, "j M Y") in page  # each with its date
