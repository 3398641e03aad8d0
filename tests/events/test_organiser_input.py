"""What organisers type: event form input that used to break pages, emails to entrants (filters, Reply-To,
one-line subjects), the CSV export, waiving a fee, slugs; the director's warning about unpaid entrants."""

import csv
import io
from datetime import date, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from django.urls import reverse

from events import services
from events.models import EntryStatus, Event
from events.play.models import Division
from tests.events.factories import (
    CategoryFactory,
    FeeFactory,
    fast_passwords,  # noqa: F401
    make_organiser,
    open_event,
    player_with_account,
)
from tests.factories import AssociationFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db
SGT = ZoneInfo("Asia/Singapore")

FORM = {
    "title": "Toa Payoh Rapid Cup 2027",
    "kind": "tournament",
    "starts_on": "2027-02-13",
    "time_zone": "Asia/Singapore",
    "number_of_games": "7",
    "pairing_system": "koth",
    "time_control_minutes": "25",
    "registration_opens_at": "2027-01-01T09:00",
    "registration_closes_at": "2027-02-06T23:59",
    "payment_hold_hours": "72",
    "offer_hold_hours": "48",
    "max_group_size": "15",
    "bye_spread": "50",
    "forfeit_spread": "50",
    "late_forfeit_spread": "100",
}


def html(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


@pytest.fixture
def organiser(client):
    AssociationFactory()
    user = make_organiser(email="org@example.org")
    client.force_login(user)
    return user


def test_a_good_announcement_gets_its_year_in_the_slug_once(client, organiser):
    response = client.post(reverse("events:create"), FORM)
    assert response.status_code == 302
    assert Event.objects.get().slug == "toa-payoh-rapid-cup-2027"
    event = services.create_event(organiser, title="Toa Payoh Rapid Cup", starts_on=date(2027, 2, 13))
    assert event.slug == "toa-payoh-rapid-cup-2027-2"


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("registration_closes_at", "0001-01-01T00:00", "Enter a date between the years 2000 and 2100."),
        ("registration_opens_at", "9999-12-31T23:59", "Enter a date between the years 2000 and 2100."),
        ("starts_on", "0001-01-01", "Enter a date between the years 2000 and 2100."),
        ("registration_closes_at", "2027-02-14T09:00", "Registration must close before the event starts."),
        ("registration_opens_at", "2027-02-07T09:00", "Registration must open before it closes."),
        ("number_of_games", "0", "greater than or equal to 1"),
        ("number_of_games", "1099511627776", "less than or equal to 100"),
        ("max_entrants", str(10**30), "less than or equal to 100000"),
        ("offer_hold_hours", "1000000000", "less than or equal to 720"),
        ("payment_hold_hours", "100000", "less than or equal to 720"),
        ("title", "Rapid Cup\r\nBcc: everyone@example.org", "Write this on one line"),
    ],
)
def test_input_that_used_to_break_pages_is_refused_on_the_form(client, organiser, field, value, message):
    page = html(client.post(reverse("events:create"), {**FORM, field: value}))
    assert message in page
    assert not Event.objects.exists()
    # Every page that lists events still answers.
    assert client.get(reverse("events:mine")).status_code == 200


def test_the_service_refuses_the_same_for_the_api_and_commands(organiser):
    fields = dict(title="Cup", starts_on=date(2027, 2, 13), registration_closes_at=datetime(1, 1, 1, tzinfo=SGT))
    with pytest.raises(services.EventError) as refusal:
        services.create_event(organiser, **fields)
    assert refusal.value.field == "registration_closes_at"
    event = services.create_event(organiser, title="Cup", starts_on=date(2027, 2, 13))
    for name, value in (("offer_hold_hours", 10**9), ("number_of_games", 0), ("title", "A\nB")):
        with pytest.raises(services.EventError) as refusal:
            services.update_event(organiser, event, **{name: value})
        assert refusal.value.field == name
    event.refresh_from_db()
    assert event.offer_hold_hours == 48 and event.number_of_games == 5 and event.title == "Cup"


