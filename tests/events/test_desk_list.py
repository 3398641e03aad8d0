"""The registration desk's printed list: entrants per category with fee, paid and balance, totals, who may see it,
and its cost in queries."""

from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubsite.kit.errors import NotAllowed
from events import services
from events.models import EntryStatus, GroupEntry
from tests.events.factories import (
    CategoryFactory,
    EntryFactory,
    FeeFactory,
    fast_passwords,  # noqa: F401
    make_organiser,
    open_event,
)
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def _entry(category, fee, status, name, paid="0", school="", **fields):
    player = PlayerFactory(full_name=name, family_name=name.split()[-1], school=school)
    fields.setdefault("amount_due", fee.amount)
    return EntryFactory(category=category, fee=fee, player=player, status=status, amount_paid=Decimal(paid), **fields)


@pytest.fixture
def desk():
    event, primary, (fee,) = open_event(fees=(Decimal("10.00"),), title="Inter-School 2026")
    primary.position = 0
    primary.save()
    secondary = CategoryFactory(event=event, name="Secondary", position=1)
    fee2 = FeeFactory(category=secondary, name="Standard", amount=Decimal("12.00"))
    _entry(primary, fee, EntryStatus.CONFIRMED, "Tan Wei Ming", "10.00", school="Raffles Institution")
    _entry(primary, fee, EntryStatus.PENDING_PAYMENT, "Lee Mei Ling", "4.00")
    _entry(primary, fee, EntryStatus.CANCELLED, "Cancelled Person", "0")
    _entry(primary, fee, EntryStatus.WITHDRAWN, "Withdrawn Person", "10.00")
    _entry(primary, fee, EntryStatus.WAITLISTED, "Waiting Ong")
    _entry(secondary, fee2, EntryStatus.CONFIRMED, "Ahmad Bin Ali", "12.00")
    return event, primary, secondary


def test_the_list_has_each_category_its_entrants_and_totals(desk):
    event, primary, secondary = desk
    listed = services.desk_list(event.owner, event)
    assert [group.category for group in listed] == [primary, secondary]
    first = listed[0]
    # By family name (Lee before Tan); cancelled and withdrawn left out; the waiting list apart.
    assert [(r.name, r.fee, r.paid, r.balance, r.status) for r in first.rows] == [
        ("Lee Mei Ling", Decimal("10.00"), Decimal("4.00"), Decimal("6.00"), "Unpaid: place held"),
        ("Tan Wei Ming", Decimal("10.00"), Decimal("10.00"), Decimal("0"), "Confirmed"),
    ]
    assert first.rows[1].school == "Raffles Institution"
    assert [(r.name, r.fee, r.status) for r in first.waiting] == [("Waiting Ong", None, "Waiting list")]
    assert (first.count, first.fee_total, first.paid_total, first.balance_total) == (
        2,
        Decimal("20.00"),
        Decimal("14.00"),
        Decimal("6.00"),
    )
    assert (listed[1].count, listed[1].balance_total) == (1, Decimal("0"))


def test_the_page_shows_names_money_boxes_and_signature_column(client, desk):
    event, primary, secondary = desk
    client.force_login(event.owner)
    page = client.get(reverse("events:desk_list", args=[event.slug]))
    html = page.content.decode()
    assert page.status_code == 200
    for text in ("Tan Wei Ming", "Lee Mei Ling", "Waiting Ong", "Ahmad Bin Ali", "Signature", "S$6.00", "S$14.00"):
        assert text in html, text
    assert "Cancelled Person" not in html and "Withdrawn Person" not in html
    assert html.count('class="desk-box"') == 4
    assert "paper-a4.css" in html
    letter = client.get(reverse("events:desk_list", args=[event.slug]), {"paper": "letter"}).content.decode()
    assert "paper-letter.css" in letter and "paper-a4.css" not in letter
    odd = client.get(reverse("events:desk_list", args=[event.slug]), {"paper": "../../x"}).content.decode()
    assert "paper-a4.css" in odd


