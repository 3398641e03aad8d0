"""Club life's services: officers, series of nights and their exceptions, RSVPs, the door and the session fee."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from clubs import services
from clubs.models import Attendance, AttendanceStatus, ClubNight, NightStatus, OfficerRole
from clubs.permissions import has_club_role, may_keep_money, may_run_club
from clubsite.kit.errors import NotAllowed
from money.models import Method, Payment
from players.models import Player
from tests.factories import ClubFactory, PlayerFactory, UserFactory

from .factories import club_with_officers, member_of, next_weekday, weekly_series

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff():
    return UserFactory(is_staff=True)


@pytest.fixture
def world(staff):
    return club_with_officers(staff)


def test_roles_are_held_only_in_ones_own_club(world, staff):
    other = ClubFactory()
    director = world.director.user
    assert may_run_club(director, world.club) and not may_run_club(director, other)
    assert may_keep_money(world.treasurer.user, world.club) and not may_run_club(world.treasurer.user, world.club)
    assert not has_club_role(world.member.user, world.club, *OfficerRole.values)
    assert may_run_club(staff, other)


def test_a_series_makes_its_nights_less_the_night_off(world):
    first = next_weekday(1)
    series = weekly_series(world.director.user, world.club, first_on=first, weeks=4, off=[first + timedelta(weeks=2)])
    nights = list(series.nights.filter(status=NightStatus.SCHEDULED).order_by("on"))
    assert [n.on for n in nights] == [first, first + timedelta(weeks=1), first + timedelta(weeks=3)]
    off = series.nights.get(on=first + timedelta(weeks=2))
    assert off.status == NightStatus.CANCELLED and off.note == "Public holiday"  # shown as off on the club's page
    assert all(n.member_fee == Decimal("5.00") and n.guest_fee == Decimal("8.00") for n in nights)
    assert list(series.exceptions.values_list("reason", flat=True)) == ["Public holiday"]


def test_only_the_clubs_director_plans_nights(world):
    with pytest.raises(NotAllowed):
        weekly_series(world.member.user, world.club)
    with pytest.raises(NotAllowed):
        weekly_series(world.director.user, ClubFactory())
    assert ClubNight.objects.count() == 0


def test_a_bad_series_is_refused_whole_naming_the_field(world):
    with pytest.raises(services.ClubError) as refused:
        weekly_series(world.director.user, world.club, member_fee="-1")
    assert refused.value.field == "member_fee"
    with pytest.raises(services.ClubError) as refused:
        weekly_series(world.director.user, world.club, off=[next_weekday(1) + timedelta(days=1)])
    assert refused.value.field == "exceptions" and "no exception" in refused.value.message
    assert ClubNight.objects.count() == 0


def test_a_night_off_added_later_cancels_it(world):
    series = weekly_series(world.director.user, world.club, weeks=3)
    second = series.nights.order_by("on")[1]
    services.add_exception(world.director.user, series, second.on, "Deepavali")
    second.refresh_from_db()
    assert second.status == NightStatus.CANCELLED and second.note == "Deepavali"
    with pytest.raises(services.ClubError, match="off already"):
        services.add_exception(world.director.user, series, second.on, "again")


def test_members_say_they_are_coming_with_a_guest_and_change_their_mind(world):
    night = weekly_series(world.director.user, world.club).nights.first()
    attendance = services.answer(world.member.user, night, coming=True, guests=1)
    assert attendance.status == AttendanceStatus.COMING and attendance.guests == 1
    attendance = services.answer(world.member.user, night, coming=False)
    assert attendance.status == AttendanceStatus.NOT_COMING and attendance.guests == 0
    assert Attendance.objects.count() == 1
    with pytest.raises(services.ClubError, match="from 0 to 3"):
        services.answer(world.member.user, night, coming=True, guests=9)
    outsider = member_of(ClubFactory())
    with pytest.raises(services.ClubError, match="visitors are welcome"):
        services.answer(outsider.user, night, coming=True)


def test_no_answer_for_a_night_that_is_over_or_off(world):
    yesterday = timezone.localdate() - timedelta(days=1)
    past = weekly_series(world.director.user, world.club, first_on=yesterday, weeks=2)
    with pytest.raises(services.ClubError, match="is over"):
        services.answer(world.member.user, past.nights.get(on=yesterday), coming=True)
    off = past.nights.get(on=yesterday + timedelta(weeks=1))
    services.add_exception(world.director.user, past, off.on)
    with pytest.raises(services.ClubError, match="is off"):
        services.answer(world.member.user, off, coming=True)


def test_check_in_charges_the_members_price_and_a_visitors_the_guests(world):
    night = weekly_series(world.director.user, world.club).nights.first()
    services.answer(world.member.user, night, coming=True, guests=1)
    member = services.check_in(world.director.user, night, world.member)
    visitor = services.check_in(world.director.user, night, member_of(ClubFactory()), guest_of=world.member)
    assert (member.fee, member.is_guest) == (Decimal("5.00"), False)
    assert (visitor.fee, visitor.is_guest, visitor.guest_of) == (Decimal("8.00"), True, world.member)
    with pytest.raises(services.ClubError, match="checked in already"):
        services.check_in(world.director.user, night, world.member)
    with pytest.raises(NotAllowed):
        services.check_in(world.member.user, night, world.treasurer)


def test_a_guest_at_the_door_is_found_by_the_one_matching_rule(world):
    night = weekly_series(world.director.user, world.club).nights.first()
    known = PlayerFactory(full_name="Ah Kow Tan", email="ahkow@example.org")
    attendance = services.check_in_guest(
        world.director.user, night, full_name="Tan Ah Kow", email="AhKow@example.org", guest_of=world.member
    )
    assert attendance.player == known  # the same name in the other order, the same email: sure
    # The same name alone: likely, so the director chooses or says it is someone else.
    PlayerFactory(full_name="Lim Bee Hoon")
    with pytest.raises(services.ClubError, match="may know this guest") as refused:
        services.check_in_guest(world.director.user, night, full_name="Lim Bee Hoon")
    assert refused.value.field == "record"
    count = Player.objects.count()
    made = services.check_in_guest(world.director.user, night, full_name="Lim Bee Hoon", new_person=True)
    assert Player.objects.count() == count + 1 and made.is_guest and made.fee == Decimal("8.00")
    # A name nobody has: a new record at once.
    fresh = services.check_in_guest(world.director.user, night, full_name="Quentin Newcomer", email="q@example.org")
    assert fresh.player.full_name == "Quentin Newcomer" and fresh.player.club_id is None


def test_the_session_fee_goes_through_the_ledger_and_counts_in_the_nights_takings(world):
    night = weekly_series(world.director.user, world.club).nights.first()
    member = services.check_in(world.director.user, night, world.member)
    guest = services.check_in_guest(world.director.user, night, full_name="Gina Guest", email="gina@example.org")
    cash = services.record_fee(world.director.user, member, Method.IN_PERSON)
    paynow = services.record_fee(world.treasurer.user, guest, Method.PAYNOW)
    assert (cash.amount, paynow.amount, paynow.method) == (Decimal("5.00"), Decimal("8.00"), Method.PAYNOW)
    assert paynow.reference == services.session_reference(guest)
    member.refresh_from_db()
    guest.refresh_from_db()
    assert member.paid == member.fee and guest.paid == guest.fee
    found = services.takings([night])[night.pk]
    assert found.total == Decimal("13.00") and found.payments == 2
    assert found.by_method == {"In person": Decimal("5.00"), "PayNow": Decimal("8.00")}
    with pytest.raises(services.ClubError, match="nothing to pay"):
        services.record_fee(world.director.user, member, Method.IN_PERSON)
    with pytest.raises(NotAllowed):
        services.record_fee(world.member.user, member, Method.IN_PERSON)
    assert Payment.objects.count() == 2


def test_a_night_with_check_ins_cannot_be_called_off(world):
    series = weekly_series(world.director.user, world.club)
    night = series.nights.first()
    services.check_in(world.director.user, night, world.member)
    with pytest.raises(services.ClubError, match="happened"):
        services.add_exception(world.director.user, series, night.on)


def test_the_last_club_director_stays_until_another_is_appointed(world, staff):
    officer = world.club.officers.get(role=OfficerRole.DIRECTOR)
    with pytest.raises(services.ClubError, match="no club director"):
        services.remove_officer(world.director.user, officer)
    services.remove_officer(staff, officer)
    assert not may_run_club(UserFactory(), world.club)


def test_the_page_is_kept_by_its_director_and_bounded(world):
    page = services.update_page(world.director.user, world.club, venue="Toa Payoh CC", address="93 Lor 4 Toa Payoh")
    assert page.venue == "Toa Payoh CC"
    with pytest.raises(services.ClubError) as refused:
        services.update_page(world.director.user, world.club, about="x\x00y")
    assert refused.value.field == "about"
    with pytest.raises(services.ClubError) as refused:
        services.update_page(world.director.user, world.club, map_url="javascript:alert(1)")
    assert refused.value.field == "map_url"
    with pytest.raises(NotAllowed):
        services.update_page(world.member.user, world.club, venue="Mine")


def test_events_learn_who_directs_a_club_from_the_one_role_check(world):
    from events.permissions import directs_club

    assert directs_club(world.director.user, world.club)
    assert not directs_club(world.member.user, world.club) and not directs_club(world.director.user, ClubFactory())


def test_the_door_opens_only_on_the_nights_day(world):
    tomorrow = timezone.localdate() + timedelta(days=1)
    night = weekly_series(world.director.user, world.club, first_on=tomorrow, weeks=1).nights.get()
    with pytest.raises(services.ClubError, match="has not come yet") as refused:
        services.check_in(world.director.user, night, world.member)
    assert refused.value.field == "player"
    with pytest.raises(services.ClubError, match="has not come yet"):
        services.check_in_guest(world.director.user, night, full_name="Gina Guest", email="gina@example.org")
    assert not Attendance.objects.filter(status=AttendanceStatus.CHECKED_IN).exists()
    assert not Player.objects.filter(full_name="Gina Guest").exists()  # nothing half-saved
