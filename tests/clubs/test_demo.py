"""The demo's club life: both clubs with officers and a season of nights, attendance and fees in the ledger."""

import io

import pytest
from django.apps import apps
from django.urls import reverse
from django.utils import timezone

from clubs import services
from clubs.models import Attendance, AttendanceStatus, ClubNight, NightStatus, Officer
from money.core.references import SESSION
from money.models import Payment
from players import demo as members_demo
from players.models import Club
from tests.events.factories import fast_passwords  # noqa: F401

pytestmark = pytest.mark.django_db


def test_the_demo_clubs_have_a_season_of_nights(client):
    out = io.StringIO()
    members_demo.load(out)
    apps.get_app_config("clubs").load_demo(out)
    today = timezone.localdate()
    for club in Club.objects.all():
        assert set(Officer.objects.filter(club=club).values_list("role", flat=True)) == {
            "director",
            "secretary",
            "treasurer",
        }
        held = ClubNight.objects.filter(club=club, on__lt=today, status=NightStatus.SCHEDULED)
        assert held.count() == 12
        assert ClubNight.objects.filter(club=club, on__gt=today, status=NightStatus.CANCELLED).count() == 1
        takings = services.takings(list(held))
        assert all(t.total > 0 for t in takings.values())
    assert Attendance.objects.filter(status=AttendanceStatus.CHECKED_IN, is_guest=True).exists()
    assert Attendance.objects.filter(status=AttendanceStatus.COMING, player__user__email="player@example.org").exists()
    assert Payment.objects.filter(kind=SESSION).count() > 100
    page = client.get(reverse("clubs:detail", args=["toa-payoh"]))
    assert "Club director:" in page.text and "Past club nights" in page.text


def test_the_demos_night_off_is_by_a_real_public_holiday_and_fees_are_dated_on_their_nights():
    from datetime import date

    from clubs.demo import night_off

    # Wednesdays from 2 Dec 2026: the one in Christmas week, not any Wednesday called a holiday.
    wednesdays = [date(2026, 12, 2) + timezone.timedelta(weeks=n) for n in range(8)]
    assert night_off(wednesdays) == (date(2026, 12, 23), "No club night in the week of Christmas Day (25 Dec)")
    assert night_off([date(2026, 12, 25)]) == (date(2026, 12, 25), "Christmas Day, a public holiday")
    out = io.StringIO()
    members_demo.load(out)
    apps.get_app_config("clubs").load_demo(out)
    fees = Payment.objects.filter(kind=SESSION)
    assert fees.exists()
    assert not fees.filter(received_on=timezone.localdate()).exists()  # every fee on its night, held before today


def test_a_demo_club_publishes_its_club_play_rules_amending_the_association_book(client):
    from rulebooks.models import RuleBook

    out = io.StringIO()
    members_demo.load(out)
    apps.get_app_config("rulebooks").load_demo(out)
    apps.get_app_config("clubs").load_demo(out)
    book = RuleBook.objects.get(club__slug="jurong-green")
    assert book.based_on.slug == "tournament-rules" and book.versions.count() == 1
    assert book.versions.get().published_by.email == "director@example.org"
    page = client.get(reverse("clubs:detail", args=["jurong-green"])).content.decode()
    assert book.title in page and "amends" in page
    assert "plays by" in client.get(reverse("clubs:detail", args=["toa-payoh"])).content.decode()
