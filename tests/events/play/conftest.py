from datetime import date, datetime, time
from zoneinfo import ZoneInfo

import pytest

from events.models import EntryStatus, EventStatus
from events.play.models import Division, DivisionPlayer
from tests.events.factories import CategoryFactory, EntryFactory, EventFactory
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


SGT = ZoneInfo("Asia/Singapore")
DAY = date(2015, 9, 6)


@pytest.fixture
def venue():
    """Seed 004 on the day: reporting 9.00–9.15, a category of 4 places, full, two on the waiting list."""
    director = UserFactory()
    event = EventFactory(
        status=EventStatus.REGISTRATION_CLOSED,
        starts_on=DAY,
        ends_on=DAY,
        time_zone="Asia/Singapore",
        reporting_time=time(9, 0),
        reporting_until=time(9, 15),
        registration_opens_at=datetime(2015, 8, 1, tzinfo=SGT),
        registration_closes_at=datetime(2015, 8, 27, 23, 59, tzinfo=SGT),
        rated=False,
    )
    event.directors.add(director)
    category = CategoryFactory(event=event, name="Secondary", quota=4)
    division = Division.objects.create(event=event, category=category, name="Secondary")
    entrants = []
    for i, name in enumerate(["Anna Tan", "Bala Kumar", "Chen Wei", "Dewi Lim"], start=1):
        entry = EntryFactory(
            category=category, player=PlayerFactory(full_name=name), status=EntryStatus.CONFIRMED, division=division
        )
        DivisionPlayer.objects.create(division=division, player=entry.player, entry=entry, number=i)
        entrants.append(entry)
    waiting = [
        EntryFactory(category=category, player=PlayerFactory(full_name=name), status=EntryStatus.WAITLISTED)
        for name in ("Eddie Goh", "Farah Ismail")
    ]
    return event, director, division, entrants, waiting
