"""The entry pages: class list, group total and one payment, notices before the form, wording."""

from datetime import date
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from events import services
from events.models import Entry, EntryStatus, EventKind
from tests.events.factories import (
    EntryFactory,
    fast_passwords,  # noqa: F401
    open_event,
    player_with_account,
)
from tests.events.test_entry_doors import PRIMARY, SECONDARY, contact, pupil_born, standard, students_event
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def group_form(**fields):
    data = {
        "students-TOTAL_FORMS": "3",
        "students-INITIAL_FORMS": "0",
        "students-MIN_NUM_FORMS": "0",
        "students-MAX_NUM_FORMS": "15",
        **{k: v for k, v in contact().items()},
        "accept_rules": "on",
    }
    return {**data, **fields}


def class_list(event, *rows):
    year = event.starts_on.year
    lines = ["Name\tDate of birth\tLevel\tPassion card"]
    for name, age, level, card in rows:
        lines.append(f"{name}\t{date(year - age, 5, 4):%d/%m/%Y}\t{level}\t{card}")
    return "\n".join(lines)


def test_a_pasted_class_list_enters_the_students_with_the_school_given_once(client):
    event, a, b = students_event()
    client.force_login(UserFactory())
    text = class_list(
        event, ("Alice Ong", 9, "P4", ""), ("Ben Goh", 10, "Primary", "8012345678"), ("Cai Li", 14, "Sec 2", "")
    )
    response = client.post(reverse("events:enter_group", args=[event.slug]), group_form(class_list=text), follow=True)
    page = response.content.decode()
    assert "3 students entered." in page and "S$8.00" in page  # 3 + 2 + 3
    entries = list(Entry.objects.order_by("pk"))
    assert [(e.player.full_name, e.category.name, e.amount_due) for e in entries] == [
        ("Alice Ong", PRIMARY, Decimal("3.00")),
        ("Ben Goh", PRIMARY, Decimal("2.00")),
        ("Cai Li", SECONDARY, Decimal("3.00")),
    ]
    assert {e.school for e in entries} == {"Yuhua Primary"} and entries[0].player.school == "Yuhua Primary"


def test_a_refused_row_is_named_and_the_list_kept_to_fix(client):
    event, a, b = students_event()
    client.force_login(UserFactory())
    text = class_list(event, ("Alice Ong", 9, "P4", ""), ("Old Hand", 21, "P6", ""))
    page = client.post(reverse("events:enter_group", args=[event.slug]), group_form(class_list=text)).content.decode()
    assert "Line 3 (Old Hand): Category B – Primary School Student is for primary school students" in page
    assert "Alice Ong\t" in page or "Alice Ong" in page  # the pasted list is shown back
    assert not Entry.objects.exists()
    bad_date = "Alice Ong, 31/02/2016, P4"
    page = client.post(reverse("events:enter_group", args=[event.slug]), group_form(class_list=bad_date))
    assert "Line 1 (Alice Ong): “31/02/2016” is not a date" in page.content.decode()


def test_a_class_list_can_be_uploaded_as_csv(client):
    event, a, b = students_event()
    client.force_login(UserFactory())
    year = event.starts_on.year
    csv = f"name,date of birth,category\nDee Tan,{year - 8}-01-02,Category B\n".encode()
    data = group_form(class_file=SimpleUploadedFile("class.csv", csv, content_type="text/csv"))
    response = client.post(reverse("events:enter_group", args=[event.slug]), data, follow=True)
    assert "1 student entered." in response.content.decode()
    assert Entry.objects.get().player.full_name == "Dee Tan"


def test_the_organiser_records_one_payment_on_the_group_page(client):
    event, a, b = students_event()
    teacher = UserFactory()
    rows = [
        {"full_name": f"Pupil {n}", "date_of_birth": pupil_born(event, 8 + n), "category": b, "fee": standard(b)}
        for n in range(2)
    ]
    group = services.register_group(teacher, event, contact=contact(), students=rows)
    url = reverse("events:group_entry", args=[group.pk])
    client.force_login(teacher)
    page = client.get(url).content.decode()
    assert "Total for the group" in page and "S$6.00" in page and "Record one payment" not in page
    assert client.post(url, {"amount": "6", "method": "cash"}).status_code == 200
    assert not group.entries.filter(amount_paid__gt=0).exists()
    client.force_login(event.owner)
    response = client.post(url, {"amount": "4.50", "method": "cheque", "reference": "000777"}, follow=True)
    assert "Payment recorded for the group." in response.content.decode()
    assert list(group.entries.order_by("pk").values_list("amount_paid", "status")) == [
        (Decimal("3.00"), EntryStatus.CONFIRMED),
        (Decimal("1.50"), EntryStatus.PENDING_PAYMENT),
    ]
    client.force_login(UserFactory())
    assert client.get(url).status_code == 404


