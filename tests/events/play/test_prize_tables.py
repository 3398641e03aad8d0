"""A division knows which category's prizes it plays for, however it was formed."""

import pytest
from django.urls import reverse

from events.play import services as play
from events.play.core.divisions import Band, match_prize_tables
from events.play.models import Division
from tests.events.factories import CategoryFactory, EntryFactory, EventFactory, PrizeFactory
from tests.factories import PlayerFactory, UserFactory
from tests.ratings.factories import PlayerRatingFactory, RatingListFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_categories(director):
    """Categories as an organiser announces them, each with its own prizes, and eight rated entrants."""
    rating_list = RatingListFactory()
    event = EventFactory(rating_list=rating_list, rated=True)
    event.directors.add(director)
    high = CategoryFactory(event=event, name="Division A (1500 and up)", min_rating=1500, position=0)
    low = CategoryFactory(event=event, name="Division B (under 1500)", max_rating=1499, position=1)
    PrizeFactory(category=high, rank_from=1, rank_to=1, description="Gold trophy A")
    PrizeFactory(category=low, rank_from=1, rank_to=1, description="Silver trophy B")
    for i, r in enumerate([2000, 1850, 1700, 1550, 1450, 1300, 1150, 1000]):
        player = PlayerFactory(full_name=f"Entrant {i}")
        PlayerRatingFactory(rating_list=rating_list, player=player, rating=r, seed_rating=r)
        EntryFactory(category=high if r >= 1500 else low, player=player)
    return event


def prizes_page(client, division) -> str:
    response = client.get(reverse("events:play_prizes", args=[division.event.slug, division.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_split_into_two_divisions_play_for_the_categories_prizes(client, director, two_categories):
    client.force_login(director)
    response = client.post(
        reverse("events:play_assign", args=[two_categories.slug]),
        {"assign-mode": "split", "assign-split_into": 2},
        follow=True,
    )
    assert "A plays for Division A (1500 and up)&#x27;s prizes" in response.content.decode()
    a = Division.objects.get(event=two_categories, name="A")
    b = Division.objects.get(event=two_categories, name="B")
    page_a, page_b = prizes_page(client, a), prizes_page(client, b)
    assert "Gold trophy A" in page_a and "Silver trophy B" not in page_a
    assert "Silver trophy B" in page_b and "Gold trophy A" not in page_b
    assert "No prizes are set" not in page_a + page_b
    divisions_page = client.get(reverse("events:play_divisions", args=[two_categories.slug])).content.decode()
    assert "Prizes of: <strong>Division A (1500 and up)</strong>" in divisions_page


def test_the_director_changes_the_link_on_the_divisions_page(client, director, two_categories):
    play.assign_divisions(director, two_categories, split_into=2)
    a = Division.objects.get(event=two_categories, name="A")
    low = two_categories.categories.get(name="Division B (under 1500)")
    client.force_login(director)
    url = reverse("events:play_link_prizes", args=[two_categories.slug, a.pk])
    client.post(url, {"category": low.pk})
    assert "Silver trophy B" in prizes_page(client, a)
    client.post(url, {"category": ""})
    assert "No prizes are set for this division" in prizes_page(client, a)
    other = CategoryFactory()  # another event's category is refused
    response = client.post(url, {"category": other.pk}, follow=True)
    assert "Choose one of this event" in response.content.decode()
    stranger = UserFactory()
    client.force_login(stranger)
    assert client.post(url, {"category": low.pk}).status_code == 403


def test_divisions_from_categories_carry_their_rating_limits(client, director, two_categories):
    report = play.assign_divisions(director, two_categories)
    a = Division.objects.get(event=two_categories, name="Division A (1500 and up)")
    b = Division.objects.get(event=two_categories, name="Division B (under 1500)")
    assert (a.rating_min, a.rating_max, b.rating_min, b.rating_max) == (1500, None, None, 1499)
    assert {k: len(v) for k, v in report.placed.items()} == {a.name: 4, b.name: 4}
    assert all(reason == "category entered" for _, _, reason in report.placed[a.name])
    client.force_login(director)
    page = client.get(reverse("events:play_divisions", args=[two_categories.slug])).content.decode()
    assert "1500–…" in page and "0–1499" in page and "any rating" not in page
    assert "Gold trophy A" in prizes_page(client, a)
    # Assigning again keeps placing by the category entered.
    report = play.assign_divisions(director, two_categories)
    assert {k: len(v) for k, v in report.placed.items()} == {a.name: 4, b.name: 4}


def test_a_division_made_by_hand_is_linked_by_its_band(director, two_categories):
    division = play.save_division(director, two_categories, "Reserve", rating_max=1399)
    assert division.category.name == "Division B (under 1500)"
    division = play.save_division(director, two_categories, "Reserve", rating_max=1399, category=None)
    assert division.category is None
    division = play.save_division(director, two_categories, "Reserve", rating_min=1600)
    assert division.category is None  # an existing division keeps its link


def test_matching_prize_tables_by_overlap_or_order():
    cats = [Band("A cat", 1500, None), Band("B cat", None, 1499)]
    split = [Band("A", 1620, None), Band("B", None, 1619)]
    assert match_prize_tables(split, cats) == {"A": "A cat", "B": "B cat"}
    three = [Band("A", 1800, None), Band("B", 1300, 1799), Band("C", None, 1299)]
    assert match_prize_tables(three, cats) == {"A": "A cat", "B": "A cat", "C": "B cat"}
    open_cats = [Band("Secondary"), Band("Primary")]
    assert match_prize_tables(split, open_cats) == {"A": "Secondary", "B": "Primary"}
    assert match_prize_tables(three, open_cats) == {"A": None, "B": None, "C": None}
    assert match_prize_tables(three, [Band("Open")]) == {"A": "Open", "B": "Open", "C": "Open"}
    assert match_prize_tables(split, []) == {"A": None, "B": None}
    assert match_prize_tables([Band("Open")], cats) == {"Open": None}


def test_a_class_prize_reads_as_best_in_its_band_on_the_event_page(client):
    from events.models import EventStatus, PrizeKind

    event = EventFactory(status=EventStatus.PUBLISHED)
    category = CategoryFactory(event=event, name="Open")
    PrizeFactory(category=category, kind=PrizeKind.PLACE, rank_from=1, rank_to=1, description="Trophy")
    PrizeFactory(
        category=category,
        kind=PrizeKind.CLASS,
        rank_from=1,
        rank_to=1,
        description="Book voucher",
        class_min_rating=1500,
        class_max_rating=1699,
    )
    PrizeFactory(
        category=category, kind=PrizeKind.CLASS, rank_from=2, rank_to=2, description="Pen", class_max_rating=1499
    )
    html = client.get(event.get_absolute_url()).content.decode()
    assert '<th scope="row" class="text-nowrap">Best in 1500–1699</th><td>Book voucher' in html
    assert '<th scope="row" class="text-nowrap">2nd best rated up to 1499</th><td>Pen' in html
    assert '<th scope="row" class="text-nowrap">1st</th><td>Trophy' in html
    assert html.count(">1st<") == 1


def test_class_titles():
    from events.play.core.prizes import class_title

    assert class_title(1500, 1699) == "Best in 1500–1699"
    assert class_title(1500, None) == "Best rated 1500 and up"
    assert class_title(None, 1499, place=3) == "3rd best rated up to 1499"
    assert class_title(label="B") == "Best in class B"
    assert class_title() == ""