def test_the_edit_page_refuses_a_bad_date_and_keeps_working(client, organiser):
    client.post(reverse("events:create"), FORM)
    event = Event.objects.get()
    edit = reverse("events:edit", args=[event.slug])
    page = html(client.post(edit, {**FORM, "registration_closes_at": "0001-01-01T00:00"}))
    assert "Enter a date between the years 2000 and 2100." in page
    assert client.get(edit).status_code == 200
    assert client.get(reverse("events:manage", args=[event.slug])).status_code == 200


# --- emails to entrants ----------------------------------------------------------------------------


@pytest.fixture
def entrants():
    """Two categories: in Open one paid, one unpaid, one waiting (quota 2); in Junior one unpaid."""
    event, open_, (fee,) = open_event(quota=2)
    junior = CategoryFactory(event=event, name="Junior")
    junior_fee = FeeFactory(category=junior, amount=Decimal("2.00"))
    people = {}
    for name in ("paid", "unpaid", "wait", "kid"):
        user = UserFactory(email=f"{name}@example.org")
        people[name] = PlayerFactory(user=user, email=user.email)
    for name in ("paid", "unpaid", "wait"):
        services.register_entry(people[name].user, event, category=open_, fee=fee)
    services.register_entry(people["kid"].user, event, category=junior, fee=junior_fee)
    paid = event.entries.get(player=people["paid"])
    services.record_payment(event.owner, paid, amount="3.00", method="in_person")
    mail.outbox = []
    return event, open_, junior


def sent_to(outbox) -> set[str]:
    return {m.to[0] for m in outbox}


def test_emails_go_to_the_chosen_entrants_with_replies_to_the_organiser(client, entrants, on_commit):
    event, open_, junior = entrants
    client.force_login(event.owner)
    url = reverse("events:email", args=[event.slug])
    with on_commit(execute=True):
        page = html(
            client.post(url, {"audience": "unpaid", "subject": "Please pay", "body": "By Friday."}, follow=True)
        )
    assert "Message sent to 2 addresses." in page
    assert sent_to(mail.outbox) == {"unpaid@example.org", "kid@example.org"}
    assert all(
        m.reply_to == [event.owner.email] and m.subject == f"[Scrabble Association] Please pay – {event.title}"
        for m in mail.outbox
    )
    assert "By Friday." in mail.outbox[0].body

    mail.outbox = []
    with on_commit(execute=True):
        client.post(url, {"audience": "unpaid", "category": open_.pk, "subject": "Pay", "body": "Now."})
    assert sent_to(mail.outbox) == {"unpaid@example.org"}
    mail.outbox = []
    with on_commit(execute=True):
        client.post(url, {"audience": "waiting", "subject": "Waiting", "body": "Soon."})
    assert sent_to(mail.outbox) == {"wait@example.org"}


def test_a_subject_on_two_lines_is_refused(client, entrants, on_commit):
    event, *_ = entrants
    client.force_login(event.owner)
    with on_commit(execute=True):
        page = html(
            client.post(
                reverse("events:email", args=[event.slug]),
                {"subject": "Hello\r\nBcc: all@example.org", "body": "Hi."},
            )
        )
    assert "Write the subject on one line." in page and mail.outbox == []


def test_the_csv_does_not_let_a_name_become_a_formula(client):
    event, category, (fee,) = open_event()
    player = player_with_account(
        full_name='=HYPERLINK("http://evil.example","Click")', school="+1 School", phone="-2+cmd|' /C calc'!A0"
    )
    services.register_entry(player.user, event, category=category, fee=fee)
    client.force_login(event.owner)
    rows = list(csv.reader(io.StringIO(client.get(reverse("events:export", args=[event.slug])).content.decode())))
    row = dict(zip(rows[0], rows[1], strict=True))
    assert row["Name as on ID"] == '\'=HYPERLINK("http://evil.example","Click")'
    assert row["School"] == "'+1 School" and row["Phone"] == "'-2+cmd|' /C calc'!A0"
    assert row["Amount due"] == "3.00"


