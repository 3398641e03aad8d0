"""Copying last year's event to start this year's: what is copied, how the dates and title move, who may copy."""

from datetime import date, datetime, time
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse

from clubsite.kit.errors import NotAllowed
from events import services
from events.models import Category, Entry, Event, EventStatus, GroupEntry, PrizeKind
from events.play.models import Division
from events.services.copying import moved_date, moved_moment, moved_title
from tests.events.factories import (
    CategoryFactory,
    EntryFactory,
    EventFactory,
    FeeFactory,
    PrizeFactory,
    fast_passwords,  # noqa: F401
    make_organiser,
)
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

SG = ZoneInfo("Asia/Singapore")


@pytest.fixture
def last_year():
    """Last year's students' championship, held and completed, with two categories, fees, prizes and an entry."""
    event = EventFactory(
        title="Inter-School Scrabble Championship 2025",
        slug="inter-school-2025",
        kind="students",
        status=EventStatus.COMPLETED,
        starts_on=date(2025, 5, 17),
        ends_on=date(2025, 5, 17),
        time_zone="Asia/Singapore",
        start_time=time(9, 30),
        reporting_time=time(8, 30),
        registration_opens_at=datetime(2025, 3, 1, 9, 0, tzinfo=SG),
        registration_closes_at=datetime(2025, 4, 30, 23, 59, tzinfo=SG),
        published_at=datetime(2025, 2, 1, tzinfo=SG),
        number_of_games=7,
        pairing_system="koth",
        bye_spread=100,
        one_prize_per_player=False,
        prize_fund=Decimal("500.00"),
        rules_agreement="I agree to **the rules**.",
        rules_reference="WESPA rules",
        payment_methods=["paynow", "cheque"],
        payment_instructions="Pay by *PayNow* to the UEN.",
        max_group_size=12,
    )
    primary = CategoryFactory(event=event, name="Primary", position=0, quota=60, school_level="primary")
    secondary = CategoryFactory(event=event, name="Secondary", position=1, min_age=12, max_age=18)
    FeeFactory(category=primary, name="Standard", amount=Decimal("10.00"))
    FeeFactory(category=primary, name="Passion card", amount=Decimal("8.00"), is_concession=True, position=1)
    FeeFactory(category=secondary, name="Standard", amount=Decimal("12.00"))
    PrizeFactory(category=primary, rank_from=1, rank_to=1, description="Trophy", amount=Decimal("50"))
    PrizeFactory(category=primary, kind=PrizeKind.HIGH_GAME, rank_from=None, rank_to=None, description="Medal")
    EntryFactory(category=primary)
    event.directors.add(UserFactory())
    return event


def test_a_copy_is_a_draft_a_year_on_with_the_settings_categories_fees_and_prizes(last_year):
    copier = last_year.owner
    copy = services.copy_event(copier, last_year)
    copy.refresh_from_db()
    assert copy.pk != last_year.pk and copy.status == EventStatus.DRAFT and copy.owner == copier
    assert copy.title == "Inter-School Scrabble Championship 2026"
    assert copy.slug == "inter-school-scrabble-championship-2026"
    assert (copy.starts_on, copy.ends_on) == (date(2026, 5, 17), date(2026, 5, 17))
    assert copy.registration_opens_at == datetime(2026, 3, 1, 9, 0, tzinfo=SG)
    assert copy.registration_closes_at == datetime(2026, 4, 30, 23, 59, tzinfo=SG)
    assert (copy.start_time, copy.reporting_time) == (time(9, 30), time(8, 30))
    # Play rules, prize settings, payment settings and rules text come along.
    for field in (
        "kind",
        "number_of_games",
        "pairing_system",
        "bye_spread",
        "one_prize_per_player",
        "prize_fund",
        "rules_agreement",
        "rules_reference",
        "payment_methods",
        "payment_instructions",
        "max_group_size",
        "venue",
        "association_id",
        "time_zone",
    ):
        assert getattr(copy, field) == getattr(last_year, field), field
    assert "<strong>the rules</strong>" in copy.rules_agreement_html
    assert "<em>PayNow</em>" in copy.payment_instructions_html
    # What happened at last year's event stays there.
    assert copy.published_at is None and copy.registration_closed_at is None
    assert not copy.directors.exists()
    assert not Entry.objects.filter(event=copy).exists() and not GroupEntry.objects.filter(event=copy).exists()
    assert not Division.objects.filter(event=copy).exists()

    categories = list(copy.categories.order_by("position"))
    assert [(c.name, c.quota, c.school_level, c.min_age, c.max_age) for c in categories] == [
        ("Primary", 60, "primary", None, None),
        ("Secondary", None, "", 12, 18),
    ]
    primary = categories[0]
    assert [(f.name, f.amount, f.is_concession) for f in primary.fees.order_by("position")] == [
        ("Standard", Decimal("10.00"), False),
        ("Passion card", Decimal("8.00"), True),
    ]
    assert [(p.kind, p.rank_from, p.description, p.amount) for p in primary.prizes.order_by("kind")] == [
        (PrizeKind.HIGH_GAME, None, "Medal", None),
        (PrizeKind.PLACE, 1, "Trophy", Decimal("50.00")),
    ]
    # The source is untouched.
    assert last_year.categories.count() == 2 and Entry.objects.filter(event=last_year).count() == 1


