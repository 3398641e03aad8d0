"""How deep a list is paged (clubsite.kit.paging): the API refuses a page past the first MAX_DEPTH rows with a 400
naming `page` (page 15,000 of 800,000 games took 1.9 s to read), its schema says so, and the site's pages show
their deepest page instead, saying the list goes on."""

import pytest
from django.urls import reverse
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from clubsite.kit import paging
from clubsite.kit.paging import MAX_DEPTH, BoundedPaginator, max_page
from tests.events.factories import EventFactory, make_organiser
from tests.factories import AssociationFactory

pytestmark = pytest.mark.django_db

TOO_DEEP = (
    "Pages go no deeper than 200 (the first 10,000 rows): narrow the list with its filters to reach the rows "
    "after them."
)


@pytest.fixture
def events():
    owner, association = make_organiser(), AssociationFactory()
    return [EventFactory(owner=owner, association=association) for _ in range(45)]


@pytest.mark.parametrize("url", ["/api/play/games/", "/api/events/", "/api/players/", "/api/ratings/"])
@pytest.mark.parametrize("page", ["201", "15000", "99999999999999999999"])
def test_a_page_past_the_first_10000_rows_is_refused_naming_page(url, page):
    response = APIClient().get(url, {"page": page})
    assert response.status_code == 400, response.content
    assert response.json() == {"page": [TOO_DEEP]}


@pytest.mark.parametrize("page", ["0", "abc", "-1", "1.5", "٣"])
def test_a_page_that_is_no_page_number_is_refused_naming_page(events, page):
    """Django's paginator answered these with a 404 ("Invalid page."), which the schema did not document: bad input
    is a 400 naming the parameter."""
    response = APIClient().get("/api/events/", {"page": page})
    assert response.status_code == 400
    assert response.json() == {"page": ["A page is a whole number from 1 to 200."]}


def test_a_page_past_the_last_is_no_such_page(events):
    assert APIClient().get("/api/events/", {"page": 2}).status_code == 404
    assert APIClient().get("/api/events/", {"page": 1}).status_code == 200


def test_the_deepest_page_has_no_next_and_the_count_stays_true(events, monkeypatch):
    monkeypatch.setattr(paging, "MAX_DEPTH", 20)  # pages of 10 (as if of 50 with 10,000 rows): 2 of 5 shown
    monkeypatch.setattr("clubsite.kit.api.PageNumberPagination.page_size", 10)
    api = APIClient()
    second = api.get("/api/events/", {"page": 2}).json()
    assert second["count"] == 45 and len(second["results"]) == 10 and second["next"] is None
    third = api.get("/api/events/", {"page": 3})
    assert third.status_code == 400 and "Pages go no deeper than 2 (the first 20 rows)" in third.json()["page"][0]
    last = api.get("/api/events/", {"page": "last"})
    assert last.status_code == 400 and last.json()["page"][0].startswith("The last page is deeper than 2.")
    monkeypatch.setattr(paging, "MAX_DEPTH", 50)  # the whole list within the bound: last is the last page
    assert len(api.get("/api/events/", {"page": "last"}).json()["results"]) == 5


def test_the_schema_bounds_the_page_number():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    parameters = {p["name"]: p for p in schema["paths"]["/api/play/games/"]["get"]["parameters"]}
    assert parameters["page"]["schema"] == {"type": "integer", "minimum": 1, "maximum": 200}
    assert "10,000 rows" in parameters["page"]["description"]


def test_the_site_shows_its_deepest_page_and_says_the_list_goes_on(client, events, monkeypatch):
    monkeypatch.setattr(paging, "MAX_DEPTH", 40)  # the event list's pages of 20: two of three
    for page in ("3", "15000"):
        html = client.get(reverse("events:list"), {"page": page}).content.decode()
        assert "Page 2 of 2" in html
        assert "The list goes on past page 2, the deepest shown: narrow it with the filters" in html
    first = client.get(reverse("events:list")).content.decode()
    assert "Page 1 of 2" in first and "The list goes on past page 2" in first
    monkeypatch.setattr(paging, "MAX_DEPTH", MAX_DEPTH)
    assert "Page 3 of 3" in client.get(reverse("events:list"), {"page": "3"}).content.decode()


def test_the_bounded_paginator():
    rows = list(range(10_050))
    paginator = BoundedPaginator(rows, 50)
    assert paginator.count == 10_050 and paginator.num_pages == max_page(50) == 200 and paginator.cut
    assert paginator.get_page(15_000).number == 200 and paginator.get_page(200).object_list[-1] == 9_999
    assert not BoundedPaginator(rows[:10_000], 50).cut
    assert BoundedPaginator([], 50).num_pages == 1 and not BoundedPaginator([], 50).cut
