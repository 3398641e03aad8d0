"""The organiser adds a required "Emergency contact" question; a teacher pastes a class list with that column (a
line without it is refused, named by its line and the column, and nobody is entered until it is fixed); a player
answers it on the entry form on a phone and changes the answer later; the organiser sees the answers on the dashboard
and in the CSV. The new pages pass axe-core."""

import re
from datetime import date
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from events.models import Answer, Entry
from tests.e2e.conftest import PHONE, log_in
from tests.e2e.test_accessibility import AXE, violations
from tests.e2e.test_journey_live_rating import axe_findings
from tests.events.factories import CategoryFactory, EventFactory, FeeFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_organiser_asks_teacher_pastes_player_answers_organiser_reads(journey, member):
    organiser, _ = member("Oliver Organiser", organiser=True)
    event = EventFactory(title="Youth Open", slug="youth-open", owner=organiser)
    category = CategoryFactory(event=event, name="Open", quota=40)
    FeeFactory(category=category, name="Standard", amount=Decimal("3.00"))
    member("Mrs Tan", email="tan@example.org", player=False)
    member("Priya Player", email="priya@example.org", date_of_birth=date(2001, 4, 5))
    year = event.starts_on.year
    check_axe = AXE.exists()

    # The organiser adds the question from the dashboard.
    j = journey("questions")
    page = log_in(j.page, j.base_url, organiser.email, next_path=f"/events/{event.slug}/manage/")
    page.get_by_role("link", name="Questions").click()
    page.fill("#id_label", "Emergency contact")
    page.select_option("#id_kind", "short")
    page.fill("#id_help_text", "A name and a number we can call on the day")
    page.check("#id_required")
    page.get_by_role("button", name="Save the question").click()
    expect(page.get_by_text("Question added.")).to_be_visible()
    expect(page.locator("table")).to_contain_text("Emergency contact", use_inner_text=True)
    j.shot("organiser adds the emergency contact question")
    if check_axe:
        assert violations(page) == []

    # A teacher pastes a class list with the column; a line without an answer is named, nothing is entered.
    teacher = j.new_page(viewport=PHONE)
    log_in(teacher, j.base_url, "tan@example.org", next_path=f"/events/{event.slug}/enter-group/")
    teacher.fill("#id_school", "Yuhua Primary")
    teacher.fill("#id_address", "Yuhua Primary School, Jurong West")
    teacher.fill("#id_phone", "6123 4567")
    rows = [
        "Name\tDate of birth\tEmergency contact",
        f"Alice Ong\t04/05/{year - 9}\tMrs Ong 9111 2222",
        f"Ben Goh\t11/02/{year - 10}\t",
    ]
    teacher.fill("#id_class_list", "\n".join(rows))
    expect(teacher.get_by_text("“Emergency contact”")).to_be_visible()
    j.shot("teacher pastes the class list with the column", teacher)
    teacher.get_by_role("button", name="Enter these students").click()
    expect(teacher.locator("#group-error")).to_contain_text(
        "Line 3 (Ben Goh): Emergency contact: this question needs an answer.", use_inner_text=True
    )
    assert not Entry.objects.exists()
    j.shot("the line without an answer is named", teacher)
    rows[2] += "Mr Goh 9333 4444"
    teacher.fill("#id_class_list", "\n".join(rows))
    teacher.get_by_role("button", name="Enter these students").click()
    teacher.wait_for_url(re.compile(r"/events/groups/\d+/$"))
    expect(teacher.get_by_text("2 students entered.")).to_be_visible()
    expect(teacher.locator("table")).to_contain_text("Mr Goh 9333 4444", use_inner_text=True)
    j.shot("the group with each student's answer", teacher)

    # A player answers on the entry form, on a phone, and changes the answer later.
    player = j.new_page(viewport=PHONE)
    log_in(player, j.base_url, "priya@example.org", next_path=f"/events/{event.slug}/enter/")
    expect(player.get_by_text("A name and a number we can call on the day")).to_be_visible()
    player.check("input[name=option]")
    player.get_by_label("Emergency contact *").fill("Raj Player 9555 6666")
    j.shot("player answers on the entry form", player)
    if check_axe:
        assert violations(player) == []
    player.get_by_role("button", name="Enter").click()
    player.wait_for_url(re.compile(r"/events/my-entries/$"))
    player.get_by_role("link", name="Change the answers").click()
    expect(player.get_by_label("Emergency contact *")).to_have_value("Raj Player 9555 6666")
    player.get_by_label("Emergency contact *").fill("Raj Player 9555 7777")
    player.get_by_role("button", name="Save the answers").click()
    expect(player.get_by_text("The answers are saved.")).to_be_visible()
    j.shot("player changes the answer", player)
    if check_axe:
        assert violations(player) == []
    assert sorted(Answer.objects.values_list("value", flat=True)) == [
        "Mr Goh 9333 4444",
        "Mrs Ong 9111 2222",
        "Raj Player 9555 7777",
    ]

    # The organiser reads the answers on the dashboard and in the CSV.
    page.goto(f"{j.base_url}/events/{event.slug}/manage/")
    entries = page.locator("table").last
    expect(entries).to_contain_text("Emergency contact: Raj Player 9555 7777", use_inner_text=True)
    expect(entries).to_contain_text("Emergency contact: Mrs Ong 9111 2222", use_inner_text=True)
    j.shot("organiser sees the answers on the dashboard")
    # The entries' table, where the answers are (the dashboard's other parts are checked on their own).
    assert axe_findings(page, "dl.answers") == []
    csv_text = page.request.get(f"{j.base_url}/events/{event.slug}/manage/entries.csv").text()
    header, *lines = csv_text.lstrip("\ufeff").splitlines()
    assert header.endswith(",Emergency contact")
    assert sorted(line.rsplit(",", 1)[1] for line in lines) == [
        "Mr Goh 9333 4444",
        "Mrs Ong 9111 2222",
        "Raj Player 9555 7777",
    ]