def test_the_copy_is_editable_and_publishable(last_year):
    copy = services.copy_event(last_year.owner, last_year)
    services.update_event(last_year.owner, copy, venue="Singapore Sports School")
    category = copy.categories.get(name="Secondary")
    services.save_category(last_year.owner, copy, category, fees=[{"name": "Early bird", "amount": "9"}])
    services.publish_event(last_year.owner, copy)
    copy.refresh_from_db()
    assert copy.status != EventStatus.DRAFT and copy.venue == "Singapore Sports School"
    assert category.fees.count() == 2


def test_a_leap_day_becomes_28_february():
    assert moved_date(date(2024, 2, 29), 1) == date(2025, 2, 28)
    assert moved_date(date(2024, 2, 29), 4) == date(2028, 2, 29)
    assert moved_moment(datetime(2024, 2, 29, 23, 30, tzinfo=SG), 1, SG) == datetime(2025, 2, 28, 23, 30, tzinfo=SG)


def test_a_leap_day_event_is_copied_to_28_february():
    event = EventFactory(
        title="Leap Day Rapid",
        status=EventStatus.COMPLETED,
        starts_on=date(2024, 2, 29),
        ends_on=date(2024, 3, 1),
        registration_opens_at=datetime(2024, 1, 1, tzinfo=SG),
        registration_closes_at=datetime(2024, 2, 28, 12, tzinfo=SG),
    )
    copy = services.copy_event(event.owner, event)
    assert (copy.starts_on, copy.ends_on) == (date(2025, 2, 28), date(2025, 3, 1))
    assert copy.title == "Leap Day Rapid" and copy.slug == "leap-day-rapid-2025"


def test_a_moment_keeps_its_wall_clock_time_in_the_events_time_zone():
    # 23:59 in Singapore is 15:59 UTC: moved as Singapore reads it.
    moment = datetime(2025, 12, 31, 23, 59, tzinfo=SG)
    assert moved_moment(moment.astimezone(ZoneInfo("UTC")), 1, SG) == datetime(2026, 12, 31, 23, 59, tzinfo=SG)


@pytest.mark.parametrize(
    "title, moved",
    [
        ("Students' Championship 2025", "Students' Championship 2026"),
        ("2025 National Open", "2026 National Open"),
        ("Season 2025/2026 finals", "Season 2026/2027 finals"),
        ("Club night", "Club night"),
        ("Top 200 players, 12345 points", "Top 200 players, 12345 points"),
    ],
)
def test_a_year_in_the_title_moves_on(title, moved):
    assert moved_title(title, 1) == moved


def test_a_second_copy_gets_its_own_address_and_a_given_title_is_kept(last_year):
    first = services.copy_event(last_year.owner, last_year)
    second = services.copy_event(last_year.owner, last_year)
    assert first.slug != second.slug and Event.objects.filter(slug=second.slug).count() == 1
    named = services.copy_event(last_year.owner, last_year, title="  Schools' Open 2026 ")
    assert named.title == "Schools' Open 2026"


def test_staff_may_copy_and_own_the_copy(last_year):
    staff = UserFactory(is_staff=True)
    copy = services.copy_event(staff, last_year)
    assert copy.owner == staff


