"""A teacher pastes a class list, is refused a student too old for primary (the row named), fixes it and
sees the group's total; the organiser records one cheque for the group; a member the teacher entered
is told by email and withdraws with one click, without logging in."""

import re
from datetime import date
from decimal import Decimal

import pytest
from django.core import mail
from playwright.sync_api import expect

from events.models import Entry, EntryStatus, EventKind
from tests.e2e.conftest import PHONE, PRIMARY, SECONDARY, log_in
from tests.events.factories import CategoryFactory, EventFactory, FeeFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def seed_event(owner):
    event = EventFactory(
        title="Students' Scrabble Championship",
        slug="students-championship",
        kind=EventKind.STUDENTS,
        owner=owner,
        rules_agreement="I agree to abide by the rules set by the organiser.",
    )
    for position, (name, level) in enumerate(((SECONDARY, "secondary"), (PRIMARY, "primary"))):
        category = CategoryFactory(event=event, name=name, school_level=level, quota=40, position=position)
        FeeFactory(category=category, name="Standard", amount=Decimal("3.00"), note="incl. GST")
        FeeFactory(
            category=category,
            name="Passion Card holder",
            amount=Decimal("2.00"),
            is_concession=True,
            proof_label="Passion Card number",
        )
    return event


def open_group_form(j, email: str, event):
    """The teacher logs in and fills in the school's details on the group entry form."""
    page = log_in(j.page, j.base_url, email, next_path=f"/events/{event.slug}/enter-group/")
    page.fill("#id_school", "Yuhua Primary")
    page.fill("#id_address", "Yuhua Primary School, Jurong West")
    page.fill("#id_phone", "6123 4567")
    return page


def test_teacher_pastes_a_class_list_organiser_takes_one_cheque_member_withdraws(journey, member):
    organiser, _ = member("Oliver Organiser", organiser=True)
    event = seed_event(organiser)
    year = event.starts_on.year
    member("Mrs Tan", email="tan@example.org", player=False)
    _, star = member("Sam Star", email="sam@example.org", date_of_birth=date(year - 12, 8, 9))

    j = journey("group-entry", viewport=PHONE)
    page = open_group_form(j, "tan@example.org", event)
    rows = [
        "Name\tDate of birth\tLevel\tMember no.\tPassion card",
        f"Alice Ong\t04/05/{year - 9}\tP4\t\t",
        f"Ben Goh\t11/02/{year - 10}\tP5\t\t8012345678",
        f"Old Hand\t01/01/{year - 21}\tP6\t\t",
        f"Sam Star\t09/08/{year - 12}\tP6\t{star.member_number}\t",
    ]
    page.fill("#id_class_list", "\n".join(rows))
    page.check("#id_accept_rules")
    j.shot("class list pasted")
    page.get_by_role("button", name="Enter these students").click()
    refusal = page.locator("#group-error")
    expect(refusal).to_contain_text(
        "Line 4 (Old Hand): Category B – Primary School Student is for primary school students", use_inner_text=True
    )
    assert not Entry.objects.exists()
    j.shot("refused with the row named")

    rows[3] = f"Olive Hand\t01/01/{year - 11}\tP6\t\t"
    page.fill("#id_class_list", "\n".join(rows))
    page.check("#id_accept_rules")
    page.get_by_role("button", name="Enter these students").click()
    page.wait_for_url(re.compile(r"/events/groups/\d+/$"))
    expect(page.get_by_text("4 students entered.")).to_be_visible()
    expect(page.locator("#group-total")).to_have_text("S$11.00", use_inner_text=True)  # 3 + 2 + 3 + 3
    j.shot("the group and its total")
    group_url = page.url

    office = j.new_page(viewport={"width": 1280, "height": 900})
    log_in(office, j.base_url, organiser.email)
    office.goto(group_url)
    office.fill("#id_amount", "9.50")
    office.select_option("#id_method", "cheque")
    office.fill("#id_reference", "000123")
    j.shot("organiser records one cheque", office)
    office.get_by_role("button", name="Record one payment for the group").click()
    expect(office.get_by_text("Payment recorded for the group.")).to_be_visible()
    expect(office.locator("#group-balance")).to_have_text("S$1.50", use_inner_text=True)
    j.shot("paid student by student", office)
    statuses = list(Entry.objects.order_by("accepted_at", "pk").values_list("status", "amount_paid"))
    assert statuses[:3] == [
        (EntryStatus.CONFIRMED, Decimal("3.00")),
        (EntryStatus.CONFIRMED, Decimal("2.00")),
        (EntryStatus.CONFIRMED, Decimal("3.00")),
    ]
    assert statuses[3] == (EntryStatus.PENDING_PAYMENT, Decimal("1.50"))

    told = next(m for m in mail.outbox if m.to == ["sam@example.org"] and "You have been entered –" in m.subject)
    assert "Mrs Tan (teacher-in-charge) has entered you" in told.body
    link = re.search(r"https?://[^/\s]+(/events/entries/withdraw/\S+)", told.body).group(1)
    assert all(len(m.to) == 1 for m in mail.outbox)
    stranger = j.new_page()  # not logged in
    stranger.goto(j.base_url + link)
    j.shot("member opens the emailed link", stranger)
    stranger.get_by_role("button", name="Withdraw this entry").click()
    expect(stranger.get_by_text("Sam Star is withdrawn")).to_be_visible()
    j.shot("member withdrawn in one click", stranger)
    assert Entry.objects.get(player=star).status == EntryStatus.WITHDRAWN


def test_teacher_on_a_phone_adds_student_rows_up_to_the_groups_bound(journey, member):
    """Three rows and no way to add a fourth (the paper had fifteen): "Add a student" adds one in the page, until
    the group's bound."""
    organiser, _ = member("Oliver Organiser", organiser=True)
    event = seed_event(organiser)
    event.max_group_size = 5
    event.save()
    year = event.starts_on.year
    member("Mrs Tan", email="tan@example.org", player=False)

    j = journey("group-entry-rows", viewport=PHONE)
    page = open_group_form(j, "tan@example.org", event)
    add = page.get_by_role("button", name="Add a student")
    expect(page.locator("#students-rows fieldset")).to_have_count(3)
    add.click()
    add.click()
    expect(page.locator("#students-rows fieldset")).to_have_count(5)
    expect(page.get_by_text("Student 5", exact=True)).to_be_visible()
    expect(add).to_be_hidden()
    expect(page.locator("#students-bound")).to_be_visible()
    primary = event.categories.get(name=PRIMARY).fees.get(name="Standard")
    for i, name in enumerate(["Alice Ong", "Ben Goh", "Chloe Lim", "Dev Nair", "Eve Koh"]):
        page.fill(f"#id_students-{i}-full_name", name)
        page.fill(f"#id_students-{i}-date_of_birth", f"{year - 9}-05-0{i + 1}")
        page.select_option(f"#id_students-{i}-option", f"{primary.category_id}:{primary.pk}")
    page.check("#id_accept_rules")
    j.shot("five students typed on a phone")
    page.get_by_role("button", name="Enter these students").click()
    page.wait_for_url(re.compile(r"/events/groups/\d+/$"))
    expect(page.get_by_text("5 students entered.")).to_be_visible()
    assert Entry.objects.filter(group__submitted_by__email="tan@example.org").count() == 5
