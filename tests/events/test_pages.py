"""The pages: public list and event page, entering, my entries, the organiser's dashboard; constant queries."""

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from events import services
from events.models import Entry, EntryStatus, Event, EventKind, EventStatus
from players.models import SchoolLevel
from tests.events.factories import (
    CategoryFactory,
    EntryFactory,
    EventFactory,
    FeeFactory,
    PrizeFactory,
    fast_passwords,  # noqa: F401
    open_event,
    player_with_account,
)
from tests.factories import ClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def html(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


# --- public pages ------------------------------------------------------------------------------


def test_the_list_shows_published_upcoming_events_and_filters(client):
    club = ClubFactory(name="Jurong Green Scrabble Club")
    soon = EventFactory(title="Students Championship", club=club, kind=EventKind.STUDENTS)
    EventFactory(title="Secret Draft", status=EventStatus.DRAFT)
    EventFactory(title="Old Masters", starts_on=date(2020, 1, 5), ends_on=date(2020, 1, 5))
    other = EventFactory(title="Club Night", kind=EventKind.CLUB, starts_on=soon.starts_on + timedelta(days=40))
    page = html(client.get(reverse("events:list")))
    assert "Students Championship" in page and "Club Night" in page
    assert "Secret Draft" not in page and "Old Masters" not in page
    assert "Old Masters" in html(client.get(reverse("events:list"), {"when": "past"}))
    by_club = html(client.get(reverse("events:list"), {"club": club.pk}))
    assert "Students Championship" in by_club and "Club Night" not in by_club
    by_kind = html(client.get(reverse("events:list"), {"kind": "club"}))
    assert "Club Night" in by_kind and "Students Championship" not in by_kind
    month = other.starts_on.strftime("%Y-%m")
    by_month = html(client.get(reverse("events:list"), {"month": month}))
    assert "Club Night" in by_month


def test_the_list_is_paginated_with_constant_queries(client, django_assert_max_num_queries):
    for _ in range(3):
        EventFactory()
    with CaptureQueriesContext(connection) as few:
        client.get(reverse("events:list"))
    for _ in range(30):
        event = EventFactory()
        EntryFactory(category=CategoryFactory(event=event))
    with CaptureQueriesContext(connection) as many:
        page = html(client.get(reverse("events:list")))
    assert len(many) == len(few)
    assert "Page 1 of 2" in page


def seed_event(**fields):
    event = EventFactory(
        title="Students' Scrabble Championship",
        organisers="Jurong Green CC Management Committee and South West CDC",
        address="No. 6 Jurong West Avenue 1, Singapore 649520",
        attire="School uniform",
        eligibility="Open to primary and secondary school students only",
        description="Prizes for the **top 10**.<script>alert('x')</script>",
        rules_agreement="I agree to abide by the rules.",
        payment_instructions="Pay at the CC counter.",
        **fields,
    )
    a = CategoryFactory(event=event, name="Category A – Secondary", school_level="secondary", quota=10)
    b = CategoryFactory(event=event, name="Category B – Primary", school_level="primary", quota=10)
    for category in (a, b):
        FeeFactory(category=category, name="Standard", amount=Decimal("3"), position=0)
        FeeFactory(
            category=category,
            name="Passion Card holder",
            amount=Decimal("2"),
            is_concession=True,
            proof_label="Passion Card number",
            position=1,
        )
        PrizeFactory(category=category, rank_from=1, rank_to=1, description="Shopping voucher S$100 + trophy")
        PrizeFactory(category=category, rank_from=6, rank_to=10, description="Trophy")
    return event, a, b


def test_the_event_page_shows_the_announcement(client):
    event, a, b = seed_event()
    EntryFactory(category=a, player=PlayerFactory(full_name="Alice Ong"), status=EntryStatus.CONFIRMED)
    page = html(client.get(event.get_absolute_url()))
    for text in (
        "Jointly organised by Jurong Green CC",
        "No. 6 Jurong West Avenue 1",
        "School uniform",
        "Open to primary and secondary school students only",
        "Category A – Secondary",
        "S$3.00",
        "Passion Card number",
        "6th–10th",
        "Shopping voucher S$100 + trophy",
        "<strong>top 10</strong>",
        "9</strong> of 10 places left",
        "Alice Ong",
        "unrated",
        "Add to calendar",
    ):
        assert text in page, text
    assert "<script>" not in page


def test_the_organiser_may_hide_the_entrant_list(client):
    event, a, _ = seed_event(entrants_public=False)
    EntryFactory(category=a, player=PlayerFactory(full_name="Hidden Kid"))
    assert "Hidden Kid" not in html(client.get(event.get_absolute_url()))
    client.force_login(event.owner)
    assert "Hidden Kid" in html(client.get(event.get_absolute_url()))


def test_a_large_entrant_list_is_shown_a_page_at_a_time_with_constant_queries(client, monkeypatch):
    from events.views import public as views

    monkeypatch.setattr(views, "ENTRIES_PAGE_SIZE", 3)
    event, a, b = seed_event()
    accepted = timezone.now() - timedelta(days=1)

    def enter(category, name, minutes):
        EntryFactory(
            category=category, player=PlayerFactory(full_name=name), accepted_at=accepted + timedelta(minutes=minutes)
        )

    enter(a, "Ann One", 1)
    enter(b, "Bea Two", 2)
    with CaptureQueriesContext(connection) as few:
        small = html(client.get(event.get_absolute_url()))
    assert "Entrants (2)" in small and "Page 1 of" not in small
    for n in range(3, 8):
        enter(a if n % 2 else b, f"Entrant {n}", n)
    with CaptureQueriesContext(connection) as many:
        first = html(client.get(event.get_absolute_url()))
    assert len(many) == len(few)
    # Category A first (Ann One, Entrant 3, 5, 7), then B, in the order they entered.
    assert "Entrants (7)" in first and "Entrants 1–3," in first and "Page 1 of 3" in first
    assert "Ann One" in first and "Entrant 5" in first and "Entrant 7" not in first and "Bea Two" not in first
    assert 'href="?page=2#entrants"' in first
    last = html(client.get(event.get_absolute_url(), {"page": 3}))
    assert "Entrant 6" in last and "<td>7</td>" in last and "Ann One" not in last
    assert "Page 3 of 3" in last and 'href="?page=2#entrants"' in last
    assert "Page 1 of 3" in html(client.get(event.get_absolute_url(), {"page": "junk"}))
    assert "Page 3 of 3" in html(client.get(event.get_absolute_url(), {"page": 99}))
    assert "Page 3 of 3" in html(client.get(event.get_absolute_url(), {"page": "9" * 30}))


def test_times_are_shown_in_the_event_time_zone(client):
    from datetime import datetime
    from zoneinfo import ZoneInfo

    closes = datetime(2031, 8, 27, 23, 59, tzinfo=ZoneInfo("Europe/London"))
    event = EventFactory(
        time_zone="Europe/London", registration_closes_at=closes, starts_on=date(2031, 9, 6), ends_on=date(2031, 9, 6)
    )
    assert "27 August 2031, 23:59" in html(client.get(event.get_absolute_url()))


def test_the_event_page_uses_constant_queries(client):
    event, a, b = seed_event()
    client.force_login(player_with_account().user)
    # One entrant to start with: an event with none has no entrants' players to read.
    EntryFactory(category=a, status=EntryStatus.CONFIRMED)
    with CaptureQueriesContext(connection) as few:
        html(client.get(event.get_absolute_url()))
    for i in range(12):
        EntryFactory(category=a if i % 2 else b, status=EntryStatus.CONFIRMED if i % 3 else EntryStatus.WAITLISTED)
    with CaptureQueriesContext(connection) as many:
        html(client.get(event.get_absolute_url()))
    assert len(many) == len(few)


def test_calendar_file_and_feed(client):
    from datetime import time

    event = EventFactory(
        title="Championship", start_time=time(9, 30), estimated_end_time=time(16, 45), time_zone="Asia/Singapore"
    )
    EventFactory(title="Hidden draft", status=EventStatus.DRAFT)
    single = client.get(reverse("events:ics", args=[event.slug]))
    assert single["Content-Type"].startswith("text/calendar")
    body = single.content.decode()
    assert "SUMMARY:Championship" in body and "TZID=Asia/Singapore" in body
    assert f"DTSTART;TZID=Asia/Singapore:{event.starts_on:%Y%m%d}T093000" in body
    feed = client.get(reverse("events:feed")).content.decode()
    assert "Championship" in feed and "Hidden draft" not in feed


# --- entering ---------------------------------------------------------------------------------


def test_entering_alone_through_the_page(client, on_commit):
    event, a, b = seed_event()
    pupil = player_with_account(school_level=SchoolLevel.PRIMARY)
    client.force_login(pupil.user)
    form = html(client.get(reverse("events:enter", args=[event.slug])))
    assert "Category A – Secondary is for secondary school students, not primary." in form
    standard = b.fees.get(name="Standard")
    refused = client.post(reverse("events:enter", args=[event.slug]), {"option": f"{b.pk}:{standard.pk}"})
    assert "Agree to the rules and indemnity to enter." in html(refused)
    assert not Entry.objects.exists()
    with on_commit(execute=True):
        response = client.post(
            reverse("events:enter", args=[event.slug]),
            {"option": f"{b.pk}:{standard.pk}", "accept_rules": "on", "phone": "91234567"},
            follow=True,
        )
    page = html(response)
    assert "Your place is held" in page and "Pending payment" in page
    entry = Entry.objects.get()
    assert entry.player == pupil and entry.rules_accepted_at and entry.phone == "91234567"
    assert len(mail.outbox) == 1


def test_an_ineligible_option_cannot_be_forced_through_the_form(client):
    event, a, b = seed_event()
    pupil = player_with_account(school_level=SchoolLevel.PRIMARY)
    client.force_login(pupil.user)
    fee = a.fees.get(name="Standard")
    page = html(
        client.post(reverse("events:enter", args=[event.slug]), {"option": f"{a.pk}:{fee.pk}", "accept_rules": "on"})
    )
    assert "Select a valid choice" in page
    assert not Entry.objects.exists()


def group_post(event, students, **contact):
    data = {
        "students-TOTAL_FORMS": str(event.max_group_size),
        "students-INITIAL_FORMS": "0",
        "students-MIN_NUM_FORMS": "0",
        "students-MAX_NUM_FORMS": str(event.max_group_size),
        "role": "teacher",
        "contact_name": "Mrs Tan",
        "school": "Yuhua Primary",
        "address": "1 Jurong West",
        "phone": "61234567",
        "email": "tan@example.org",
        "accept_rules": "on",
        **contact,
    }
    pupil_born = date(event.starts_on.year - 9, 6, 1).isoformat()  # of primary school age
    for i, student in enumerate(students):
        if student.get("full_name"):
            student = {"date_of_birth": pupil_born, **student}
        for key, value in student.items():
            data[f"students-{i}-{key}"] = value
    return data


def test_a_teacher_enters_three_students_through_the_page(client):
    event, a, b = seed_event()
    teacher = UserFactory()
    client.force_login(teacher)
    form = html(client.get(reverse("events:enter_group", args=[event.slug])))
    assert form.split("<template")[0].count("Name as on ID") == 3 and "Paste the class list" in form
    standard = b.fees.get(name="Standard")
    concession = b.fees.get(is_concession=True)
    students = [
        {"full_name": "Alice Ong", "school": "Yuhua Primary", "phone": "81111111", "option": f"{b.pk}:{standard.pk}"},
        {"full_name": "Ben Goh", "school": "Yuhua Primary", "phone": "82222222", "option": f"{b.pk}:{standard.pk}"},
        {
            "full_name": "Chloe Lim",
            "school": "Yuhua Primary",
            "phone": "83333333",
            "option": f"{b.pk}:{concession.pk}",
            "concession_proof": "PC-42",
        },
    ]
    response = client.post(reverse("events:enter_group", args=[event.slug]), group_post(event, students), follow=True)
    assert "3 students entered." in html(response)
    entries = Entry.objects.filter(group__submitted_by=teacher).order_by("pk")
    assert [e.player.full_name for e in entries] == ["Alice Ong", "Ben Goh", "Chloe Lim"]
    assert [e.amount_due for e in entries] == [Decimal("3.00"), Decimal("3.00"), Decimal("2.00")]
    page = html(client.get(reverse("events:my_entries")))
    assert page.count("Change name") == 3


def test_a_group_refusal_shows_on_the_page_and_saves_nothing(client):
    event, a, b = seed_event()
    client.force_login(UserFactory())
    standard = b.fees.get(name="Standard")
    students = [
        {"full_name": "Alice", "option": f"{b.pk}:{standard.pk}"},
        {"member_number": "99999", "option": f"{b.pk}:{standard.pk}"},
    ]
    page = html(client.post(reverse("events:enter_group", args=[event.slug]), group_post(event, students)))
    assert "Student 2: there is no member with number 99999" in page
    assert not Entry.objects.exists()


def test_my_entries_shows_the_waiting_list_position_and_takes_an_offer(client):
    event, category, (fee,) = open_event(quota=1)
    services.register_entry(player_with_account().user, event, category=category, fee=fee)
    me = player_with_account()
    mine = services.register_entry(me.user, event, category=category, fee=fee)
    client.force_login(me.user)
    assert "Number <strong>1</strong> on the waiting list" in html(client.get(reverse("events:my_entries")))
    Entry.objects.exclude(pk=mine.pk).update(status=EntryStatus.WITHDRAWN)
    with_offer = services.offer_free_places(Event.objects.get(pk=event.pk))
    assert with_offer == [mine] or with_offer[0].pk == mine.pk
    assert "Accept the place" in html(client.get(reverse("events:my_entries")))
    html(client.post(reverse("events:accept_offer", args=[mine.pk]), follow=True))
    mine.refresh_from_db()
    assert mine.status == EntryStatus.PENDING_PAYMENT


def test_someone_else_cannot_withdraw_my_entry_through_the_page(client):
    event, category, (fee,) = open_event()
    entry = services.register_entry(player_with_account().user, event, category=category, fee=fee)
    client.force_login(UserFactory())
    refused = client.post(reverse("events:withdraw", args=[entry.pk]))
    assert refused.status_code == 403 and "That is not your entry." in refused.content.decode()
    entry.refresh_from_db()
    assert entry.status == EntryStatus.PENDING_PAYMENT


# --- organiser pages ---------------------------------------------------------------------------


def test_the_dashboard_counts_and_lists_entries(client):
    event, category, (fee,) = open_event(quota=3)
    entries = [services.register_entry(player_with_account().user, event, category=category, fee=fee) for _ in range(4)]
    services.record_payment(event.owner, entries[0], amount="3", method="in_person")
    client.force_login(event.owner)
    page = html(client.get(reverse("events:manage", args=[event.slug])))
    assert '<div class="fs-4">1</div><div class="small">Confirmed</div>' in page
    assert '<div class="fs-4">2</div><div class="small">Pending payment</div>' in page
    assert '<div class="fs-4">1</div><div class="small">Waiting list</div>' in page
    assert '<div class="fs-4">0</div><div class="small">Places left</div>' in page
    waiting_only = html(client.get(reverse("events:manage", args=[event.slug]), {"status": "waitlisted"}))
    assert waiting_only.count("badge bg-info") == 1


def test_organiser_pages_are_only_for_the_owner(client):
    event, category, (fee,) = open_event()
    entry = services.register_entry(player_with_account().user, event, category=category, fee=fee)
    client.force_login(UserFactory())
    for url in (
        reverse("events:manage", args=[event.slug]),
        reverse("events:edit", args=[event.slug]),
        reverse("events:export", args=[event.slug]),
        reverse("events:email", args=[event.slug]),
        reverse("events:record_payment", args=[entry.pk]),
        reverse("events:move_entry", args=[entry.pk]),
    ):
        assert client.get(url).status_code == 403, url
    assert client.post(reverse("events:lifecycle", args=[event.slug, "close"])).status_code == 403


def test_recording_a_payment_through_the_page(client, on_commit):
    event, category, (fee,) = open_event()
    entry = services.register_entry(player_with_account().user, event, category=category, fee=fee)
    client.force_login(event.owner)
    url = reverse("events:record_payment", args=[entry.pk])
    refused = html(client.post(url, {"amount": "-1", "method": "in_person"}))
    assert "The amount must be more than zero." in refused
    with on_commit(execute=True):
        html(client.post(url, {"amount": "3.00", "method": "cheque", "reference": "000777"}, follow=True))
    entry.refresh_from_db()
    assert entry.status == EntryStatus.CONFIRMED
    assert mail.outbox[-1].subject.startswith("[Scrabble Association] Payment received")


def test_move_export_email_and_close_through_the_pages(client):
    event, a, (fee_a,) = open_event()
    b = CategoryFactory(event=event, name="Category B")
    fee_b = FeeFactory(category=b)
    entry = services.register_entry(player_with_account().user, event, category=a, fee=fee_a)
    client.force_login(event.owner)
    html(client.post(reverse("events:move_entry", args=[entry.pk]), {"option": f"{b.pk}:{fee_b.pk}"}, follow=True))
    entry.refresh_from_db()
    assert entry.category == b
    csv_text = client.get(reverse("events:export", args=[event.slug])).content.decode()
    assert csv_text.splitlines()[0].startswith("Order,Accepted at,Status,Category")
    assert entry.player.full_name in csv_text and "Category B" in csv_text
    page = html(
        client.post(reverse("events:email", args=[event.slug]), {"subject": "Hello", "body": "See you."}, follow=True)
    )
    assert "Message sent to 1 address." in page
    html(client.post(reverse("events:lifecycle", args=[event.slug, "close"]), follow=True))
    event.refresh_from_db()
    assert event.status == EventStatus.REGISTRATION_CLOSED


def test_the_seed_announcement_is_published_through_the_pages_and_entered(client):
    """An organiser publishes the seed 004 event; a teacher enters three students and a student enters alone."""
    from tests.events.factories import make_organiser
    from tests.factories import AssociationFactory

    AssociationFactory()
    organiser = make_organiser()
    client.force_login(organiser)
    closes = (timezone.localdate() + timedelta(days=20)).strftime("%Y-%m-%dT23:59")
    day = (timezone.localdate() + timedelta(days=30)).isoformat()
    response = client.post(
        reverse("events:create"),
        {
            "title": "Students' Scrabble Championship",
            "organisers": "Jurong Green CC Management Committee, Scrabble Club, South West CDC and WEC",
            "kind": "students",
            "starts_on": day,
            "time_zone": "Asia/Singapore",
            "venue": "Jurong Green Community Club",
            "address": "No. 6 Jurong West Avenue 1, Singapore 649520",
            "reporting_time": "09:00",
            "reporting_until": "09:15",
            "start_time": "09:30",
            "estimated_end_time": "16:45",
            "prize_presentation_time": "17:15",
            "eligibility": "Open to primary and secondary school students only",
            "attire": "School uniform",
            "number_of_games": "5",
            "pairing_system": "koth",
            "time_control_minutes": "25",
            "bye_spread": "50",
            "forfeit_spread": "50",
            "late_forfeit_spread": "100",
            "lexicon": "CSW15",
            "registration_opens_at": (timezone.localdate() - timedelta(days=1)).strftime("%Y-%m-%dT09:00"),
            "registration_closes_at": closes,
            "keeps_waiting_list": "on",
            "payment_hold_hours": "72",
            "offer_hold_hours": "48",
            "max_group_size": "15",
            "payment_methods": ["in_person", "cheque"],
            "rules_agreement": "I agree to abide by the rules and not to hold the organiser responsible.",
            "entrants_public": "on",
        },
    )
    event = Event.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("events:manage", args=[event.slug])
    assert timezone.localtime(event.registration_closes_at, event.zone).strftime("%Y-%m-%dT%H:%M") == closes
    for position, (name, level, amounts) in enumerate(
        (
            ("Category A – Secondary School Student", "secondary", (100, 80, 60, 40, 20)),
            ("Category B – Primary School Student", "primary", (80, 60, 40, 20, 10)),
        ),
        start=1,
    ):
        data = {
            "name": name,
            "position": position,
            "quota": "40",
            "school_level": level,
            "fees-TOTAL_FORMS": "2",
            "fees-INITIAL_FORMS": "0",
            "fees-MIN_NUM_FORMS": "0",
            "fees-MAX_NUM_FORMS": "1000",
            "fees-0-name": "Standard",
            "fees-0-amount": "3.00",
            "fees-0-note": "incl. GST",
            "fees-1-name": "Passion Card holder",
            "fees-1-amount": "2.00",
            "fees-1-note": "incl. GST",
            "fees-1-is_concession": "on",
            "fees-1-proof_label": "Passion Card number",
            "prizes-TOTAL_FORMS": "7",
            "prizes-INITIAL_FORMS": "0",
            "prizes-MIN_NUM_FORMS": "0",
            "prizes-MAX_NUM_FORMS": "1000",
        }
        for i, amount in enumerate(amounts):
            data |= {
                f"prizes-{i}-kind": "place",
                f"prizes-{i}-rank_from": i + 1,
                f"prizes-{i}-rank_to": i + 1,
                f"prizes-{i}-description": f"Shopping voucher S${amount} + trophy",
                f"prizes-{i}-amount": amount,
            }
        data |= {
            "prizes-5-kind": "place",
            "prizes-5-rank_from": 6,
            "prizes-5-rank_to": 10,
            "prizes-5-description": "Trophy",
            "prizes-6-kind": "lucky_draw",
            "prizes-6-description": "Lucky draw prizes for non-prize winners",
        }
        assert client.post(reverse("events:category_add", args=[event.slug]), data).status_code == 302
    html(client.post(reverse("events:lifecycle", args=[event.slug, "publish"]), follow=True))
    event.refresh_from_db()
    assert event.status == EventStatus.REGISTRATION_OPEN
    a, b = event.categories.order_by("position")
    assert a.prizes.count() == 7 and b.fees.count() == 2

    client.logout()
    public = html(client.get(event.get_absolute_url()))
    assert "Shopping voucher S$100 + trophy" in public and "40</strong> of 40 places left" in public

    teacher = UserFactory()
    client.force_login(teacher)
    standard = b.fees.get(is_concession=False)
    students = [
        {
            "full_name": f"Pupil {n}",
            "school": "Rulang Primary",
            "phone": "9000000" + str(n),
            "option": f"{b.pk}:{standard.pk}",
        }
        for n in range(3)
    ]
    assert "3 students entered." in html(
        client.post(reverse("events:enter_group", args=[event.slug]), group_post(event, students), follow=True)
    )

    alone = player_with_account(school_level=SchoolLevel.SECONDARY)
    client.force_login(alone.user)
    concession = a.fees.get(is_concession=True)
    html(
        client.post(
            reverse("events:enter", args=[event.slug]),
            {"option": f"{a.pk}:{concession.pk}", "concession_proof": "PC-1", "accept_rules": "on"},
            follow=True,
        )
    )
    assert Entry.objects.filter(event=event, status=EntryStatus.PENDING_PAYMENT).count() == 4
    assert "39</strong> of 40 places left" in html(client.get(event.get_absolute_url()))


# --- shared pages -----------------------------------------------------------------------------


def test_home_account_and_player_pages_show_events(client):
    event, category, (fee,) = open_event(title="Home Page Championship")
    player = player_with_account()
    entry = services.register_entry(player.user, event, category=category, fee=fee)
    services.record_payment(event.owner, entry, amount="3", method="in_person")
    assert "Home Page Championship" in html(client.get("/"))
    assert "Home Page Championship" in html(client.get(player.get_absolute_url()))
    client.force_login(player.user)
    assert "My event entries" in html(client.get(reverse("players:me")))


def test_a_teacher_changes_a_student_name_through_the_page(client):
    event, category, (fee,) = open_event()
    teacher = UserFactory()
    group = services.register_group(
        teacher,
        event,
        contact={"contact_name": "Mrs Tan", "address": "x", "phone": "1", "email": "tan@example.org"},
        students=[{"full_name": "First Pupil", "category": category, "fee": fee}],
    )
    entry = group.entries.get()
    client.force_login(teacher)
    url = reverse("events:replace_student", args=[entry.pk])
    assert "Replacing <strong>First Pupil</strong>" in html(client.get(url))
    html(client.post(url, {"full_name": "Second Pupil", "school": "Yuhua Primary"}, follow=True))
    entry.refresh_from_db()
    assert entry.player.full_name == "Second Pupil"
    client.force_login(UserFactory())
    assert client.get(url).status_code == 404


def test_a_group_row_without_a_category_names_the_student(client):
    event, category, (fee,) = open_event()
    client.force_login(UserFactory())
    page = html(
        client.post(reverse("events:enter_group", args=[event.slug]), group_post(event, [{"full_name": "Dan"}]))
    )
    assert "Student 1 (Dan): Choose a category." in page


def test_an_adult_is_told_on_the_event_page_that_the_event_is_for_students(client):
    event, a, b = seed_event(kind=EventKind.STUDENTS)
    adult = player_with_account(date_of_birth=date(1980, 5, 1), school_level=SchoolLevel.NONE)
    client.force_login(adult.user)
    page = html(client.get(event.get_absolute_url()))
    assert "This event is for school students." in page and "Enter myself" not in page
    assert f"{a.name}: {a.eligibility_text}" in page and f"{b.name}: {b.eligibility_text}" in page
    assert "Enter students (teacher, parent or guardian)" in page
    pupil = player_with_account(
        date_of_birth=date(timezone.localdate().year - 14, 1, 1), school_level=SchoolLevel.SECONDARY
    )
    client.force_login(pupil.user)
    page = html(client.get(event.get_absolute_url()))
    assert "Enter myself" in page and "This event is for school students." not in page


def test_an_event_without_categories_shows_no_empty_categories_heading(client):
    bare = EventFactory(status=EventStatus.COMPLETED, title="Old Club Night")
    assert "Categories, fees and prizes" not in client.get(bare.get_absolute_url()).content.decode()
    event, _, _ = open_event(quota=5)
    assert "Categories, fees and prizes" in client.get(event.get_absolute_url()).content.decode()