@pytest.mark.parametrize("who", ["another organiser", "a player", "a director"])
def test_others_may_not_copy(last_year, who):
    if who == "another organiser":
        user = make_organiser()
    elif who == "a director":
        user = last_year.directors.get()
    else:
        user = UserFactory()
    before = Event.objects.count(), Category.objects.count()
    with pytest.raises(NotAllowed):
        services.copy_event(user, last_year)
    assert (Event.objects.count(), Category.objects.count()) == before


def test_a_copy_past_the_last_sensible_year_is_refused_and_nothing_is_saved():
    event = EventFactory(
        title="Far future",
        starts_on=date(2100, 6, 1),
        ends_on=date(2100, 6, 1),
        registration_opens_at=None,
        registration_closes_at=None,
    )
    CategoryFactory(event=event)
    before = Event.objects.count(), Category.objects.count()
    with pytest.raises(services.EventError, match="between the years 2000 and 2100"):
        services.copy_event(event.owner, event)
    assert (Event.objects.count(), Category.objects.count()) == before


def test_a_failure_while_copying_the_categories_leaves_nothing(last_year, monkeypatch):
    from events.services import copying

    def broken(source, copy, years, categories):
        raise RuntimeError("disk full")

    monkeypatch.setattr(copying, "PARTS", (*copying.PARTS, broken))
    before = Event.objects.count(), Category.objects.count()
    with pytest.raises(RuntimeError):
        services.copy_event(last_year.owner, last_year)
    assert (Event.objects.count(), Category.objects.count()) == before


def test_the_organisers_page_copies_the_event_and_opens_the_copy(client, last_year):
    client.force_login(last_year.owner)
    page = client.get(reverse("events:copy", args=[last_year.slug]))
    assert page.status_code == 200 and "Inter-School Scrabble Championship 2026" in page.content.decode()
    response = client.post(reverse("events:copy", args=[last_year.slug]), {"title": "Inter-School 2026"})
    copy = Event.objects.get(title="Inter-School 2026")
    assert response.status_code == 302 and response.url == reverse("events:manage", args=[copy.slug])
    assert copy.categories.count() == 2


def test_the_copy_page_is_refused_to_others(client, last_year):
    client.force_login(make_organiser())
    assert client.get(reverse("events:copy", args=[last_year.slug])).status_code == 403
    assert client.post(reverse("events:copy", args=[last_year.slug])).status_code == 403
    assert Event.objects.count() == 1


def test_the_api_copies_the_event_for_its_organiser(last_year):
    from rest_framework.test import APIClient

    api = APIClient()
    url = f"/api/events/{last_year.slug}/copy/"
    api.force_authenticate(make_organiser())
    assert api.post(url, {}, format="json").status_code == 403
    api.force_authenticate(last_year.owner)
    answer = api.post(url, {}, format="json")
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert body["title"] == "Inter-School Scrabble Championship 2026" and body["status"] == "draft"
    assert body["starts_on"] == "2026-05-17" and [c["name"] for c in body["categories"]] == ["Primary", "Secondary"]
    named = api.post(url, {"title": "Schools 2026"}, format="json").json()
    assert named["title"] == "Schools 2026", named
    assert api.post(url, {"title": "x" * 201}, format="json").status_code == 400


def test_the_admin_action_copies_the_chosen_events(client, last_year):
    staff = UserFactory(is_staff=True, is_superuser=True)
    client.force_login(staff)
    response = client.post(
        reverse("admin:events_event_changelist"), {"action": "copy", "_selected_action": [last_year.pk]}
    )
    assert response.status_code == 302
    copy = Event.objects.get(title="Inter-School Scrabble Championship 2026")
    assert copy.owner == staff and copy.status == EventStatus.DRAFT and copy.categories.count() == 2


def test_the_copy_follows_the_same_rule_book_version_with_the_same_amendments(last_year):
    from tests.rulebooks.factories import rule_book

    _, (first, second) = rule_book(last_year.association, versions=("1. Play fair.", "1. Play fair and fast."))
    Event.objects.filter(pk=last_year.pk).update(
        rule_book_version=second, rule_amendments="Rule 5 does not apply: **no** clocks."
    )
    last_year.refresh_from_db()
    copy = services.copy_event(last_year.owner, last_year)
    copy.refresh_from_db()
    assert copy.rule_book_version == second and copy.rule_amendments == last_year.rule_amendments
    assert "<strong>no</strong>" in copy.rule_amendments_html
