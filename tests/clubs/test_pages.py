"""Club pages, each door: the club list and page, a night and its RSVP, the director's planning, the door (members,
a guest under the matching rule, the fee), the treasurer's takings, and the member's and account pages' sections."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from clubs import services
from clubs.models import Attendance, AttendanceStatus, ClubNight, NightStatus
from money.models import Method, Payment
from players.models import Player
from tests.factories import PlayerFactory, UserFactory

from .factories import club_with_officers, member_of, next_weekday, weekly_series

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    return club_with_officers(UserFactory(is_staff=True), name="Toa Payoh Scrabble Club", slug="toa-payoh")


@pytest.fixture
def night(world):
    return weekly_series(world.director.user, world.club).nights.order_by("on").first()


def test_the_club_list_and_page_show_officers_nights_and_listed_members(client, world, night):
    services.update_page(world.director.user, world.club, venue="Toa Payoh CC", address="93 Toa Payoh Central")
    hidden = member_of(world.club, full_name="Hana Hidden", listed_in_directory=False)
    listing = client.get(reverse("clubs:list"))
    assert "Toa Payoh Scrabble Club" in listing.text and f"{night.on:%a %-d %b %Y}" in listing.text
    page = client.get(reverse("clubs:detail", args=["toa-payoh"]))
    text = page.text
    assert "Club director: Dora Director" in text and "Treasurer: Toby Treasurer" in text
    assert "openstreetmap.org/search?query=Toa%20Payoh%20CC%2C%2093%20Toa%20Payoh%20Central" in text
    assert "Mei Member" in text and hidden.full_name not in text  # the directory's rule
    assert "Plan club nights" not in text


def test_the_club_page_costs_the_same_queries_whatever_its_size(client, world, night, django_assert_max_num_queries):
    def count():
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as queries:
            assert client.get(reverse("clubs:detail", args=["toa-payoh"])).status_code == 200
        return len(queries)

    client.force_login(world.member.user)
    before = count()
    for _ in range(5):
        member_of(world.club)
    weekly_series(world.director.user, world.club, first_on=next_weekday(3), weeks=8)
    services.answer(world.member.user, night, coming=True)
    assert count() == before


def test_a_member_says_they_are_coming_on_the_nights_page(client, world, night):
    client.force_login(world.member.user)
    page = client.get(night.get_absolute_url())
    assert "Are you coming?" in page.text
    answer = client.post(reverse("clubs:rsvp", args=["toa-payoh", night.pk]), {"guests": "1", "answer": "yes"})
    assert answer.status_code == 302
    attendance = Attendance.objects.get(night=night, player=world.member)
    assert attendance.status == AttendanceStatus.COMING and attendance.guests == 1
    client.post(reverse("clubs:rsvp", args=["toa-payoh", night.pk]), {"guests": "9", "answer": "yes"})
    attendance.refresh_from_db()
    assert attendance.guests == 1


def test_the_director_plans_weekly_nights_with_a_night_off_from_the_page(client, world):
    client.force_login(world.director.user)
    first = next_weekday(1) + timedelta(weeks=10)
    response = client.post(
        reverse("clubs:manage", args=["toa-payoh"]),
        {
            "title": "Tuesday club night",
            "frequency": "weekly",
            "first_on": first.isoformat(),
            "last_on": (first + timedelta(weeks=3)).isoformat(),
            "off": f"{(first + timedelta(weeks=1)).isoformat()} Public holiday",
            "starts_at": "19:00",
            "member_fee": "5",
            "guest_fee": "8",
        },
    )
    assert response.status_code == 302
    nights = ClubNight.objects.filter(title="Tuesday club night", status=NightStatus.SCHEDULED).order_by("on")
    assert [n.on for n in nights] == [first, first + timedelta(weeks=2), first + timedelta(weeks=3)]
    series = nights[0].series
    off = client.post(reverse("clubs:night_off", args=["toa-payoh", series.pk]), {"on": nights[1].on, "reason": "Hall"})
    assert off.status_code == 302
    assert ClubNight.objects.get(pk=nights[1].pk).status == NightStatus.CANCELLED
    bad = client.post(
        reverse("clubs:manage", args=["toa-payoh"]),
        {"title": "Night", "frequency": "weekly", "starts_at": "19:00", "member_fee": "0", "guest_fee": "0"},
    )
    assert bad.status_code == 200 and "Enter the date of the first night." in bad.text


def test_the_door_checks_in_members_and_a_guest_who_pays_by_paynow(client, world, night):
    services.answer(world.member.user, night, coming=True, guests=1)
    client.force_login(world.director.user)
    door = client.get(reverse("clubs:door", args=["toa-payoh", night.pk]))
    assert "Check in Mei Member" in door.text
    client.post(reverse("clubs:check_in", args=["toa-payoh", night.pk]), {"player": world.member.pk})
    client.post(reverse("clubs:check_in", args=["toa-payoh", night.pk]), {"player": world.treasurer.pk})
    PlayerFactory(full_name="Gina Guest")  # the same name on record: likely, to choose or refuse
    asked = client.post(
        reverse("clubs:guest", args=["toa-payoh", night.pk]), {"full_name": "Gina Guest", "guest_of": world.member.pk}
    )
    assert asked.status_code == 400 and "may know this guest" in asked.text and "None of these" in asked.text
    made = client.post(
        reverse("clubs:guest", args=["toa-payoh", night.pk]),
        {"full_name": "Gina Guest", "guest_of": world.member.pk, "new_person": "on"},
    )
    assert made.status_code == 302
    guest = Attendance.objects.get(night=night, is_guest=True)
    assert guest.guest_of == world.member and Player.objects.filter(full_name="Gina Guest").count() == 2
    paid = client.post(reverse("clubs:fee", args=["toa-payoh", night.pk, guest.pk]), {"method": "paynow"})
    assert paid.status_code == 302
    assert Payment.objects.get().method == Method.PAYNOW
    client.force_login(world.treasurer.user)
    takings = client.get(reverse("clubs:takings", args=["toa-payoh"]))
    assert takings.status_code == 200 or night.on > timezone.localdate()


def test_the_treasurer_sees_takings_per_night(client, world):
    yesterday = timezone.localdate() - timedelta(days=1)
    night = weekly_series(world.director.user, world.club, first_on=yesterday, weeks=1).nights.get()
    member = services.check_in(world.director.user, night, world.member)
    services.record_fee(world.director.user, member, Method.IN_PERSON)
    client.force_login(world.treasurer.user)
    text = client.get(reverse("clubs:takings", args=["toa-payoh"])).text
    assert "S$5.00" in text and "In person S$5.00" in text
    client.force_login(world.member.user)
    assert client.get(reverse("clubs:takings", args=["toa-payoh"])).status_code == 403


def test_officers_pages_refuse_others(client, world, night):
    client.force_login(world.member.user)
    assert client.get(reverse("clubs:manage", args=["toa-payoh"])).status_code == 403
    assert client.get(reverse("clubs:door", args=["toa-payoh", night.pk])).status_code == 403
    assert client.post(reverse("clubs:check_in", args=["toa-payoh", night.pk]), {"player": 1}).status_code == 403
    assert client.get(reverse("clubs:edit", args=["toa-payoh"])).status_code == 403


def test_the_members_page_and_account_show_club_life(client, world, night):
    client.force_login(world.member.user)
    page = client.get(world.member.get_absolute_url())
    assert "Club life" in page.text and reverse("clubs:detail", args=["toa-payoh"]) in page.text
    account = client.get(reverse("players:me"))
    assert "My club" in account.text and "Say if you are coming" in account.text
    client.force_login(world.director.user)
    assert "An officer of" in client.get(reverse("players:me")).text


def test_the_page_editor_saves_the_page(client, world):
    client.force_login(world.director.user)
    response = client.post(
        reverse("clubs:edit", args=["toa-payoh"]),
        {"venue": "Toa Payoh CC", "address": "", "map_url": "", "contact_email": "", "contact_phone": "", "about": ""},
    )
    assert response.status_code == 302
    assert world.club.page.venue == "Toa Payoh CC"
    assert Decimal("0") == Decimal("0")


def test_the_club_page_names_its_rule_book_or_the_associations(client, world):
    from rulebooks.models import RuleBook

    page = client.get(reverse("clubs:detail", args=["toa-payoh"]))
    assert "The club plays by" in page.text and reverse("rulebooks:list") in page.text
    RuleBook.objects.create(
        association=world.club.association,
        club=world.club,
        title="Club-play rules",
        slug="club-play",
        summary="Relaxed",
    )
    page = client.get(reverse("clubs:detail", args=["toa-payoh"]))
    assert "Club-play rules" in page.text and reverse("rulebooks:book", args=["club-play"]) in page.text


def test_the_director_appoints_and_removes_officers_of_their_club_only(client, world):
    client.force_login(world.director.user)
    url = reverse("clubs:officers", args=["toa-payoh"])
    done = client.post(url, {"member_number": world.member.member_number, "role": "secretary"})
    assert done.status_code == 302 and world.club.officers.filter(player=world.member, role="secretary").exists()
    outsider = PlayerFactory(full_name="Oscar Outsider")
    refused = client.post(url, {"member_number": outsider.member_number, "role": "treasurer"})
    assert refused.status_code == 200 and "not a member of Toa Payoh Scrabble Club" in refused.text
    unknown = client.post(url, {"member_number": 99999999, "role": "treasurer"})
    assert "No member has that member number." in unknown.text
    office = world.club.officers.get(player=world.member, role="secretary")
    client.post(reverse("clubs:officer_remove", args=["toa-payoh", office.pk]))
    assert not world.club.officers.filter(pk=office.pk).exists()
    client.force_login(world.member.user)
    assert client.get(url).status_code == 403


def test_a_guest_said_in_advance_waits_at_the_door_after_the_member_is_checked_in(client, world, night):
    services.answer(world.member.user, night, coming=True, guests=1)
    said = "1 member and 1 guest said they are coming"
    assert said in client.get(night.get_absolute_url()).text
    client.force_login(world.director.user)
    services.check_in(world.director.user, night, world.member)
    door = client.get(reverse("clubs:door", args=["toa-payoh", night.pk])).text
    assert "Check in the guest of Mei Member" in door and f'name="guest_of" value="{world.member.pk}"' in door
    assert said in client.get(night.get_absolute_url()).text  # checked in, she still said so
    made = client.post(
        reverse("clubs:guest", args=["toa-payoh", night.pk]),
        {"full_name": "Quentin Newcomer", "guest_of": world.member.pk},
    )
    assert made.status_code == 302
    assert Attendance.objects.get(night=night, is_guest=True).guest_of == world.member
    door = client.get(reverse("clubs:door", args=["toa-payoh", night.pk])).text
    assert "Check in the guest of Mei Member" not in door  # her guest came


def test_the_treasurer_counts_session_fees_under_the_clubs_nights(client, world):
    yesterday = timezone.localdate() - timedelta(days=1)
    past = weekly_series(world.director.user, world.club, first_on=yesterday, weeks=1).nights.get()
    attendance = services.check_in(world.director.user, past, world.member)
    payment = services.record_fee(world.director.user, attendance, Method.IN_PERSON, received_on=past.on)
    assert payment.received_on == past.on  # dated on its night, not the day it was typed in
    client.force_login(UserFactory(is_staff=True))
    page = client.get(reverse("money:treasurer"))
    assert "Club nights: Toa Payoh Scrabble Club" in page.text and "No event (membership" not in page.text
    rows = client.get(reverse("money:treasurer_csv")).content.decode()
    assert "Club nights: Toa Payoh Scrabble Club" in rows


def test_the_club_page_tells_namesakes_apart_and_reaches_every_past_night(client, world):
    first = member_of(world.club, full_name="Ismail Yusof")
    second = member_of(world.club, full_name="Ismail Yusof")
    start = timezone.localdate() - timedelta(weeks=12)
    weekly_series(world.director.user, world.club, first_on=start, weeks=12)
    page = client.get(reverse("clubs:detail", args=["toa-payoh"])).text
    assert f"member {first.member_number}" in page and f"member {second.member_number}" in page
    assert f"{start + timedelta(weeks=11):%a %-d %b %Y}" in page and f"{start:%a %-d %b %Y}" not in page
    assert "?past=2#past" in page and "Older club nights" in page
    older = client.get(reverse("clubs:detail", args=["toa-payoh"]), {"past": "2"}).text
    assert f"{start:%a %-d %b %Y}" in older and "Newer club nights" in older