def test_closed_or_full_is_said_before_the_form(client):
    event, category, (fee,) = open_event(quota=1, kind=EventKind.TOURNAMENT)
    EntryFactory(category=category, event=event)
    EntryFactory(category=category, event=event, status=EntryStatus.WAITLISTED)
    client.force_login(player_with_account().user)
    page = client.get(reverse("events:enter", args=[event.slug])).content.decode()
    assert "you will join the waiting list at position 2" in page
    assert "Use the group entry form" not in page  # not a students' event
    services.close_registration(event.owner, event)
    page = client.get(reverse("events:enter", args=[event.slug])).content.decode()
    assert "You cannot enter now." in page and "Registration closed on" in page and 'name="option"' not in page
    page = client.get(reverse("events:enter_group", args=[event.slug])).content.decode()
    assert "You cannot enter now." in page and "Enter these students" not in page


def test_the_group_form_is_offered_for_students_events():
    event, a, b = students_event()
    assert services.is_for_students(event)
    tournament, _, _ = open_event()
    assert not services.is_for_students(tournament)


def test_play_up_is_offered_to_rated_players_only(client):
    from ratings.models import PlayerRating, RatingList

    event, category, (fee,) = open_event()
    rating_list = RatingList.objects.create(association=event.association, name="SA ratings", slug="sa")
    rated, unrated = player_with_account(), player_with_account()
    PlayerRating.objects.create(rating_list=rating_list, player=rated, rating=1300, games=40)
    client.force_login(unrated.user)
    assert "higher division" not in client.get(reverse("events:enter", args=[event.slug])).content.decode()
    client.force_login(rated.user)
    assert "higher division" in client.get(reverse("events:enter", args=[event.slug])).content.decode()
    client.post(reverse("events:enter", args=[event.slug]), {"option": f"{category.pk}:{fee.pk}", "play_up": "on"})
    assert Entry.objects.get(player=rated).play_up


def test_a_closed_name_change_page_says_so_before_the_form(client):
    event, a, b = students_event()
    teacher = UserFactory()
    row = {"full_name": "Pat Pupil", "date_of_birth": pupil_born(event), "category": b, "fee": standard(b)}
    entry = services.register_group(teacher, event, contact=contact(), students=[row]).entries.get()
    services.close_registration(event.owner, event)
    client.force_login(teacher)
    page = client.get(reverse("events:replace_student", args=[entry.pk])).content.decode()
    assert "Registration closed on" in page and "names can no longer be changed" in page
    assert "Change the name" not in page


def test_my_entries_upcoming_first_in_date_order_and_leaving_the_waiting_list_asks_first(client):
    from datetime import timedelta

    from django.utils import timezone

    from events.models import EntryStatus, EventStatus
    from tests.events.factories import EntryFactory, EventFactory

    player = player_with_account()
    today = timezone.localdate()
    for title, days, status in (
        ("Last Year Cup", -300, EventStatus.COMPLETED),
        ("Far Cup", 90, EventStatus.REGISTRATION_OPEN),
        ("Last Month Cup", -30, EventStatus.COMPLETED),
        ("Soon Cup", 10, EventStatus.REGISTRATION_OPEN),
    ):
        day = today + timedelta(days=days)
        event = EventFactory(title=title, starts_on=day, ends_on=day, status=status)
        waiting = title == "Soon Cup"
        EntryFactory(
            category__event=event,
            event=event,
            player=player,
            status=EntryStatus.WAITLISTED if waiting else EntryStatus.CONFIRMED,
        )
    client.force_login(player.user)
    page = client.get(reverse("events:my_entries")).content.decode()
    order = [page.index(t) for t in ("Soon Cup", "Far Cup", "Last Month Cup", "Last Year Cup")]
    assert order == sorted(order)
    form = page[: page.index("Leave the waiting list</button>")].rsplit("<form", 1)[1]
    assert 'data-confirm="Leave the waiting list?' in form
