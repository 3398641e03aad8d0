"""Club tournaments: an event of a club, open to all or to the club's members only, announced by an organiser or
by the club's own director (who need not be an organiser) and run with the tournament-day tools."""

import pytest

from clubsite.kit.errors import NotAllowed
from events import services
from events.models import EventKind
from tests.events.factories import CategoryFactory, EventFactory, make_organiser
from tests.factories import ClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_a_members_only_club_tournament_refuses_others_naming_the_club():
    club, other = ClubFactory(name="Tel Aviv Scrabble Club"), ClubFactory()
    event = EventFactory(title="Club Cup", club=club, club_members_only=True, kind=EventKind.CLUB)
    category = CategoryFactory(event=event)
    member, outsider, nobodys = PlayerFactory(club=club), PlayerFactory(club=other), PlayerFactory()
    assert services.category_refusal(category, member) is None
    for player in (outsider, nobodys):
        assert services.category_refusal(category, player) == "Club Cup is for members of Tel Aviv Scrabble Club only."
    event.club_members_only = False
    assert services.category_refusal(category, outsider) is None


def test_members_only_needs_the_club():
    organiser, association = make_organiser(), ClubFactory().association
    with pytest.raises(services.EventError) as error:
        services.create_event(
            organiser,
            title="Members' Cup",
            association=association,
            starts_on=EventFactory.build().starts_on,
            club_members_only=True,
        )
    assert error.value.problems == [("club", "Choose the club whose members may enter.")]


def test_someone_who_is_neither_organiser_nor_the_clubs_director_cannot_announce_a_club_event():
    club = ClubFactory()
    with pytest.raises(NotAllowed, match="club's director"):
        services.create_event(UserFactory(), title="Club Cup", starts_on=EventFactory.build().starts_on, club=club)
    with pytest.raises(NotAllowed, match="Only organisers"):
        services.create_event(UserFactory(), title="Cup", starts_on=EventFactory.build().starts_on)


def test_a_club_director_announces_their_own_clubs_tournament_and_no_other():
    from tests.clubs.play_helpers import club_director

    club, other = ClubFactory(), ClubFactory()
    director = club_director(club)
    event = services.create_event(
        director, title="Club Cup", association=club.association, starts_on=EventFactory.build().starts_on, club=club
    )
    assert event.owner == director and event.club == club
    with pytest.raises(NotAllowed, match="club's director"):
        services.update_event(director, event, club=other)
    with pytest.raises(NotAllowed, match="club's director"):
        services.create_event(
            director, title="Not mine", association=club.association, starts_on=event.starts_on, club=other
        )
