"""An organiser copies last year's students' championship, edits and publishes the copy, and prints its desk list on
A4 and on letter paper."""

import re
from datetime import datetime, time, timedelta
from decimal import Decimal
from io import BytesIO

import pytest
from django.utils import timezone
from playwright.sync_api import expect
from pypdf import PdfReader

from events import pricing
from events.models import EntryStatus, Event, EventStatus, PrizeKind, Question
from events.services.copying import moved_date
from tests.e2e.test_accessibility import AXE, violations
from tests.events.factories import CategoryFactory, EntryFactory, EventFactory, FeeFactory, PrizeFactory
from tests.factories import AssociationFactory, PlayerFactory

from .conftest import log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# PDF points: A4 is 595 x 842, US letter 612 x 792.
PAPER_POINTS = {"A4": (595, 842), "Letter": (612, 792)}


def _pdf_pages(pdf: bytes) -> list[tuple[tuple[int, int], str]]:
    """Each page's size in points and its text."""
    reader = PdfReader(BytesIO(pdf))
    return [((round(p.mediabox.width), round(p.mediabox.height)), p.extract_text()) for p in reader.pages]


def _last_year(organiser):
    """Last year's championship: held forty days from now, a year ago, two categories with fees and prizes."""
    AssociationFactory()
    held = moved_date(timezone.localdate() + timedelta(days=40), -1)
    zone = timezone.get_current_timezone()
    event = EventFactory(
        title=f"Inter-School Scrabble Championship {held.year}",
        slug=f"inter-school-{held.year}",
        kind="students",
        owner=organiser,
        status=EventStatus.COMPLETED,
        starts_on=held,
        ends_on=held,
        start_time=time(9, 30),
        reporting_time=time(8, 45),
        venue="Jurong Green Community Club",
        registration_opens_at=datetime.combine(held - timedelta(days=60), time(9), tzinfo=zone),
        registration_closes_at=datetime.combine(held - timedelta(days=7), time(23, 59), tzinfo=zone),
        payment_methods=["paynow", "in_person"],
        rules_agreement="I agree to abide by the rules and regulations.",
    )
    for position, (name, level, amount) in enumerate((("Primary", "primary", "8"), ("Secondary", "secondary", "10"))):
        category = CategoryFactory(event=event, name=name, school_level=level, quota=80, position=position)
        FeeFactory(category=category, name="Standard", amount=Decimal(amount))
        PrizeFactory(category=category, rank_from=1, rank_to=1, description="Trophy and S$50 voucher")
        PrizeFactory(category=category, kind=PrizeKind.HIGH_GAME, rank_from=None, rank_to=None, description="Medal")
    Question.objects.create(
        event=event, category=category, kind="choice", label="T-shirt size", choices=["S", "M", "L"], required=True
    )
    return event


def _entrants(event):
    """This year's entrants: a long Primary list (it runs over a page), a short Secondary one, mixed statuses."""
    primary, secondary = event.categories.order_by("position")
    schools = ["Nanyang Primary", "Rosyth School", "Henry Park Primary", "Tao Nan School"]
    for n in range(34):
        status = EntryStatus.PENDING_PAYMENT if n % 5 == 0 else EntryStatus.CONFIRMED
        fee = primary.fees.get(until__isnull=True)  # the standard fee, not this year's early bird
        player = PlayerFactory(full_name=f"Student{n:02d} Tan", family_name="Tan", school=schools[n % 4])
        EntryFactory(
            category=primary,
            player=player,
            fee=fee,
            status=status,
            amount_due=fee.amount,
            amount_paid=Decimal("0") if status == EntryStatus.PENDING_PAYMENT else fee.amount,
        )
    fee = secondary.fees.get()
    for n, status in enumerate(
        (EntryStatus.CONFIRMED, EntryStatus.PENDING_PAYMENT, EntryStatus.CANCELLED, EntryStatus.WAITLISTED)
    ):
        player = PlayerFactory(full_name=f"Senior{n} Lim", family_name="Lim", school="Raffles Institution")
        paid = fee.amount if status == EntryStatus.CONFIRMED else Decimal("0")
        EntryFactory(category=secondary, player=player, fee=fee, status=status, amount_due=fee.amount, amount_paid=paid)


