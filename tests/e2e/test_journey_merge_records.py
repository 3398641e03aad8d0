"""Staff merge two records of one person (a student given a second member number at a second event) and see one
rating history, the old member number leading to the kept record."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from players.models import Player
from ratings import services as ratings
from ratings.models import RatingChange
from tests.e2e.conftest import log_in
from tests.factories import PlayerFactory
from tests.ratings.factories import RatedEventFactory, RatingListFactory, play, seed

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_staff_merge_two_records_of_one_person_and_see_one_rating_history(journey, member):
    rating_list = RatingListFactory(name="SA Ratings (CSW)", slug="sa-csw")
    today = timezone.localdate()
    rivals = [PlayerFactory(full_name=name) for name in ("Anna Tan", "Bala Kumar", "Chen Wei")]
    for rival, rating in zip(rivals, (1600, 1500, 1400), strict=True):
        seed(rating_list, rival, rating)
    first = PlayerFactory(full_name="Tan Ah Kow", family_name="Tan", school="Jurong West Secondary")
    seed(rating_list, first, 1450)
    second = PlayerFactory(full_name="Tan Ah Kow", family_name="Tan", school="Jurong West Secondary")
    # One boy, two member numbers: each record played one rated event.
    march = RatedEventFactory(rating_list=rating_list, title="March Open", starts_on=today - timedelta(days=60))
    play(march, [(1, first, rivals[0], 420, 380), (2, first, rivals[1], 400, 410), (3, first, rivals[2], 450, 300)])
    ratings.rate_event(march)
    april = RatedEventFactory(rating_list=rating_list, title="April Open", starts_on=today - timedelta(days=30))
    play(april, [(1, second, rivals[0], 390, 400), (2, second, rivals[1], 430, 420), (3, second, rivals[2], 460, 350)])
    ratings.rate_event(april)
    assert RatingChange.objects.get(player=second).is_newcomer  # the split: April rated him as a newcomer

    staff, _ = member("Sara Staff", player=False)
    staff.is_staff = staff.is_superuser = True
    staff.save(update_fields=["is_staff", "is_superuser"])
    j = journey("staff-merge-records")
    page = log_in(j.page, j.base_url, staff.email, next_path="/admin/players/player/?q=Tan+Ah+Kow")
    page.locator(f"input[name=_selected_action][value='{first.pk}']").check()
    page.locator(f"input[name=_selected_action][value='{second.pk}']").check()
    page.select_option("select[name=action]", "merge_two")
    page.locator("button[name=index]").click()  # the admin's "Go"
    expect(page.get_by_role("heading", name="Merge two records of one person")).to_be_visible()
    for record in (first, second):  # what each holds, in staff's words
        expect(page.locator(f"#record-{record.member_number}")).to_contain_text("Games: 3")
        expect(page.locator(f"#record-{record.member_number}")).to_contain_text("Seats in divisions: 1")
    j.shot("the two records side by side")
    page.get_by_label(f"member {first.member_number}, Tan Ah Kow").check()
    page.get_by_label("Why these are one person").fill("Same boy, same school; his teacher entered him twice.")
    page.get_by_role("button", name="Merge the two records").click()
    expect(page.locator(".alert-success")).to_contain_text(f"Member {second.member_number} is now part of")

    # One record, one rating history with both events, April rated from March's result.
    assert not Player.objects.filter(pk=second.pk).exists()
    page.goto(f"{j.base_url}/ratings/lists/{rating_list.slug}/players/{first.member_number}/")
    history = page.locator("table").first
    expect(history).to_contain_text("March Open")
    expect(history).to_contain_text("April Open")
    j.shot("one rating history")
    changes = {c.division.event.title: c for c in RatingChange.objects.filter(player=first).select_related("division")}
    assert not changes["April Open"].is_newcomer and changes["April Open"].pre == changes["March Open"].post

    # The old member number leads to the kept record: the member page and the rating history.
    page.goto(f"{j.base_url}/members/{second.member_number}/")
    expect(page).to_have_url(f"{j.base_url}/members/{first.member_number}/")
    page.goto(f"{j.base_url}/ratings/lists/{rating_list.slug}/players/{second.member_number}/")
    expect(page).to_have_url(f"{j.base_url}/ratings/lists/{rating_list.slug}/players/{first.member_number}/")
    expect(page.locator("table").first).to_contain_text("March Open")
