"""In a browser: an organiser publishes the students' championship, a teacher enters three students, a pupil enters.

The browser steps run in a thread of their own with their own Playwright, so this journey does not
share (or clash with) the browser the tests/e2e journeys hold for the session. The database is only
touched from the test's own thread, between the browser phases.
"""

import re
import shutil
import threading
from datetime import timedelta
from pathlib import Path

import pytest
from django.test import Client
from django.utils import timezone

from events.models import Entry, EntryStatus, Event, EventStatus
from players.models import SchoolLevel
from tests.conftest import skip_or_fail
from tests.e2e.conftest import ARTIFACTS, CHROMIUM, PHONE, PRIMARY, SECONDARY, fill_seed_category
from tests.events.factories import fast_passwords, make_organiser, player_with_account  # noqa: F401
from tests.factories import AssociationFactory, UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
SHOTS = ARTIFACTS / "events-seed-registration"


def session_cookie(live_server, user) -> dict:
    """A session for this user (the log-in form itself is tested elsewhere)."""
    client = Client()
    client.force_login(user)
    return {"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}


def in_browser(steps) -> None:
    """Runs `steps(browser)` in a fresh thread with its own Playwright; re-raises what goes wrong there."""
    if not shutil.which(CHROMIUM) and not Path(CHROMIUM).exists():
        skip_or_fail(f"needs Chromium at {CHROMIUM} (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        skip_or_fail("needs the playwright package (make test installs it)")
    failures: list[BaseException] = []

    def run():
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
                try:
                    steps(browser)
                finally:
                    browser.close()
        except BaseException as failure:  # re-raised in the test's thread below
            failures.append(failure)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(timeout=300)
    assert not thread.is_alive(), "the browser steps did not finish"
    if failures:
        raise failures[0]


def new_page(browser, cookie, viewport=None):
    context = browser.new_context(viewport=viewport or {"width": 1280, "height": 900})
    context.add_cookies([cookie])
    page = context.new_page()
    page.set_default_timeout(15000)
    return page


def shot(page, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def test_seed_event_published_and_entered_in_a_browser(live_server):
    shutil.rmtree(SHOTS, ignore_errors=True)
    SHOTS.mkdir(parents=True, exist_ok=True)
    AssociationFactory()
    organiser = session_cookie(live_server, make_organiser(first_name="Oliver"))
    day = timezone.localdate() + timedelta(days=30)
    closes = timezone.localdate() + timedelta(days=20)

    def organiser_publishes(browser):
        from playwright.sync_api import expect  # here, not at the top: in_browser skips without Playwright

        page = new_page(browser, organiser)
        page.goto(live_server.url + "/events/new/")
        page.fill("#id_title", "Students' Scrabble Championship")
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
        page.fill("#id_eligibility", "Open to primary and secondary school students only")
        page.fill("#id_attire", "School uniform")
        page.fill("#id_registration_opens_at", (timezone.localdate() - timedelta(days=1)).isoformat() + "T09:00")
        page.fill("#id_registration_closes_at", closes.isoformat() + "T23:59")
        page.check("#id_payment_methods_0")
        page.check("#id_payment_methods_1")
        page.fill("#id_payment_instructions", "Pay in person at Jurong Green CC, or by cheque.")
        page.fill("#id_rules_agreement", "I agree to abide by the rules and not to hold the organiser responsible.")
        shot(page, "01-announcement-form")
        page.get_by_role("button", name="Save event").click()
        page.wait_for_url(re.compile(r"/manage/$"))
        expect(page.get_by_text("saved as a draft")).to_be_visible()
        for name, level in ((SECONDARY, "secondary"), (PRIMARY, "primary")):
            fill_seed_category(page, name, level)
            shot(page, f"02-category-{level}")
            page.get_by_role("button", name="Save category").click()
            page.wait_for_url(re.compile(r"/manage/$"))
        page.get_by_role("button", name="Publish").click()
        expect(page.get_by_text("The event is published.")).to_be_visible()
        shot(page, "03-published")

    in_browser(organiser_publishes)
    event = Event.objects.get()
    assert event.status == EventStatus.REGISTRATION_OPEN
    assert event.categories.get(school_level="secondary").prizes.count() == 7

    teacher = session_cookie(live_server, UserFactory(first_name="Mrs", last_name="Tan"))
    student = player_with_account(full_name="Sam Secondary", school_level=SchoolLevel.SECONDARY)
    pupil = session_cookie(live_server, student.user)
    url = live_server.url + event.get_absolute_url()

    def teacher_and_pupil_enter(browser):
        from playwright.sync_api import expect

        phone = new_page(browser, teacher, PHONE)
        phone.goto(url)
        expect(phone.get_by_text("Shopping voucher S$100 + trophy")).to_be_visible()
        phone.get_by_role("link", name="Enter students (teacher, parent or guardian)").click()
        for i, name in enumerate(("Alice Ong", "Ben Goh", "Chloe Lim")):
            phone.fill(f"#id_students-{i}-full_name", name)
            phone.fill(f"#id_students-{i}-school", "Yuhua Primary")
            phone.fill(f"#id_students-{i}-phone", f"8111000{i}")
            phone.fill(f"#id_students-{i}-date_of_birth", f"{day.year - 9 - i}-03-0{i + 1}")  # primary school age
            phone.select_option(
                f"#id_students-{i}-option", label="Category B – Primary School Student: Standard S$3.00 (incl. GST)"
            )
        phone.fill("#id_contact_name", "Mrs Tan")
        phone.fill("#id_school", "Yuhua Primary")
        phone.fill("#id_address", "Yuhua Primary School, Jurong West")
        phone.fill("#id_phone", "6123 4567")
        phone.check("#id_accept_rules")
        shot(phone, "04-teacher-group-form")
        phone.get_by_role("button", name="Enter these students").click()
        expect(phone.get_by_text("3 students entered.")).to_be_visible()
        shot(phone, "05-teacher-my-entries")

        alone = new_page(browser, pupil, PHONE)
        alone.goto(url)
        alone.get_by_role("link", name="Enter myself").click()
        expect(alone.get_by_text("Category B – Primary School Student is for primary school students")).to_be_visible()
        alone.get_by_label(re.compile(r"Category A .* Passion Card holder")).check()
        alone.fill("#id_concession_proof", "PC-2015")
        alone.check("#id_accept_rules")
        alone.get_by_role("button", name="Enter").click()
        expect(alone.get_by_text("Your place is held")).to_be_visible()
        shot(alone, "06-pupil-entered")

    in_browser(teacher_and_pupil_enter)
    entries = Entry.objects.filter(event=event, status=EntryStatus.PENDING_PAYMENT)
    assert entries.count() == 4
    assert entries.get(player=student).concession_proof == "PC-2015"
