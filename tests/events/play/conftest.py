import pytest

from events.models import EventStatus
from events.play.models import Division, DivisionPlayer
from tests.events.factories import EventFactory
from tests.factories import PlayerFactory, UserFactory


@pytest.fixture
def director():
    return UserFactory(email="td@example.org")


@pytest.fixture
def make_division(director):
    def make(n_players: int = 8, *, games: int = 5, users: bool = False, **event_fields):
        event = EventFactory(status=EventStatus.IN_PROGRESS, number_of_games=games, rated=False, **event_fields)
        event.directors.add(director)
        division = Division.objects.create(event=event, name="A")
        for i in range(1, n_players + 1):
            player = PlayerFactory(full_name=f"Player {i:02d}", user=UserFactory() if users else None)
            DivisionPlayer.objects.create(division=division, player=player, number=i, rating=2000 - 10 * i)
        return division

    return make
