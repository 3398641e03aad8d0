"""An organiser announces the students' championship, a teacher enters three students, the organiser
records their payments, closes registration and assigns divisions by rating."""

import re
from datetime import date, timedelta

import pytest
from django.core import mail
from django.utils import timezone
from playwright.sync_api import expect

from events.models import Entry, EntryStatus, Event, EventStatus
from events.play.models import DivisionPlayer
from players.models import SchoolLevel
from tests.e2e.conftest import PRIMARY, SECONDARY, fill_seed_category, log_in
from tests.factories import AssociationFactory
from tests.ratings.factories import RatingListFactory, seed

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_organiser_publishes_teacher_enters_organiser_takes_payments_and_assigns_divisions(journey, member):
    # Preconditions: the association's rating list, three rated students, an organiser and a teacher.
    AssociationFactory()
    ratings = RatingListFactory(name="SA Ratings (CSW)", slug="sa-csw")
    students = {}
    for name, level, rating in (
        ("Alice Ong", SchoolLevel.PRIMARY, 900),
        ("Ben Goh", SchoolLevel.PRIMARY, 1100),
        ("Chloe Lim", SchoolLevel.SECONDARY, 1000),
    ):
        born = date(timezone.localdate().year - (10 if level == SchoolLevel.PRIMARY else 14), 3, 1)
        _, students[name] = member(name, school_level=level, school="Yuhua School", date_of_birth=born)
        seed(ratings, students[name], rating, games=30)
    organiser, _ = member("Oliver Organiser", organiser=True, player=False)
    teacher, _ = member("Tan Mei Ling", player=False)
    day = timezone.localdate() + timedelta(days=30)
    closes = timezone.localdate() + timedelta(days=20)

    j = journey("organiser")
    page = j.page
    log_in(page, j.base_url, organiser.email)
    page.get_by_role("link", name="Events", exact=True).click()
    page.get_by_role("link", name="Announce an event").click()
    page.fill("#id_title", "Jurong Green Students' Scrabble Championship")
    page.fill("#id_organisers", "Jurong Green CC Management Committee, Scrabble Club, South West CDC and WEC")
    page.select_option("#id_kind", "students")
    page.fill("#id_starts_on", day.isoformat())
    page.fill("#id_venue", "Jurong Green Community Club")
    page.fill("#id_address", "No. 6 Jurong West Avenue 1, Singapore 649520")
    page.fill("#id_reporting_time", "09:00")
    page.fill("#id_reporting_until", "09:15")
    page.fill("#id_start_time", "09:30")
    page.fill("#id_estimated_end_time", "16:45")
    page.fill("#id_prize_presentation_time", "17:15")
    page.fill("#id_prize_presentation_until", "17:45")
    page.fill("#id_eligibility", "Open to primary and secondary school students only")
    page.fill("#id_attire", "School uniform")
    page.fill("#id_number_of_games", "5")
    page.select_option("#id_pairing_system", "koth")
    page.fill("#id_time_control_minutes", "25")
    page.select_option("#id_rating_list", label="SA Ratings (CSW)")
    page.fill("#id_contact", "Mr Yong, 9677 0503")
    page.fill("#id_registration_opens_at", (timezone.localdate() - timedelta(days=1)).isoformat() + "T09:00")
    page.fill("#id_registration_closes_at", closes.isoformat() + "T23:59")
    page.check("#id_payment_methods_0")
    page.check("#id_payment_methods_1")
    page.fill("#id_payment_instructions", "Pay in person at Jurong Green CC, or by cheque.")
    page.fill("#id_rules_agreement", "I agree to abide by the rules and not to hold the organiser responsible.")
    j.shot("announcement form")
    page.get_by_role("button", name="Save event").click()
    page.wait_for_url(re.compile(r"/manage/$"))
    expect(page.get_by_text("The event is saved as a draft.")).to_be_visible()
    j.shot("draft saved")

    for name, level in ((SECONDARY, "secondary"), (PRIMARY, "primary")):
        fill_seed_category(page, name, level)
        j.shot(f"category {level}")
        page.get_by_role("button", name="Save category").click()
        page.wait_for_url(re.compile(r"/manage/$"))
        expect(page.get_by_text("Category saved.")).to_be_visible()

    page.get_by_role("button", name="Publish").click()
    expect(page.get_by_text("The event is published.")).to_be_visible()
    expect(page.get_by_text("Registration open", exact=True)).to_be_visible()
    j.shot("published")

    page.get_by_role("link", name="Public page").click()
    expect(page.get_by_role("heading", name="Jurong Green Students' Scrabble Championship")).to_be_visible()
    expect(page.get_by_text("Shopping voucher S$100 + trophy")).to_be_visible()
    expect(page.get_by_text("Shopping voucher S$10 + trophy")).to_be_visible()
    expect(page.get_by_role("rowheader", name="6th–10th").first).to_be_visible()
    expect(page.get_by_text("– needs Passion Card number").first).to_be_visible()
    expect(page.get_by_text("40 of 40 places left").first).to_be_visible()
    expect(page.get_by_text(f"Closing date: {closes.day} {closes:%B %Y}, 23:59")).to_be_visible()
    j.shot("public announcement")

    # The teacher enters three students on a phone.
    phone = j.new_page()
    log_in(phone, j.base_url, teacher.email)
    phone.get_by_role("button", name="Menu").click()
    phone.get_by_role("link", name="Events", exact=True).click()
    phone.get_by_role("link", name="Jurong Green Students' Scrabble Championship").click()
    phone.get_by_role("link", name="Enter students (teacher, parent or guardian)").click()
    rows = (
        ("Alice Ong", f"{PRIMARY}: Standard S$3.00 (incl. GST)", ""),
        ("Ben Goh", f"{PRIMARY}: Standard S$3.00 (incl. GST)", ""),
        ("Chloe Lim", f"{SECONDARY}: Passion Card holder S$2.00 (incl. GST) – needs Passion Card number", "PC-1234"),
    )
    for i, (name, option, card) in enumerate(rows):
        phone.fill(f"#id_students-{i}-full_name", name)
        phone.fill(f"#id_students-{i}-school", "Yuhua School")
        phone.fill(f"#id_students-{i}-member_number", str(students[name].member_number))
        phone.fill(f"#id_students-{i}-date_of_birth", students[name].date_of_birth.isoformat())
        phone.select_option(f"#id_students-{i}-option", label=option)
        if card:
            phone.fill(f"#id_students-{i}-concession_proof", card)
    phone.fill("#id_contact_name", "Mrs Tan Mei Ling")
    phone.fill("#id_school", "Yuhua School")
    phone.fill("#id_address", "Yuhua School, Jurong West")
    phone.fill("#id_phone", "6123 4567")
    phone.check("#id_accept_rules")
    j.shot("teacher's group entry form", phone)
    phone.get_by_role("button", name="Enter these students").click()
    expect(phone.get_by_text("3 students entered.")).to_be_visible()
    # On a phone each student's status shows twice: under their name, and in the table's status column (off-screen).
    expect(phone.get_by_text("Pending payment", exact=True)).to_have_count(6)
    j.shot("teacher sees three entries", phone)
    assert [m for m in mail.outbox if "Entries received –" in m.subject and teacher.email in m.to]

    # The organiser records the payments.
    page.get_by_role("link", name="Manage").click()
    expect(page.get_by_text("Mrs Tan Mei Ling").first).to_be_visible()
    expect(page.get_by_role("row", name=re.compile("Chloe Lim")).get_by_text("PC-1234")).to_be_visible()
    j.shot("manage: three entries pending payment")
    for name, method, reference in (
        ("Alice Ong", "in_person", ""),
        ("Ben Goh", "in_person", ""),
        ("Chloe Lim", "cheque", "004711"),
    ):
        page.get_by_role("row", name=re.compile(name)).get_by_role("link", name="Payment").click()
        expect(page.get_by_role("heading", name="Record a payment")).to_be_visible()
        page.select_option("#id_method", method)
        if reference:
            page.fill("#id_reference", reference)
        if name == "Chloe Lim":
            expect(page.locator("#id_amount")).to_have_value("2.00")
            j.shot("record a cheque payment")
        page.get_by_role("button", name="Record payment").click()
        expect(page.get_by_text("Payment recorded.")).to_be_visible()
    expect(page.get_by_role("row", name=re.compile("Chloe Lim")).get_by_text("Confirmed")).to_be_visible()
    assert Entry.objects.filter(status=EntryStatus.CONFIRMED).count() == 3
    j.shot("all three paid")

    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Close registration now").click()
    expect(page.get_by_text("Registration is closed.")).to_be_visible()
    expect(page.get_by_text("Registration closed", exact=True)).to_be_visible()
    j.shot("registration closed")

    page.get_by_role("link", name="Public page").click()
    page.get_by_role("link", name="Divisions, pairings & standings").click()
    page.get_by_role("link", name="Divisions by rating").click()
    expect(page.get_by_role("heading", name="Assign by rating")).to_be_visible()
    j.shot("divisions page before assigning")
    page.get_by_role("button", name="Assign divisions").click()
    expect(page.get_by_text(re.compile(r"Divisions assigned by ratings as of"))).to_be_visible()
    primary = page.locator("table").filter(has_text="Ben Goh")
    # Each row's first three cells (a row's innerText puts a tab between its cells).
    seated = primary.locator("tbody tr")
    expect(seated.nth(0)).to_have_text(re.compile(r"^1\tBen Goh\t1100(\t|$)"), use_inner_text=True)
    expect(seated.nth(1)).to_have_text(re.compile(r"^2\tAlice Ong\t900(\t|$)"), use_inner_text=True)
    page.get_by_role("button", name="Publish assignments").click()
    expect(page.get_by_text("Division assignments are published.")).to_be_visible()
    j.shot("divisions assigned and published")

    event = Event.objects.get()
    assert event.status == EventStatus.REGISTRATION_CLOSED
    seats = {s.player.full_name: (s.division.name, s.number, s.rating) for s in DivisionPlayer.objects.all()}
    assert seats == {
        "Ben Goh": (PRIMARY, 1, 1100),
        "Alice Ong": (PRIMARY, 2, 900),
        "Chloe Lim": (SECONDARY, 1, 1000),
    }

    # A student sees where they play.
    phone.goto(j.base_url + "/accounts/logout/")
    phone.get_by_role("button", name="Sign Out").click()
    log_in(phone, j.base_url, students["Ben Goh"].email, next_path=f"/events/{event.slug}/play/divisions/")
    expect(phone.get_by_text(f"You play in {PRIMARY}.")).to_be_visible()
    j.shot("a student sees the division", phone)
