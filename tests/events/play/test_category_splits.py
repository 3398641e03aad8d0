"""Seed 004's primary and secondary categories, each with its own prizes (issue 23, defect 18): "Split into K"
keeps the categories apart and each division plays for the prizes of the category its players entered; a player
a director seats elsewhere never wins a prize of a category they did not enter."""

import pytest
from django.urls import reverse
from django.utils import timezone

from events.models import EventStatus
from events.play import services as play
from events.play.models import Division, DivisionPlayer, GameKind
from tests.events.factories import CategoryFactory, EntryFactory, EventFactory, PrizeFactory
from tests.factories import PlayerFactory
from tests.ratings.factories import PlayerRatingFactory, RatingListFactory

pytestmark = pytest.mark.django_db

# Strong and weak players in both categories: a split by rating across the field would mix them.
SECONDARY = [("Sec 1", 1900), ("Sec 2", 1377), ("Sec 3", 1100), ("Sec 4", 700)]
PRIMARY = [("Pri 1", 1800), ("Pri 2", 1300), ("Pri 3", 810), ("Pri 4", 0)]


@pytest.fixture
def seed_004(director):
    rating_list = RatingListFactory()
    event = EventFactory(
        rating_list=rating_list,
        rated=False,
        number_of_games=3,
        status=EventStatus.IN_PROGRESS,
        starts_on=timezone.localdate(),
    )
    event.directors.add(director)
    secondary = CategoryFactory(event=event, name="Category A – Secondary", school_level="secondary", position=1)
    primary = CategoryFactory(event=event, name="Category B – Primary", school_level="primary", position=2)
    PrizeFactory(category=secondary, rank_from=1, rank_to=1, description="Secondary voucher S$100")
    PrizeFactory(category=primary, rank_from=1, rank_to=1, description="Primary voucher S$80")
    for category, people in ((secondary, SECONDARY), (primary, PRIMARY)):
        for name, rating in people:
            player = PlayerFactory(full_name=name)
            if rating:
                PlayerRatingFactory(rating_list=rating_list, player=player, rating=rating, seed_rating=rating)
            EntryFactory(category=category, player=player)
    return event


def split(client, event, k):
    return client.post(
        reverse("events:play_assign", args=[event.slug]), {"assign-mode": "split", "assign-split_into": k}, follow=True
    ).content.decode()


def seated(event) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for seat in DivisionPlayer.objects.filter(division__event=event).select_related("division", "entry__category"):
        found.setdefault(seat.division.name, set()).add(seat.entry.category.name)
    return found


def test_split_into_two_keeps_each_category_in_its_own_division_with_its_prizes(client, director, seed_004):
    client.force_login(director)
    page = split(client, seed_004, 2)
    assert "A plays for Category A – Secondary&#x27;s prizes" in page
    assert "B plays for Category B – Primary&#x27;s prizes" in page
    assert seated(seed_004) == {"A": {"Category A – Secondary"}, "B": {"Category B – Primary"}}
    b = Division.objects.get(event=seed_004, name="B")
    prizes = client.get(reverse("events:play_prizes", args=[seed_004.slug, b.pk])).content.decode()
    assert "Primary voucher" in prizes and "Secondary voucher" not in prizes


def test_split_into_three_splits_within_the_categories(client, director, seed_004):
    client.force_login(director)
    split(client, seed_004, 3)
    groups = seated(seed_004)
    assert len(groups) == 3 and all(len(categories) == 1 for categories in groups.values())
    for division in Division.objects.filter(event=seed_004):
        assert {s.entry.category_id for s in division.seats.select_related("entry")} == {division.category_id}
    # Within a category the split is by rating, strongest first.
    a, b = (Division.objects.get(event=seed_004, name=n) for n in "AB")
    assert min(a.seats.values_list("rating", flat=True)) > max(b.seats.values_list("rating", flat=True))


def test_fewer_divisions_than_categories_is_refused_and_says_why(client, director, seed_004):
    client.force_login(director)
    play.assign_divisions(director, seed_004)  # one division per category
    before = seated(seed_004)
    page = split(client, seed_004, 1)
    assert "The entrants are in 2 categories (Category A – Secondary, Category B – Primary)" in page
    assert "split into at least 2 divisions" in page
    assert seated(seed_004) == before  # nothing half-made


def test_a_pupil_placed_by_hand_in_the_other_categorys_division_wins_none_of_its_prizes(client, director, seed_004):
    client.force_login(director)
    split(client, seed_004, 2)
    secondary = Division.objects.get(event=seed_004, name="A")
    pupil = seed_004.entries.get(player__full_name="Pri 1")
    client.post(
        reverse("events:play_place", args=[seed_004.slug]),
        {"place-entry": pupil.pk, "place-division": secondary.pk, "place-reason": "plays with her brother's school"},
    )
    assert DivisionPlayer.objects.get(entry=pupil).division == secondary
    # She wins every game; the secondary voucher still goes to the best secondary student.
    rnd = play.pair_round(director, secondary, "koth", seed=1)
    play.publish_round(director, rnd)
    for game in rnd.games.filter(kind=GameKind.NORMAL):
        a_is_pupil = game.player_a_id == pupil.player_id
        b_is_pupil = game.player_b_id == pupil.player_id
        play.submit_result(director, game, *((500, 300) if a_is_pupil else (300, 500) if b_is_pupil else (400, 350)))
    table = play.read_division(secondary).standings()
    assert table[0].seat.player_id == pupil.player_id
    page = client.get(reverse("events:play_prizes", args=[seed_004.slug, secondary.pk])).content.decode()
    first_row = page[page.index("1st place") : page.index("</tr>", page.index("1st place"))]
    assert "Pri 1" not in first_row and "Sec " in first_row
    assert "Playing here without a prize of Category A – Secondary" in page
    api = client.get(f"/api/play/divisions/{secondary.pk}/prizes/").json()
    first = next(a for a in api["awards"] if a["prize"] == "1st place")
    names = [w["name"] for w in first["winners"]]
    assert names and all(n.startswith("Sec ") for n in names) and table[1].seat.player.name in names
    assert [s["name"] for s in api["outside"]] == ["Pri 1"]


def test_the_divisions_page_says_the_split_is_by_rating_within_each_category(client, director, seed_004):
    """Two divisions of 8 and 3 are not "of equal size": the choice says what it does (issue 23, defect N12)."""
    client.force_login(director)
    html = client.get(reverse("events:play_divisions", args=[seed_004.slug])).content.decode()
    assert "Split into K divisions in all, by rating within each category (at least one each)" in html
    assert "equal size" not in html
