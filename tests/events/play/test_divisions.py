import pytest

from clubsite.kit.errors import NotAllowed
from events.models import EntryStatus, PlayUpRequest
from events.play import services as play
from events.play.models import Division, DivisionPlayer
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
    with pytest.raises(NotAllowed):
        play.assign_divisions(UserFactory(), rated_event)


def test_an_unrated_event_places_by_the_ratings_its_entrants_list_shows(director, rated_event):
    """With no list of its own (a schools' event), divisions go by the association's first list: the ratings the
    entrants list and the rating bands at registration use, not everyone as unrated."""
    from events.services import player_ratings

    rated_event.rating_list, rated_event.rated = None, False
    rated_event.save()
    shown = player_ratings(rated_event, rated_event.entries.values_list("player_id", flat=True))
    assert sorted(shown.values(), reverse=True) == [2100, 1950, 1800, 1650, 1500, 1350, 1200]

    report = play.assign_divisions(director, rated_event, split_into=2)
    placed = {name: rating for rows in report.placed.values() for name, rating, _ in rows}
    confirmed = rated_event.entries.filter(status=EntryStatus.CONFIRMED).select_related("player")
    assert placed == {e.player.full_name: shown.get(e.player_id, 0) for e in confirmed}
    assert min(r for _, r, _ in report.placed["A"]) > max(r for _, r, _ in report.placed["B"])


def test_the_divisions_page_names_the_list_its_ratings_come_from(client, director, rated_event):
    from django.urls import reverse

    from ratings.models import RatingList

    client.force_login(director)
    url = reverse("events:play_divisions", args=[rated_event.slug])
    page = client.get(url).content.decode()
    assert f"Ratings from the <strong>{rated_event.rating_list.name}</strong> list," in page
    # Without a list of its own the event uses the association's first, and says so.
    first = RatingList.objects.order_by("position", "name").first()
    rated_event.rating_list = None
    rated_event.save()
    page = client.get(url).content.decode()
    assert f"Ratings from the <strong>{first.name}</strong> list (the association's first list" in page
    RatingList.objects.all().delete()
    assert "There is no rating list yet: everyone is placed as unrated." in client.get(url).content.decode()


def test_ratings_are_taken_as_of_the_snapshot_date(director, rated_event):
    from datetime import timedelta

    from django.utils import timezone

    from events.play.models import Division
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


def test_placing_by_hand_renumbers_both_divisions_and_keeps_the_rating(client, director, rated_event):
    """Three players moved from B to A: both divisions numbered 1..n again, each placed player with
    their rating (not "unrated"), and B's .t file consistent once paired."""
    from django.urls import reverse
    from django.utils import timezone

    from events.models import Event
    from events.play.core import tsh

    def url(name, *args):
        return reverse(f"events:{name}", args=[rated_event.slug, *args])

    client.force_login(director)
    client.post(url("play_assign"), {"assign-mode": "split", "assign-split_into": 2})
    a, b = (Division.objects.get(event=rated_event, name=n) for n in "AB")
    moved = list(DivisionPlayer.objects.filter(division=b).order_by("number")[:3])
    for seat in moved:
        response = client.post(
            url("play_place"), {"place-entry": seat.entry_id, "place-division": a.pk, "place-reason": "asked"}
        )
        assert response.status_code == 302
    for division, size in ((a, 7), (b, 1)):
        seats = list(DivisionPlayer.objects.filter(division=division).select_related("player").order_by("number"))
        assert [s.number for s in seats] == list(range(1, size + 1))
        assert [s.rating for s in seats] == sorted((s.rating for s in seats), reverse=True)
    placed = DivisionPlayer.objects.get(entry_id=moved[0].entry_id)
    assert placed.rating == moved[0].rating == 1500 and placed.placed_by_director
    html = client.get(url("play_divisions")).content.decode()
    assert "1500" in html

    # Back to B, then B is paired: its .t file names opponents 1..n.
    for seat in moved[:2]:
        client.post(url("play_place"), {"place-entry": seat.entry_id, "place-division": b.pk, "place-reason": "back"})
    assert list(DivisionPlayer.objects.filter(division=b).values_list("number", flat=True)) == [1, 2, 3]
    Event.objects.filter(pk=rated_event.pk).update(starts_on=timezone.localdate(), ends_on=timezone.localdate())
    rnd = play.pair_round(director, b, "random", seed=3)
    parsed = tsh.parse_t(client.get(url("play_download_t", b.pk)).content.decode())
    assert len(parsed.players) == 3 and rnd.games.count() == 2


def test_tsh_export_writes_opponents_by_line_even_with_gaps_in_seat_numbers(client, director, make_division):
    from django.urls import reverse

    from events.play.core import tsh

    division = make_division(4)
    for seat in DivisionPlayer.objects.filter(division=division).order_by("-number"):
        seat.number += 4  # seats 5..8, as a division could be left
        seat.save()
    rnd = play.pair_round(director, division, "random", seed=9)
    play.publish_round(director, rnd)
    for game in rnd.games.all():
        play.submit_result(director, game, 400, 350)
    client.force_login(director)
    text = client.get(reverse("events:play_download_t", args=[division.event.slug, division.pk])).content.decode()
    parsed = tsh.parse_t(text)
    assert len(parsed.players) == 4
    assert all(parsed.players[p.opponents[0] - 1].opponents[0] == p.number for p in parsed.players)


def test_the_rating_day_is_the_closing_day_once_it_has_come_and_today_before(rated_event):
    from datetime import timedelta

    from django.utils import timezone

    today = timezone.localdate()
    rated_event.registration_closes_at = timezone.now() + timedelta(days=20)
    assert play.rating_day(rated_event) == today
    rated_event.registration_closes_at = timezone.now() - timedelta(days=3)
    assert (
        play.rating_day(rated_event) == timezone.localtime(rated_event.registration_closes_at, rated_event.zone).date()
    )
    rated_event.registration_closes_at = None
    assert play.rating_day(rated_event) == today