def test_the_school_comes_from_the_entry_the_group_or_the_club(desk):
    event, primary, secondary = desk
    fee = primary.fees.get()
    group = GroupEntry.objects.create(
        event=event,
        submitted_by=event.owner,
        contact_name="Ms Teo",
        school="Nanyang Primary",
        address="1 Road",
        phone="61234567",
        email="teo@example.org",
    )
    _entry(primary, fee, EntryStatus.CONFIRMED, "Grouped Kid", group=group)
    EntryFactory(category=primary, fee=fee, player=PlayerFactory(full_name="Given School", school="Home"), school="ACS")
    rows = {r.name: r.school for r in services.desk_list(event.owner, event)[0].rows}
    assert rows["Grouped Kid"] == "Nanyang Primary" and rows["Given School"] == "ACS"


def test_the_page_reads_the_same_number_of_queries_however_many_entrants(client, desk):
    event, primary, secondary = desk
    client.force_login(event.owner)
    url = reverse("events:desk_list", args=[event.slug])
    client.get(url)
    with CaptureQueriesContext(connection) as few:
        client.get(url)
    fee = primary.fees.get()
    for n in range(25):
        _entry(primary, fee, EntryStatus.CONFIRMED, f"Extra Player{n}", "10.00", school="Some School")
    third = CategoryFactory(event=event, name="Masters")
    _entry(third, FeeFactory(category=third), EntryStatus.PENDING_PAYMENT, "Open Player")
    with CaptureQueriesContext(connection) as many:
        client.get(url)
    assert len(many) == len(few)


def test_only_the_events_organisers_and_staff_see_it(client, desk):
    event, primary, secondary = desk
    url = reverse("events:desk_list", args=[event.slug])
    assert client.get(url).status_code == 302  # to log in
    director = UserFactory()
    event.directors.add(director)
    for outsider in (make_organiser(), UserFactory(), director):
        client.force_login(outsider)
        assert client.get(url).status_code == 403
        with pytest.raises(NotAllowed):
            services.desk_list(outsider, event)
    client.force_login(UserFactory(is_staff=True))
    assert client.get(url).status_code == 200


def test_the_manage_page_links_to_the_desk_list_and_the_copy(client, desk):
    event, primary, secondary = desk
    client.force_login(event.owner)
    html = client.get(reverse("events:manage", args=[event.slug])).content.decode()
    assert reverse("events:desk_list", args=[event.slug]) in html
    assert reverse("events:copy", args=[event.slug]) in html


def test_a_free_place_and_a_discount_code_are_named_beside_the_fee(client, desk):
    from events.models import DiscountCode

    event, primary, secondary = desk
    fee = primary.fees.get()
    code = DiscountCode.objects.create(event=event, code="SCHOOLS", value=Decimal("2.00"))
    _entry(primary, fee, EntryStatus.CONFIRMED, "Helper Wong", free_place="helper", amount_due=Decimal("0"))
    _entry(
        primary, fee, EntryStatus.CONFIRMED, "Coded Ng", "8.00",
        discount_code=code, discount=Decimal("2.00"), amount_due=Decimal("8.00"),
    )  # fmt: skip
    rows = {r.name: r for r in services.desk_list(event.owner, event)[0].rows}
    assert (rows["Helper Wong"].fee, rows["Helper Wong"].price_note) == (Decimal("0"), "Free place: helper")
    assert (rows["Coded Ng"].fee, rows["Coded Ng"].price_note) == (Decimal("8.00"), "SCHOOLS: less S$2.00")
    assert rows["Tan Wei Ming"].price_note == ""
    client.force_login(event.owner)
    html = client.get(reverse("events:desk_list", args=[event.slug])).content.decode()
    assert "Free place: helper" in html and "SCHOOLS: less S$2.00" in html
