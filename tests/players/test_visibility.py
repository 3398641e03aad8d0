"""One visibility rule for members, asked by every door: the directory, the member page, the
players API, the rating list (page, CSV, API), rating histories and event rating reports.

Rating lists and reports are public: every rated player appears there by name and rating. The
member number, the link to the player's pages and those pages themselves are only for listed
members (and for the member and staff)."""

import csv
import io
from datetime import date, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from players import visibility
from players.models import Player, SchoolLevel
from ratings import services as rating_services
from ratings.models import RatingChange
from tests.factories import PlayerFactory, UserFactory
from tests.ratings.factories import RatedEventFactory, RatingListFactory, days_ago, play, round_robin, seed

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated():
    """A rated event of four players; `hidden` opted out of the directory, `shown` did not."""
    rating_list = RatingListFactory()
    players = [
        PlayerFactory(full_name="Hidden Hannah", listed_in_directory=False),
        PlayerFactory(full_name="Shown Sam"),
        PlayerFactory(full_name="Third Tom"),
        PlayerFactory(full_name="Fourth Fay"),
    ]
    for i, p in enumerate(players):
        seed(rating_list, p, 1900 - 40 * i, games=60)
    event = RatedEventFactory(rating_list=rating_list, starts_on=days_ago(20))
    play(event, round_robin(players))
    rating_services.rate_event(event)
    return rating_list, event, players[0], players[1]


def _links(html: str, rating_list, player) -> bool:
    return reverse("ratings:player_history", args=[rating_list.slug, player.member_number]) in html


def test_rating_list_page_names_hidden_member_without_number_or_link(client, rated):
    rating_list, _event, hidden, shown = rated
    html = client.get(reverse("ratings:list_detail", args=[rating_list.slug])).content.decode()
    assert "Hidden Hannah" in html and "Shown Sam" in html
    assert not _links(html, rating_list, hidden)
    assert _links(html, rating_list, shown)


def test_rating_list_csv_blanks_the_hidden_members_number(client, rated):
    rating_list, _event, hidden, shown = rated
    response = client.get(reverse("ratings:list_csv", args=[rating_list.slug]))
    rows = {r["name"]: r for r in csv.DictReader(io.StringIO(response.content.decode()))}
    assert rows["Hidden Hannah"]["member_number"] == "" and rows["Hidden Hannah"]["rating"]
    assert rows["Shown Sam"]["member_number"] == str(shown.member_number)
    assert str(hidden.member_number) not in response.content.decode()


def test_ratings_api_hides_the_number_and_cannot_be_searched_by_it(rated):
    rating_list, _event, hidden, shown = rated
    api = APIClient()
    rows = {r["name"]: r for r in api.get("/api/ratings/", {"list": rating_list.slug}).json()["results"]}
    assert rows["Hidden Hannah"]["member_number"] is None and rows["Hidden Hannah"]["rating"] > 0
    assert rows["Shown Sam"]["member_number"] == shown.member_number
    found = api.get("/api/ratings/", {"list": rating_list.slug, "member_number": hidden.member_number}).json()
    assert found["count"] == 0
    found = api.get("/api/ratings/", {"list": rating_list.slug, "member_number": shown.member_number}).json()
    assert found["count"] == 1
    # The member themselves, and staff, find their own number.
    api.force_authenticate(UserFactory(is_staff=True))
    found = api.get("/api/ratings/", {"list": rating_list.slug, "member_number": hidden.member_number}).json()
    assert found["count"] == 1 and found["results"][0]["member_number"] == hidden.member_number


def test_event_rating_report_page_and_api(client, rated):
    rating_list, event, hidden, shown = rated
    html = client.get(reverse("ratings:event_report", args=[event.slug])).content.decode()
    assert "Hidden Hannah" in html and not _links(html, rating_list, hidden) and _links(html, rating_list, shown)
    rows = {r["name"]: r for r in APIClient().get(f"/api/rating-reports/{event.slug}/").json()["rows"]}
    assert rows["Hidden Hannah"]["member_number"] is None and rows["Hidden Hannah"]["post"] > 0
    assert rows["Shown Sam"]["member_number"] == shown.member_number