def test_organiser_copies_last_years_championship_publishes_it_and_prints_the_desk_list(journey, member):
    organiser, _ = member("Oliver Organiser", organiser=True, player=False)
    last_year = _last_year(organiser)
    next_title = f"Inter-School Scrabble Championship {last_year.starts_on.year + 1}"

    j = journey("copy-and-desk-list")
    page = j.page
    log_in(page, j.base_url, organiser.email, next_path=f"/events/{last_year.slug}/manage/")
    page.get_by_role("link", name="Copy for next year").click()
    expect(page.get_by_label("Title of the new event")).to_have_value(next_title)
    expect(page.get_by_text("Entries and their answers, groups, discount codes, divisions")).to_be_visible()
    j.shot("copy page")
    if AXE.exists():
        assert violations(page) == []
    page.get_by_role("button", name="Copy as a draft").click()
    page.wait_for_url(re.compile(r"/manage/$"))
    expect(page.get_by_text("This is a draft copy of")).to_be_visible()
    expect(page.get_by_role("heading", name=next_title)).to_be_visible()
    expect(page.get_by_role("cell", name="Primary", exact=True)).to_be_visible()
    expect(page.get_by_role("cell", name="Secondary", exact=True)).to_be_visible()
    j.shot("the copy, a draft")

    # Last year's question came along; this year an emergency contact is asked of every entrant too.
    page.get_by_role("link", name=re.compile(r"^Questions")).click()
    expect(page.get_by_role("cell", name="T-shirt size S; M; L")).to_be_visible()
    page.fill("#id_label", "Emergency contact (name and phone)")
    page.get_by_label("An answer is required").check()
    page.get_by_role("button", name="Save the question").click()
    expect(page.get_by_role("cell", name="Emergency contact (name and phone)", exact=True)).to_be_visible()
    j.shot("questions of the copy")
    page.get_by_role("link", name="Back to the dashboard").click()

    # An early-bird fee for Primary this year, through the category form: the same name as the standard fee, a lower
    # amount, and its last day (two weeks before the championship, before entries close).
    copy = Event.objects.get(title=next_title)
    early_until = copy.starts_on - timedelta(days=14)
    early = f"until {pricing.day_text(early_until)}"
    primary_row = page.get_by_role("row").filter(has=page.get_by_role("cell", name="Primary", exact=True))
    primary_row.get_by_role("link", name="Edit").click()
    expect(page.locator("#id_fees-0-amount")).to_have_value("8.00")
    page.fill("#id_fees-1-name", "Standard")
    page.fill("#id_fees-1-amount", "6")
    page.fill("#id_fees-1-until", early_until.isoformat())
    j.shot("early-bird fee typed")
    page.get_by_role("button", name="Save category").click()
    expect(page.get_by_text("Category saved.")).to_be_visible()
    expect(primary_row).to_contain_text(f"6.00 ({early})")
    assert copy.categories.get(name="Primary").fees.filter(amount=Decimal("6"), until=early_until).exists()

    # Edits before publishing: the venue moved this year.
    page.get_by_role("link", name="Edit announcement").click()
    expect(page.locator("#id_starts_on")).to_have_value(moved_date(last_year.starts_on, 1).isoformat())
    page.fill("#id_venue", "Singapore Sports School")
    page.get_by_role("button", name="Save event").click()
    page.wait_for_url(re.compile(r"/manage/$"))
    page.get_by_role("button", name="Publish").click()
    expect(page.get_by_text("The event is published.")).to_be_visible()
    j.shot("the copy published")
    # The public page states the early-bird fee and its last day.
    page.goto(f"{j.base_url}{copy.get_absolute_url()}")
    expect(page.get_by_text(early).first).to_be_visible()
    expect(page.get_by_role("listitem").filter(has_text=early).first).to_contain_text("6.00")
    j.shot("public page with the early-bird fee")
    page.goto(f"{j.base_url}/events/{copy.slug}/manage/")
    copy.refresh_from_db()
    last_year.refresh_from_db()
    assert copy.venue == "Singapore Sports School" and copy.status != EventStatus.DRAFT
    assert last_year.venue == "Jurong Green Community Club" and last_year.status == EventStatus.COMPLETED

    # Entries come in; on the day the organiser prints the desk list.
    _entrants(copy)
    page.reload()
    page.get_by_role("link", name="Desk list (print)").click()
    expect(page.get_by_role("heading", name="Desk list")).to_be_visible()
    expect(page.get_by_role("cell", name="Student00 Tan")).to_be_visible()
    expect(page.get_by_role("cell", name="Senior3 Lim")).to_be_visible()
    expect(page.get_by_text("Senior2 Lim")).to_have_count(0)  # cancelled: not coming
    expect(page.get_by_text("Total: 34 entrants")).to_be_visible()
    j.shot("desk list on screen")
    if AXE.exists():
        assert violations(page) == []

    for paper, query in (("A4", "a4"), ("Letter", "letter")):
        page.goto(f"{j.base_url}/events/{copy.slug}/manage/desk-list/?paper={query}")
        expect(page.get_by_role("link", name=paper, exact=True)).to_have_attribute("aria-current", "page")
        page.emulate_media(media="print")
        j.shot(f"desk list printed {paper}")
        pdf = page.pdf(prefer_css_page_size=True, print_background=True)
        (j.folder / f"desk-list-{query}.pdf").write_bytes(pdf)
        page.emulate_media(media="screen")
        pages = _pdf_pages(pdf)
        # 34 Primary entrants run onto a second page; Secondary starts its own: three pages, each of the paper, each
        # headed by the event and its category, the last of each category with its totals.
        assert len(pages) == 3 and {size for size, _ in pages} == {PAPER_POINTS[paper]}, (paper, pages)
        running = f"{copy.title} · {copy.starts_on.day} {copy.starts_on:%B %Y} ·"
        heads = [text.split(running, 1)[1].split()[0] if running in text else None for _, text in pages]
        assert heads == ["Primary", "Primary", "Secondary"], (paper, heads)
        assert "Total: 34 entrants" in pages[1][1] and "Total: 2 entrants" in pages[2][1]
        assert "Student33 Tan" in pages[1][1] and "Student00 Tan" in pages[0][1]

    # On a phone at the desk, the list scrolls sideways within its table; nothing spills off the page.
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{j.base_url}/events/{copy.slug}/manage/desk-list/")
    expect(page.get_by_role("button", name="Print")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    j.shot("desk list on a phone")
