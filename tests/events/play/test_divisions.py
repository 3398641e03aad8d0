import pytest

from clubsite.errors import PermissionDenied
from events.models import Division, DivisionPlayer, EntryStatus, PlayUpRequest
from events.play import services as play
from tests.events.factories import CategoryFactory, EntryFactory, EventFactory
from tests.factories import PlayerFactory, UserFactory
from tests.ratings.factories import PlayerRatingFactory, RatingListFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated_event(director):
    rating_list = RatingListFactory()
    event = EventFactory(rating_list=rating_list, rated=True)
    event.directors.add(director)
    category = CategoryFactory(event=event, name="Open")
    players = []
    for i, r in enumerate([2100, 1950, 1800, 1650, 1500, 1350, 1200, 0]):
        player = PlayerFactory(full_name=f"P{i}", user=UserFactory())
        if r:
            PlayerRatingFactory(rating_list=rating_list, player=player, rating=r, seed_rating=r)
        EntryFactory(category=category, player=player)
        players.append(player)
    EntryFactory(category=category, status=EntryStatus.WAITLISTED)  # not confirmed: not placed
    return event


def test_seed_004_style_divisions_are_the_categories(director):
    event = EventFactory()
    event.directors.add(director)
    a, b = CategoryFactory(event=event, name="A Secondary"), CategoryFactory(event=event, name="B Primary")
    for _ in range(3):
        EntryFactory(category=a)
    EntryFactory(category=b)
    report = play.assign_divisions(director, event)
    assert {k: len(v) for k, v in report.placed.items()} == {"A Secondary": 3, "B Primary": 1}
    assert DivisionPlayer.objects.filter(division__event=event).count() == 4


def test_split_into_k_divisions_by_rating_with_unrated_in_the_last(director, rated_event):
    report = play.assign_divisions(director, rated_event, split_into=2)
    a = [r for _, r, _ in report.placed["A"]]
    b = [r for _, r, _ in report.placed["B"]]
    assert len(a) == len(b) == 4 and min(a) > max(b) and 0 in b
    seats = DivisionPlayer.objects.filter(division__name="A", division__event=rated_event).order_by("number")
    assert [s.rating for s in seats] == sorted(a, reverse=True)  # seeded by rating


def test_bands_play_up_and_director_override_kept(director, rated_event):
    Division.objects.create(event=rated_event, name="Open", position=0, rating_min=1700)
    Division.objects.create(event=rated_event, name="Reserve", position=1, rating_max=1699, takes_unrated=True)
    low = rated_event.entries.get(player__full_name="P6")  # 1200
    PlayUpRequest.objects.create(entry=low)
    play.assign_divisions(director, rated_event)
    assert DivisionPlayer.objects.get(entry=low).division.name == "Open"
    top = rated_event.entries.get(player__full_name="P0")
    play.place_entrant(director, top, Division.objects.get(event=rated_event, name="Reserve"), "medical")
    play.assign_divisions(director, rated_event)
    seat = DivisionPlayer.objects.get(entry=top)
    assert seat.division.name == "Reserve" and seat.assigned_reason == "medical"


def test_override_needs_a_reason_and_a_director(director, rated_event):
    division = Division.objects.create(event=rated_event, name="Open")
    entry = rated_event.entries.first()
    with pytest.raises(play.PlayError, match="reason"):
        play.place_entrant(director, entry, division, " ")
    with pytest.raises(PermissionDenied):
        play.assign_divisions(UserFactory(), rated_event)


def test_ratings_are_taken_as_of_the_snapshot_date(director, rated_event):
    from datetime import timedelta

    from django.utils import timezone

    from events.models import Division
    from ratings.models import PlayerRating, RatingChange
    from tests.ratings.factories import RatedEventFactory

    today = timezone.localdate()
    pr = PlayerRating.objects.filter(rating_list=rated_event.rating_list).order_by("-rating").first()
    # The player went from 2100 to 2150 at an event that began yesterday.
    later = RatedEventFactory(rating_list=rated_event.rating_list, starts_on=today - timedelta(days=1))
    RatingChange.objects.create(
        rating_list=rated_event.rating_list,
        division=Division.objects.create(event=later, name="A"),
        player_id=pr.player_id,
        event_date=later.starts_on,
        pre=2100,
        post=2150,
        career_games=100,
        games=7,
        actual=6,
    )
    pr.rating = 2150
    pr.save()
    assert play.ratings_on(rated_event, [pr.player_id], today)[pr.player_id] == 2150
    assert play.ratings_on(rated_event, [pr.player_id], today - timedelta(days=1))[pr.player_id] == 2100
    report = play.assign_divisions(director, rated_event, split_into=2, as_of=today - timedelta(days=1))
    assert (pr.player.full_name, 2100, "rating 2100") in report.placed["A"]