def export_rows(client, event, **filters) -> list[dict]:
    response = client.get(reverse("events:export", args=[event.slug]), filters)
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    return [dict(zip(rows[0], row, strict=True)) for row in rows[1:]]


def test_the_csv_keeps_the_manage_pages_filter_charges_only_places_and_keeps_phone_numbers(client):
    """Issue 23, defect 26: the CSV linked from a filtered manage page holds the rows the page shows; a waiting-list
    row is charged nothing; a phone number is written as typed (no apostrophe), being no formula."""
    event, category, (fee,) = open_event(quota=1)
    first = player_with_account(full_name="Tan Wei Ling", phone="+65 9123 4567")
    second = player_with_account(full_name="Lim Jun Jie", phone="+65 (0) 6567 1374")
    services.register_entry(first.user, event, category=category, fee=fee)
    waiting = services.register_entry(second.user, event, category=category, fee=fee)
    assert waiting.status == EntryStatus.WAITLISTED
    client.force_login(event.owner)
    manage = html(client.get(reverse("events:manage", args=[event.slug]), {"status": "waitlisted"}))
    assert f'href="{reverse("events:export", args=[event.slug])}?status=waitlisted"' in manage
    [row] = export_rows(client, event, status="waitlisted")
    assert row["Name as on ID"] == "Lim Jun Jie" and row["Status"] == "On the waiting list"
    assert row["Amount due"] == "" and row["Phone"] == "+65 (0) 6567 1374"
    [row] = export_rows(client, event, status="pending_payment", category=str(category.pk))
    assert row["Name as on ID"] == "Tan Wei Ling" and row["Amount due"] == "3.00" and row["Phone"] == "+65 9123 4567"
    assert len(export_rows(client, event)) == 2 and len(export_rows(client, event, status="nonsense")) == 2


# --- waiving a fee ---------------------------------------------------------------------------------


def test_waiving_sets_the_balance_to_zero_with_its_own_words(client, on_commit):
    event, category, (fee,) = open_event(fees=(Decimal("30.00"),))
    player = player_with_account()
    entry = services.register_entry(player.user, event, category=category, fee=fee)
    mail.outbox = []
    client.force_login(event.owner)
    url = reverse("events:record_payment", args=[entry.pk])
    with on_commit(execute=True):
        page = html(client.post(url, {"method": "waived", "note": "Volunteer"}, follow=True))
    assert "Payment recorded." in page
    entry.refresh_from_db()
    assert entry.status == EntryStatus.CONFIRMED and entry.balance == 0
    assert entry.amount_paid == 0 and entry.amount_due == 0
    (message,) = mail.outbox
    assert message.subject == f"[Scrabble Association] Entry fee waived – {event.title}"
    assert "has waived the SGD 30.00 still due" in message.body and "recorded your payment" not in message.body
    with pytest.raises(services.RegistrationError, match="Nothing is due"):
        services.record_payment(event.owner, entry, method="waived")
    with pytest.raises(services.RegistrationError, match="Enter the amount received"):
        services.record_payment(event.owner, entry, method="in_person")


# --- the director's warning ------------------------------------------------------------------------


def test_the_divisions_page_warns_that_unpaid_entrants_will_be_left_out(client, entrants):
    event, open_, _ = entrants
    Division.objects.create(event=event, category=open_, name="Open")
    client.force_login(event.owner)
    page = html(client.get(reverse("events:play_divisions", args=[event.slug])))
    assert "2 entries are not paid yet and will be left out" in page


