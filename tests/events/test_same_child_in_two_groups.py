"""The same student (same name, same date of birth) sent by a second group entry is refused by name and line: one
place, one fee, listed once."""

from datetime import date

import pytest
from django.urls import reverse

from events.models import Entry
from tests.events.factories import fast_passwords  # noqa: F401
from tests.events.test_entry_doors import students_event
from tests.events.test_entry_pages import group_form
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def paste(client, event, *rows):
    born = f"{date(event.starts_on.year - 9, 5, 4):%d/%m/%Y}"
    text = "\n".join(["Name\tDate of birth\tLevel"] + [f"{name}\t{born}\tP4" for name in rows])
    return client.post(reverse("events:enter_group", args=[event.slug]), group_form(class_list=text), follow=True)


def test_a_second_group_naming_a_student_already_entered_is_refused_naming_the_student_and_line(client):
    event, _, _ = students_event()
    client.force_login(UserFactory())
    paste(client, event, "Alice Ong")
    assert Entry.objects.filter(event=event).count() == 1
    client.force_login(UserFactory())
    page = paste(client, event, "Ben Goh", "  alice  ONG ").content.decode()
    assert "Line 3 (alice  ONG) is already entered in this event by Mrs Tan (same name and date of birth)" in page
    assert Entry.objects.filter(event=event).count() == 1  # nobody of the second list entered: all or none
    assert Entry.objects.get(event=event).player.full_name == "Alice Ong"


def test_every_line_naming_a_student_already_entered_is_named_at_once(client):
    """Defect N6: with two students of the list entered already, both lines are named on the first submit (only the
    first was), beside the list's other refusals, and nobody of the list is entered."""
    event, _, _ = students_event()
    client.force_login(UserFactory())
    paste(client, event, "Alice Ong", "Ben Goh")
    client.force_login(UserFactory())
    page = paste(client, event, "Alice Ong", "Cai Li", "Ben Goh", "Cai Li").content.decode()
    assert "Line 2 (Alice Ong) is already entered in this event by Mrs Tan" in page
    assert "Line 4 (Ben Goh) is already entered in this event by Mrs Tan" in page
    assert "Line 5 (Cai Li) is the same child as Line 3" in page
    assert page.index("Line 2 (Alice Ong)") < page.index("Line 4 (Ben Goh)") < page.index("Line 5 (Cai Li)")
    assert Entry.objects.filter(event=event).count() == 2
