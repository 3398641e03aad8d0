"""At the venue: the director opens the word judge, the tablet rules on two challenged plays (one
acceptable, one not) without an account, and the director reads the log."""

from datetime import timedelta

import pytest
from django.utils import timezone

from events.models import EventStatus
from tests.e2e.conftest import log_in
from tests.events.factories import EventFactory
from tests.factories import UserFactory
from wordjudge import services
from wordjudge.models import Judgement

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TABLET = {"width": 820, "height": 1180}
WORDS = b"AA\nQI\nZA\nJO\nQAT\nZOA\nJOTA\nQUIZ\nOXO\n"


def test_director_opens_the_judge_and_the_tablet_rules_on_whole_plays(journey, member):
    now = timezone.now()
    event = EventFactory(
        title="Jurong Green Open",
        slug="jurong-green-open",
        status=EventStatus.IN_PROGRESS,
        lexicon="CSW",
        starts_on=timezone.localdate(),
        registration_opens_at=now - timedelta(days=30),
        registration_closes_at=now - timedelta(days=10),
    )
    services.import_lexicon(UserFactory(is_staff=True), "CSW", WORDS)
    director, _ = member("Dora Director", player=False)
    event.directors.add(director)

    j = journey("word-judge", viewport=TABLET)
    page = log_in(j.page, j.base_url, director.email, next_path=f"/events/{event.slug}/play/")
    page.get_by_role("link", name="Word judge").click()
    page.get_by_text("The word judge is closed").wait_for()
    j.shot("director sees the judge closed")
    page.get_by_role("button", name="Open the word judge").click()
    page.get_by_text("The word judge is open.").wait_for()
    tablet_url = page.locator("#tablet-url").inner_text()
    j.shot("director opened the judge")

    # The tablet at the venue: its own browser, no account.
    tablet = j.new_page(viewport=TABLET)
    tablet.goto(tablet_url)
    tablet.get_by_role("heading", name="Word judge").wait_for()
    j.shot("tablet ready", tablet)
    tablet.get_by_label("Words formed by the play").fill("quiz, za")
    tablet.get_by_label("Board (optional)").fill("5")
    tablet.get_by_role("button", name="Judge the play").click()
    verdict = tablet.locator("#verdict")
    assert verdict.inner_text() == "The play is ACCEPTABLE"
    j.shot("an acceptable play", tablet)

    tablet.get_by_role("link", name="Next challenge").click()
    tablet.get_by_label("Words formed by the play").fill("jota qis")
    tablet.get_by_role("button", name="Judge the play").click()
    assert verdict.inner_text() == "The play is NOT ACCEPTABLE"
    # The ruling is on the play, never on a word.
    assert "QIS" in tablet.locator(".verdict-words").inner_text()
    assert tablet.locator("main").inner_text().count("ACCEPTABLE") == 1
    box = verdict.bounding_box()
    assert box and box["width"] <= TABLET["width"]
    j.shot("a play that is not acceptable", tablet)

    page.reload()
    rows = page.locator("#judgements tbody tr")
    assert rows.count() == 2
    assert "JOTA QIS" in rows.nth(0).inner_text() and "NOT ACCEPTABLE" in rows.nth(0).inner_text()
    assert "QUIZ ZA" in rows.nth(1).inner_text() and "5" in rows.nth(1).inner_text()
    j.shot("director reads the log")

    page.get_by_role("button", name="Close the word judge").click()
    page.get_by_text("its address no longer works").wait_for()
    tablet.goto(tablet_url)
    tablet.get_by_text("This word judge is closed").wait_for()
    j.shot("the tablet after closing", tablet)
    assert Judgement.objects.filter(event=event).count() == 2
