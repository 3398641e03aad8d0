"""An organiser names a director by email; the director finds the event under My events, runs its one
round and finalises the division; the event becomes Completed and its page links the rating report."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from events.models import EntryStatus, Event, EventStatus
from events.play.models import Division, DivisionPlayer
from tests.e2e.conftest import log_in
from tests.events.factories import CategoryFactory, EntryFactory, EventFactory
from tests.factories import AssociationFactory
from tests.ratings.factories import RatingListFactory, seed

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SEAT = re.compile(r"^(\d+)\. (.+)$")


def boards(page) -> list[tuple[int, int]]:
    numbers = []
    for row in page.locator("table.pairings tbody tr").all():
        cells = row.locator("td").all_inner_texts()
        numbers.append((int(SEAT.match(cells[1].strip())[1]), int(SEAT.match(cells[4].strip())[1])))
    return numbers


def test_organiser_names_a_director_who_runs_the_event_to_completed(journey, member):
    # Preconditions: a rated one-round event on today's date, registration closed, four entrants seated in A.
    AssociationFactory()
    ratings = RatingListFactory(name="SA Ratings (CSW)", slug="sa-csw")
    organiser, _ = member("Oliver Organiser", organiser=True, player=False)
    director, _ = member("Dora Director", email="dora.td@example.org", player=False)
    now = timezone.now()
    event = EventFactory(
        title="Toa Payoh Rapid Cup",
        slug="toa-payoh-rapid-cup",
        owner=organiser,
        status=EventStatus.REGISTRATION_CLOSED,
        starts_on=timezone.localdate(),
        registration_opens_at=now - timedelta(days=30),
        registration_closes_at=now - timedelta(days=2),
        rated=True,
        rating_list=ratings,
        number_of_games=1,
    )
    category = CategoryFactory(event=event, name="Open")
    division = Division.objects.create(event=event, category=category, name="A", assignments_published=True)
    for number, (name, rating) in enumerate(
        (("Anna Tan", 1800), ("Bala Kumar", 1650), ("Chen Wei", 1500), ("Dewi Lim", 1400)), start=1
    ):
        _, player = member(name)
        seed(ratings, player, rating, games=60)
        entry = EntryFactory(category=category, player=player, status=EntryStatus.CONFIRMED, division=division)
        DivisionPlayer.objects.create(division=division, player=player, entry=entry, number=number, rating=rating)

    # The organiser names the director by email on the manage page.
    j = journey("event-to-completed")
    page = j.page
    log_in(page, j.base_url, organiser.email, next_path=f"/events/{event.slug}/manage/")
    expect(page.get_by_text("No directors named yet.")).to_be_visible()
    page.get_by_label("Member number or email address").fill("DORA.TD@example.org")
    page.get_by_role("button", name="Add director").click()
    expect(page.get_by_text("Dora Director now directs this event.")).to_be_visible()
    expect(page.locator("#directors").get_by_text("dora.td@example.org")).to_be_visible()
    j.shot("organiser named a director")

    # The director sees it under My events, and runs the round.
    td = j.new_page(viewport={"width": 1280, "height": 900})
    log_in(td, j.base_url, director.email, next_path="/events/mine/")
    item = td.get_by_role("link", name=re.compile("Toa Payoh Rapid Cup"))
    expect(item).to_be_visible()
    expect(td.get_by_text("No events yet")).to_have_count(0)
    j.shot("director's my events", td)
    item.click()
    td.get_by_role("link", name="Pair and run rounds").click()
    td.get_by_role("button", name="Pair the round").click()
    expect(td.get_by_text("Round 1 is paired as a draft")).to_be_visible()
    td.get_by_role("button", name="Publish round 1").click()
    lines = [f"{a} {400 + a} {b} {300 + b}" for a, b in boards(td)]
    td.get_by_label("Results").fill("\n".join(lines))
    td.get_by_role("button", name="Enter these results").click()
    expect(td.get_by_text("2 results entered.")).to_be_visible()
    td.get_by_role("link", name="Standings", exact=True).click()
    td.once("dialog", lambda dialog: dialog.accept())
    td.get_by_role("button", name="Finalise A").click()
    expect(td.get_by_text("A is final: its results are locked.")).to_be_visible()
    j.shot("director finalised the only division", td)

    # The event follows play: Completed, no start button, and its page links the rating report.
    assert Event.objects.get(pk=event.pk).status == EventStatus.COMPLETED
    page.goto(j.base_url + f"/events/{event.slug}/manage/")
    expect(page.locator(".badge", has_text="Completed").first).to_be_visible()
    expect(page.get_by_role("button", name="Start the event")).to_have_count(0)
    j.shot("manage page: completed")
    page.goto(j.base_url + event.get_absolute_url())
    page.get_by_role("link", name="Rating report").click()
    expect(page.get_by_role("heading", name="Division A")).to_be_visible()
    expect(page.locator("table tbody tr")).to_have_count(4)
    j.shot("rating report linked from the event page")
