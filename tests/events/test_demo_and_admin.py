"""The demo data (the seed announcement, open for entries) and the staff admin."""

import io

import pytest
from django.apps import apps
from django.urls import reverse
from django.utils import timezone

from events.models import Entry, EntryStatus, Event, EventStatus
from players import demo as members_demo
from tests.events.factories import fast_passwords, open_event  # noqa: F401
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_the_demo_has_the_seed_event_open_for_entries(settings):
    out = io.StringIO()
    members_demo.load(out)
    apps.get_app_config("events").load_demo(out)
    event = Event.objects.get(title="Jurong Green Students' Scrabble Championship")
    assert event.status == EventStatus.REGISTRATION_OPEN and event.owner.email == "organiser@example.org"
    assert event.registration_closes_at > timezone.now()
    a, b = event.categories.order_by("position")
    assert a.name.startswith("Category A") and b.name.startswith("Category B") and a.quota == 40
    assert [(f.name, str(f.amount)) for f in a.fees.order_by("position")] == [
        ("Standard", "3.00"),
        ("Passion Card holder", "2.00"),
    ]
    assert a.prizes.filter(rank_from=1, description__contains="S$100").exists()
    assert b.prizes.filter(rank_from=6, rank_to=10).exists()
    assert Entry.objects.filter(event=event, status=EntryStatus.CONFIRMED).exists()
    assert Entry.objects.filter(event=event, group__isnull=False).count() == 2
    assert Event.objects.filter(status=EventStatus.COMPLETED).count() >= 2
    assert Entry.objects.filter(status=EntryStatus.WAITLISTED).exists()


def test_staff_admin_pages_and_actions(client):
    event, category, _ = open_event(status=EventStatus.PUBLISHED, registration_opens_at=None)
    staff = UserFactory(is_staff=True, is_superuser=True)
    client.force_login(staff)
    for name in ("event", "category", "entry", "groupentry"):
        assert client.get(reverse(f"admin:events_{name}_changelist")).status_code == 200
    assert client.get(reverse("admin:events_event_change", args=[event.pk])).status_code == 200
    response = client.post(
        reverse("admin:events_event_changelist"),
        {"action": "open_registration", "_selected_action": [event.pk]},
        follow=True,
    )
    assert response.status_code == 200
    event.refresh_from_db()
    assert event.status == EventStatus.REGISTRATION_OPEN


def test_the_demo_player_has_a_paid_entry_and_one_owing_on_my_entries(client):
    out = io.StringIO()
    members_demo.load(out)
    apps.get_app_config("events").load_demo(out)
    client.force_login(members_demo.User.objects.get(email="player@example.org"))
    page = client.get(reverse("events:my_entries")).content.decode()
    paid = Entry.objects.get(player__user__email="player@example.org", event__title="Jurong Green Open")
    owing = Entry.objects.get(player__user__email="player@example.org", event__title="Toa Payoh Club Night")
    assert paid.status == EntryStatus.CONFIRMED and paid.balance == 0 and paid.amount_paid == 25
    assert owing.status == EntryStatus.PENDING_PAYMENT and owing.balance == 5
    assert "Jurong Green Open" in page and "Paid S$25.00." in page
    assert "Toa Payoh Club Night" in page and "S$5.00 due" in page


def test_every_demo_student_sits_in_the_category_of_their_school(settings):
    """Ho Daniel of Yuhua Primary sat in Category A (Secondary): the demo's pupils obey the categories' own rule,
    and their schools say the level the category is for (issue 23, defect N7)."""
    from events.services import category_refusal

    out = io.StringIO()
    members_demo.load(out)
    apps.get_app_config("events").load_demo(out)
    event = Event.objects.get(title="Jurong Green Students' Scrabble Championship")
    entries = list(
        Entry.objects.filter(event=event, group__isnull=True).select_related("player", "category").order_by("pk")
    )
    assert len(entries) >= 6
    for entry in entries:
        player, category = entry.player, entry.category
        assert category.school_level == player.school_level, (player.full_name, category.name)
        assert player.school.endswith(player.get_school_level_display()), (player.full_name, player.school)
        assert category_refusal(category, player) is None, player.full_name


def test_last_years_students_championship_is_a_real_one_to_copy(client):
    """Copying last year's championship starts this year's with its categories, fees, prizes, questions and rule
    book version (it was an empty open tournament, whose copy was an empty shell)."""
    out = io.StringIO()
    members_demo.load(out)
    apps.get_app_config("events").load_demo(out)
    this_year = Event.objects.get(title="Jurong Green Students' Scrabble Championship")
    past = Event.objects.get(title__startswith="National Students' Championship")
    assert past.status == EventStatus.COMPLETED and past.kind == "students"
    assert past.starts_on < timezone.localdate() < this_year.starts_on
    assert past.rule_book_version == this_year.rule_book_version and past.rule_amendments
    assert Entry.objects.filter(event=past, status=EntryStatus.CONFIRMED).count() >= 3
    secondary, primary = past.categories.order_by("position")
    assert (secondary.school_level, primary.school_level) == ("secondary", "primary")
    fees = {(f.name, f.audience, f.is_concession, f.until is not None) for f in primary.fees.all()}
    assert {("Standard", "", False, False), ("Member", "members", False, False)} <= fees
    assert {("Passion Card holder", "", True, False), ("Early bird", "", False, True)} <= fees
    assert primary.prizes.count() >= 5 and past.questions.count() == 2

    client.force_login(past.owner)
    page = client.get(reverse("events:copy", args=[past.slug])).content.decode()
    assert "questions" in page and "member and early-bird fees" in page and "rule book version" in page
    assert "discount codes" in page.split("are not copied")[0].rsplit("<p>", 1)[-1]
    title = f"National Students' Championship {past.starts_on.year + 1}"  # the year in the title moved on
    assert f'value="{title}"' in page.replace("&#x27;", "'")
    client.post(reverse("events:copy", args=[past.slug]), {"title": title})
    copy = Event.objects.get(title=title)
    assert copy.kind == "students" and copy.categories.count() == 2 and copy.questions.count() == 2
    assert copy.rule_book_version == past.rule_book_version and copy.starts_on > timezone.localdate()
    assert copy.categories.get(school_level="primary").fees.filter(audience="members").exists()