def test_after_closing_registration_by_hand_the_pages_show_it_closed_and_dates_can_move(client, organiser):
    from django.utils import timezone

    soon = {
        **FORM,
        "starts_on": "2026-12-12",
        "registration_opens_at": "2026-11-01T09:00",
        "registration_closes_at": "2026-12-10T23:59",
    }
    client.post(reverse("events:create"), soon)
    event = Event.objects.get()
    FeeFactory(category=CategoryFactory(event=event, name="Open", quota=9))
    services.publish_event(organiser, event)
    services.open_registration(organiser, event)
    public = reverse("events:detail", args=[event.slug])
    assert "Closing date" in html(client.get(public)) and "9</strong> places left" in html(client.get(public))

    html(client.post(reverse("events:lifecycle", args=[event.slug, "close"]), follow=True))
    event.refresh_from_db()
    closed = timezone.localtime(event.registration_closed_at, SGT)
    assert event.registration_closes_at == event.registration_closed_at
    page = html(client.get(public))
    assert f"Registration closed on {closed:%-d %b %Y, %H:%M}" in page
    assert "Closing date" not in page and "places left" not in page and "10 December 2026" not in page
    manage = html(client.get(reverse("events:manage", args=[event.slug])))
    assert f"closed on {closed:%-d %b %Y, %H:%M}" in manage and "closing " not in manage

    # The organiser moves the event a week later: not refused for the closing time that never came.
    edit = reverse("events:edit", args=[event.slug])
    response = client.post(
        edit, {**soon, "starts_on": "2026-12-19", "registration_closes_at": f"{closed:%Y-%m-%dT%H:%M}"}
    )
    assert response.status_code == 302, response.content.decode()
    event.refresh_from_db()
    assert event.starts_on == date(2026, 12, 19) and event.status == "registration_closed"


def test_moving_a_one_day_event_moves_its_end_and_tells_each_entrant(client, organiser, on_commit):
    from tests.events.factories import EntryFactory

    client.post(reverse("events:create"), FORM)
    event = Event.objects.get()
    category = CategoryFactory(event=event, name="Open")
    FeeFactory(category=category)
    services.publish_event(organiser, event)
    for name in ("ann", "bob"):
        EntryFactory(category=category, player=PlayerFactory(email=f"{name}@example.org"))
    EntryFactory(category=category, player=PlayerFactory(email="gone@example.org"), status=EntryStatus.CANCELLED)
    mail.outbox = []
    edit = reverse("events:edit", args=[event.slug])
    form = {**FORM, "ends_on": "2027-02-13", "venue": "Toa Payoh Hub"}
    with on_commit(execute=True):
        response = client.post(edit, {**form, "starts_on": "2027-02-20"})
    assert response.status_code == 302
    event.refresh_from_db()
    assert (event.starts_on, event.ends_on) == (date(2027, 2, 20), date(2027, 2, 20))
    assert sorted(m.to[0] for m in mail.outbox) == ["ann@example.org", "bob@example.org"]
    message = mail.outbox[0]
    assert message.subject == f"[Scrabble Association] New date and venue – {event.title}"
    assert "Date: Saturday 20 February 2027" in message.body and "Venue: Toa Payoh Hub" in message.body
    page = html(client.get(reverse("events:detail", args=[event.slug])))
    assert "13 February 2027" not in page

    # Nothing about the date or venue changed: nobody is written to.
    mail.outbox = []
    with on_commit(execute=True):
        client.post(edit, {**form, "starts_on": "2027-02-20", "ends_on": "2027-02-20", "number_of_games": "8"})
    assert mail.outbox == []


def test_the_home_page_lists_neither_completed_nor_cancelled_events_as_upcoming(client):
    from django.utils import timezone

    from events.models import EventStatus
    from tests.events.factories import EventFactory

    today = timezone.localdate()
    for title, status in (("Done Cup", EventStatus.COMPLETED), ("Off Cup", EventStatus.CANCELLED)):
        EventFactory(title=title, status=status, starts_on=today, ends_on=today)
    EventFactory(title="Next Cup", status=EventStatus.REGISTRATION_OPEN, starts_on=today, ends_on=today)
    page = html(client.get("/"))
    assert "Next Cup" in page and "Done Cup" not in page and "Off Cup" not in page