def test_hidden_members_pages_are_for_themselves_and_staff(client, rated):
    rating_list, _event, hidden, shown = rated
    urls = [
        reverse("players:detail", args=[hidden.member_number]),
        reverse("ratings:player_history", args=[rating_list.slug, hidden.member_number]),
        reverse("ratings:player_chart", args=[rating_list.slug, hidden.member_number]),
        f"/api/rating-lists/{rating_list.slug}/history/{hidden.member_number}/",
        f"/api/players/{hidden.member_number}/",
    ]
    assert [client.get(u).status_code for u in urls] == [404] * 5
    # A hidden member looks like a number that does not exist.
    assert "not listed" in client.get(urls[0]).content.decode()
    assert client.get(reverse("players:detail", args=[shown.member_number])).status_code == 200

    owner = UserFactory()
    Player.objects.filter(pk=hidden.pk).update(user=owner)
    client.force_login(owner)
    assert [client.get(u).status_code for u in urls] == [200] * 5
    client.force_login(UserFactory(is_staff=True))
    assert [client.get(u).status_code for u in urls] == [200] * 5


def test_directory_and_players_api_list_only_listed_members(client):
    PlayerFactory(full_name="Listed Lily")
    PlayerFactory(full_name="Private Pete", listed_in_directory=False)
    html = client.get(reverse("players:directory")).content.decode()
    assert "Listed Lily" in html and "Private Pete" not in html
    names = [p["full_name"] for p in APIClient().get("/api/players/").json()["results"]]
    assert names == ["Listed Lily"]


def test_home_page_top_list_links_only_listed_members(client, rated):
    rating_list, _event, hidden, shown = rated
    html = client.get(reverse("home")).content.decode()
    assert "Hidden Hannah" in html and "Shown Sam" in html
    assert not _links(html, rating_list, hidden) and _links(html, rating_list, shown)


# --- under 18: listed only with a parent's or guardian's opt-in ---------------------------------


def _born_years_ago(years: int, days: int = 0) -> date:
    today = timezone.localdate()
    return today.replace(year=today.year - years) - timedelta(days=days)


def test_under_18_is_listed_only_once_a_guardian_opted_in(client):
    child = PlayerFactory(full_name="Young Yasmin", date_of_birth=_born_years_ago(12))
    assert not visibility.can_see_profile(None, child)
    assert "Young Yasmin" not in client.get(reverse("players:directory")).content.decode()
    assert client.get(child.get_absolute_url()).status_code == 404

    Player.objects.filter(pk=child.pk).update(guardian_name="Parent", guardian_opted_in_on=timezone.localdate())
    assert "Young Yasmin" in client.get(reverse("players:directory")).content.decode()
    assert client.get(child.get_absolute_url()).status_code == 200
    # The member's own opt-out still wins over the guardian's opt-in.
    Player.objects.filter(pk=child.pk).update(listed_in_directory=False)
    assert "Young Yasmin" not in client.get(reverse("players:directory")).content.decode()


def test_the_age_line_and_pupils_without_a_date_of_birth(client):
    eighteen_today = PlayerFactory(date_of_birth=_born_years_ago(18))
    a_day_short = PlayerFactory(date_of_birth=_born_years_ago(18, days=-1))
    pupil = PlayerFactory(school_level=SchoolLevel.SECONDARY)
    adult_unknown_age = PlayerFactory()
    seen = set(visibility.visible_players(None).values_list("pk", flat=True))
    assert eighteen_today.pk in seen and adult_unknown_age.pk in seen
    assert a_day_short.pk not in seen and pupil.pk not in seen
    assert visibility.is_minor(a_day_short) and visibility.is_minor(pupil) and not visibility.is_minor(eighteen_today)


def test_an_unlisted_child_is_still_named_in_rating_reports_without_number(client):
    rating_list = RatingListFactory()
    players = [PlayerFactory(full_name="Kid Kim", date_of_birth=_born_years_ago(10))] + PlayerFactory.create_batch(3)
    for i, p in enumerate(players):
        seed(rating_list, p, 1500 - 10 * i, games=60)
    event = RatedEventFactory(rating_list=rating_list, starts_on=days_ago(10))
    play(event, round_robin(players))
    rating_services.rate_event(event)
    assert RatingChange.objects.filter(division__event=event).count() == 4
    rows = {r["name"]: r for r in APIClient().get(f"/api/rating-reports/{event.slug}/").json()["rows"]}
    assert rows["Kid Kim"]["member_number"] is None


def test_a_member_page_heading_gives_the_full_name_and_what_the_member_is_known_as(client):
    member = PlayerFactory(full_name="Tan Mei Ling", display_name="Mei Ling Tan", listed_in_directory=True)
    page = client.get(reverse("players:detail", args=[member.member_number])).content.decode()
    assert '<h1>Tan Mei Ling <small class="text-muted">known as Mei Ling Tan</small></h1>' in page
