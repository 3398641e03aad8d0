"""The group entry form's "Add a student": another row, without JavaScript too, never more rows than a group entry
may have (issue 23, defect 28: three rows and no way to add a fourth; the paper had fifteen)."""

import pytest
from django.urls import reverse

from events.models import Entry
from tests.events.factories import fast_passwords  # noqa: F401
from tests.events.test_pages import group_post, html, seed_event
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def rows(page: str) -> int:
    """Student rows shown (the row kept in a <template> for the page's script is not one)."""
    return page.split("<template")[0].count("Name as on ID")


@pytest.fixture
def teacher_on_the_form(client):
    event, _, primary = seed_event()
    event.max_group_size = 5
    event.save()
    client.force_login(UserFactory())
    return event, primary, reverse("events:enter_group", args=[event.slug])


def typed(event, primary, names):
    fee = primary.fees.get(name="Standard")
    data = group_post(event, [{"full_name": name, "option": f"{primary.pk}:{fee.pk}"} for name in names])
    data["students-TOTAL_FORMS"] = str(len(names))
    return data


def test_add_a_student_gives_another_row_keeping_what_was_typed(client, teacher_on_the_form):
    event, primary, url = teacher_on_the_form
    form = html(client.get(url))
    assert rows(form) == 3 and 'name="add_student"' in form and 'data-add-row="students"' in form
    assert '<template id="students-empty">' in form and "students-__prefix__-full_name" in form

    data = typed(event, primary, ["Alice Ong", "Ben Goh", "Chloe Lim"])
    data["contact_name"] = ""  # not typed yet: not complained about while rows are added
    page = html(client.post(url, {**data, "add_student": "1"}))
    assert rows(page) == 4 and "Student 4" in page
    assert all(f'value="{name}"' in page for name in ("Alice Ong", "Ben Goh", "Chloe Lim", "Yuhua Primary"))
    assert 'name="students-3-full_name" maxlength="200" autofocus' in page
    assert "This field is required" not in page and not Entry.objects.exists()

    four = typed(event, primary, ["Alice Ong", "Ben Goh", "Chloe Lim", "Dev Nair"])
    assert "4 students entered." in html(client.post(url, four, follow=True))
    assert sorted(Entry.objects.values_list("player__full_name", flat=True)) == [
        "Alice Ong",
        "Ben Goh",
        "Chloe Lim",
        "Dev Nair",
    ]


def test_rows_stop_at_the_groups_bound_whatever_count_is_sent(client, teacher_on_the_form):
    event, primary, url = teacher_on_the_form
    four = typed(event, primary, ["A", "B", "C", "D"])
    page = html(client.post(url, {**four, "add_student": "1"}))
    assert rows(page) == 5 and 'name="add_student"' not in page
    assert 'id="students-bound">A group entry takes at most 5 students' in page
    for count in ("5", "99999999999999999999999", "-4", "many"):
        page = html(client.post(url, {**four, "students-TOTAL_FORMS": count, "add_student": "1"}))
        assert rows(page) <= 5
    assert not Entry.objects.exists()
