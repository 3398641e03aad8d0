"""A date of birth no one could have (1850, or next year) is refused at every door that takes one, naming where:
sign-up, the profile page, the API, the admin, a group entry (typed or pasted as a class list) and a name change.
Nothing is saved."""

from datetime import date

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from events.forms import option_value
from events.models import Entry, GroupEntry
from events.services import register_group
from players.models import OLDEST_AGE, Player, User, birth_date_problem
from tests.events.factories import fast_passwords  # noqa: F401
from tests.events.test_entry_doors import contact, pupil_born, standard, students_event
from tests.events.test_entry_pages import group_form
from tests.factories import PlayerFactory, UserFactory, api_token

pytestmark = pytest.mark.django_db

PASSWORD = "tiles-and-racks-77"
TOO_OLD = "The date of birth 1 January 1850 would make the player"


def test_the_rule():
    today = date(2026, 11, 28)
    assert birth_date_problem(None, today) is None
    assert birth_date_problem(date(1906, 11, 28), today) is None  # 120 today
    assert "121 years old: check the year" in birth_date_problem(date(1905, 11, 28), today)
    assert birth_date_problem(date(2026, 11, 29), today) == "The date of birth cannot be in the future."
    assert OLDEST_AGE == 120


def test_sign_up_refuses_1850_on_the_field_and_makes_no_account(client):
    data = {"email": "old@example.org", "full_name": "Ada Old", "password1": PASSWORD, "password2": PASSWORD}
    response = client.post(reverse("account_signup"), {**data, "date_of_birth": "1850-01-01"})
    assert response.status_code == 200
    assert TOO_OLD in " ".join(response.context["form"].errors["date_of_birth"])
    assert not User.objects.filter(email="old@example.org").exists()


def test_the_profile_page_refuses_1850_and_keeps_the_date_on_record(client):
    user = UserFactory()
    player = PlayerFactory(user=user, full_name="Ada Old", date_of_birth=date(1950, 1, 1))
    client.force_login(user)
    data = {"full_name": "Ada Old", "date_of_birth": "1850-01-01", "school_level": "none", "country": "SG"}
    response = client.post(reverse("players:profile"), data)
    assert response.status_code == 200
    assert TOO_OLD in " ".join(response.context["form"].errors["date_of_birth"])
    player.refresh_from_db()
    assert player.date_of_birth == date(1950, 1, 1)


def test_the_api_refuses_1850_naming_the_field():
    user = UserFactory()
    PlayerFactory(user=user, full_name="Ada Old")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {api_token(user)}")
    response = api.patch("/api/me/", {"date_of_birth": "1850-01-01"}, format="json")
    assert response.status_code == 400 and TOO_OLD in response.json()["date_of_birth"][0]
    assert Player.objects.get(user=user).date_of_birth is None


def test_the_admin_refuses_1850_on_the_field(client):
    staff = UserFactory(is_staff=True, is_superuser=True)
    player = PlayerFactory(full_name="Ada Old")
    client.force_login(staff)
    url = reverse("admin:players_player_change", args=[player.pk])
    form = client.get(url).context["adminform"].form
    data = {name: value for name, value in form.initial.items() if value is not None and name != "club"}
    data.update(
        {
            "date_of_birth": "1850-01-01",
            "memberships-TOTAL_FORMS": "0",
            "memberships-INITIAL_FORMS": "0",
            "memberships-MIN_NUM_FORMS": "0",
            "memberships-MAX_NUM_FORMS": "1000",
        }
    )
    response = client.post(url, data)
    assert response.status_code == 200
    assert TOO_OLD in " ".join(response.context["adminform"].form.errors["date_of_birth"])
    player.refresh_from_db()
    assert player.date_of_birth is None


def test_a_group_entry_refuses_a_student_born_in_1850_naming_the_student(client):
    event, _, primary = students_event()
    client.force_login(UserFactory())
    students = {
        "students-0-full_name": "Alice Ong",
        "students-0-date_of_birth": pupil_born(event).isoformat(),
        "students-0-option": option_value(primary, standard(primary)),
        "students-1-full_name": "Ben Goh",
        "students-1-date_of_birth": "1850-01-01",
        "students-1-option": option_value(primary, standard(primary)),
    }
    page = client.post(reverse("events:enter_group", args=[event.slug]), group_form(**students)).content.decode()
    assert "Student 2 (Ben Goh): The date of birth 1 January 1850 would make the player" in page
    assert not Entry.objects.exists() and not GroupEntry.objects.exists()
    assert not Player.objects.filter(full_name__in=["Alice Ong", "Ben Goh"]).exists()


def test_a_pasted_class_list_refuses_the_line_born_in_1850(client):
    event, _, _ = students_event()
    client.force_login(UserFactory())
    text = f"Alice Ong,{pupil_born(event):%d/%m/%Y},P4\nBen Goh,01/01/1850,P5"
    page = client.post(reverse("events:enter_group", args=[event.slug]), group_form(class_list=text)).content.decode()
    assert "Line 2 (Ben Goh): The date of birth 1 January 1850 would make the player" in page
    assert not Entry.objects.exists() and not Player.objects.filter(full_name="Alice Ong").exists()


def test_a_name_change_refuses_a_new_student_born_in_1850(client):
    event, _, primary = students_event()
    teacher = UserFactory()
    group = register_group(
        teacher,
        event,
        contact=contact(),
        students=[
            {
                "full_name": "Alice Ong",
                "date_of_birth": pupil_born(event),
                "category": primary.pk,
                "fee": standard(primary).pk,
            }
        ],
        accept_rules=True,
    )
    entry = group.entries.get()
    client.force_login(teacher)
    response = client.post(
        reverse("events:replace_student", args=[entry.pk]), {"full_name": "Ben Goh", "date_of_birth": "1850-01-01"}
    )
    assert response.status_code == 200
    assert TOO_OLD in " ".join(response.context["form"].errors["date_of_birth"])
    entry.refresh_from_db()
    assert entry.player.full_name == "Alice Ong" and entry.player.date_of_birth == pupil_born(event)
