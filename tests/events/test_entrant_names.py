"""The public list of an event's entrants names a student under 18 only when a parent or guardian agreed: the group
form asks the teacher; without it the student is listed by initials and school. Organisers see every name."""

from datetime import date

import pytest
from django.urls import reverse

from events.forms import option_value
from events.models import Entry
from players import visibility
from tests.events.factories import fast_passwords  # noqa: F401
from tests.events.test_entry_doors import pupil_born, standard, students_event
from tests.events.test_entry_pages import group_form
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def enter_group(client, event, category, names, **contact):
    students = {}
    for i, name in enumerate(names):
        students[f"students-{i}-full_name"] = name
        students[f"students-{i}-date_of_birth"] = pupil_born(event).isoformat()
        students[f"students-{i}-option"] = option_value(category, standard(category))
    response = client.post(reverse("events:enter_group", args=[event.slug]), group_form(**students, **contact))
    assert response.status_code == 302, response.content.decode()[-2000:]


def test_students_entered_by_a_teacher_are_named_publicly_only_with_their_guardians_agreement(client):
    event, _, primary = students_event()
    assert event.entrants_public
    client.force_login(UserFactory())
    enter_group(client, event, primary, ["Tan Wei Ling"])
    enter_group(client, event, primary, ["Muhammad Irfan"], names_listed="on")
    assert Entry.objects.get(player__full_name="Tan Wei Ling").name_listed_on is None
    assert Entry.objects.get(player__full_name="Muhammad Irfan").name_listed_on is not None

    client.logout()
    public = client.get(event.get_absolute_url()).content.decode()
    assert "Tan Wei Ling" not in public and "T. W. L., a student of Yuhua Primary" in public
    assert "Muhammad Irfan" in public

    client.force_login(event.owner)  # the organiser sees every name
    assert "Tan Wei Ling" in client.get(event.get_absolute_url()).content.decode()


def test_the_group_form_asks_for_the_guardians_agreement(client):
    event, _, _ = students_event()
    client.force_login(UserFactory())
    page = client.get(reverse("events:enter_group", args=[event.slug])).content.decode()
    assert 'name="names_listed"' in page and "public list of entrants" in page


def test_the_rule_for_one_entrant():
    today = date(2026, 9, 6)
    child = PlayerFactory(full_name="Tan Wei Ling", date_of_birth=date(2015, 3, 1), school="Rulang Primary")
    adult = PlayerFactory(full_name="Adrian Goh", date_of_birth=date(1980, 3, 1))
    anyone = None
    assert visibility.entrant_name(anyone, adult, name_listed=False, today=today) == "Adrian Goh"
    assert (
        visibility.entrant_name(anyone, child, name_listed=False, today=today)
        == "T. W. L., a student of Rulang Primary"
    )
    assert visibility.entrant_name(anyone, child, name_listed=True, today=today) == "Tan Wei Ling"
    assert visibility.entrant_name(anyone, child, name_listed=False, sees_names=True, today=today) == "Tan Wei Ling"
    child.guardian_opted_in_on = today  # a guardian agreed to the directory listing: the name is public already
    assert visibility.entrant_name(anyone, child, name_listed=False, today=today) == "Tan Wei Ling"
    staff = UserFactory(is_staff=True)
    child.guardian_opted_in_on = None
    assert visibility.entrant_name(staff, child, name_listed=False, today=today) == "Tan Wei Ling"


def test_a_new_student_in_a_groups_place_is_listed_by_name_only_with_their_own_guardians_agreement(client):
    event, _, primary = students_event()
    teacher = UserFactory()
    client.force_login(teacher)
    enter_group(client, event, primary, ["Tan Wei Ling"], names_listed="on")
    entry = Entry.objects.get()
    replace = reverse("events:replace_student", args=[entry.pk])
    assert 'name="name_listed"' in client.get(replace).content.decode()
    born = pupil_born(event).isoformat()
    client.post(replace, {"full_name": "Ben Goh", "date_of_birth": born})
    entry.refresh_from_db()
    assert entry.player.full_name == "Ben Goh" and entry.name_listed_on is None
    client.post(replace, {"full_name": "Cai Li", "date_of_birth": born, "name_listed": "on"})
    entry.refresh_from_db()
    assert entry.player.full_name == "Cai Li" and entry.name_listed_on is not None
