"""Ways in (issue 23, defect 27): an organiser's events from the main menu; a teacher's groups from My entries; each
group of an event from its manage page (a group page was reached only through its teacher's name)."""

import pytest
from django.urls import reverse
from django.utils.html import escape

from tests.events.factories import fast_passwords  # noqa: F401
from tests.events.test_pages import group_post, html, seed_event
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

MENU_LINK = '<a class="nav-link" href="/events/mine/">My events</a>'


def test_the_main_menu_takes_an_organiser_to_their_events_and_nobody_else(client):
    event, _, _ = seed_event()
    client.force_login(event.owner)
    for url in (reverse("home"), reverse("events:list"), event.get_absolute_url(), reverse("players:me")):
        assert MENU_LINK in html(client.get(url)), url
    client.force_login(UserFactory())
    assert MENU_LINK not in html(client.get(reverse("events:list")))
    client.logout()
    assert MENU_LINK not in html(client.get(reverse("events:list")))


def enter_group(client, event, primary, names, school):
    fee = primary.fees.get(name="Standard")
    data = group_post(event, [{"full_name": n, "option": f"{primary.pk}:{fee.pk}"} for n in names], school=school)
    response = client.post(reverse("events:enter_group", args=[event.slug]), data)
    assert response.status_code == 302
    return response["Location"]


def test_a_teacher_reaches_each_of_their_groups_from_my_entries(client):
    event, _, primary = seed_event()
    client.force_login(UserFactory())
    yuhua = enter_group(client, event, primary, ["Alice Ong", "Ben Goh"], "Yuhua Primary")
    page = html(client.get(reverse("events:my_entries")))
    assert f'<a href="{yuhua}">{escape(event.title)}: Yuhua Primary</a>' in page and "2 students" in page
    client.force_login(UserFactory())
    assert "My group entries" not in html(client.get(reverse("events:my_entries")))


def test_the_organiser_reaches_each_group_from_the_manage_page(client, django_assert_max_num_queries):
    event, _, primary = seed_event()
    client.force_login(UserFactory())
    yuhua = enter_group(client, event, primary, ["Alice Ong", "Ben Goh"], "Yuhua Primary")
    client.force_login(UserFactory())
    jurong = enter_group(client, event, primary, ["Chloe Lim"], "Jurong Primary")
    client.force_login(event.owner)
    manage = reverse("events:manage", args=[event.slug])
    page = html(client.get(manage))
    assert f'<a href="{yuhua}">Yuhua Primary</a>' in page and f'<a href="{jurong}">Jurong Primary</a>' in page
    assert "· 1 student</span>" in page and "· 2 students</span>" in page
    with django_assert_max_num_queries(40) as captured:
        client.get(manage)
    before = len(captured)
    client.force_login(UserFactory())
    enter_group(client, event, primary, ["Dev Nair"], "Boon Lay Primary")
    client.force_login(event.owner)
    with django_assert_max_num_queries(before):
        assert "Boon Lay Primary" in html(client.get(manage))
