"""Rating lists, past rated events and their games, for rating tests."""

from datetime import date, timedelta

import factory
from django.utils import timezone

from events.models import Event, EventStatus
from events.play.models import Division, DivisionPlayer, Game, GameKind, GameStatus, Round, RoundStatus
from players.models import Player
from ratings.models import PlayerRating, RatingList
from tests.factories import AssociationFactory, UserFactory


class RatingListFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = RatingList

    association = factory.SubFactory(AssociationFactory)
    name = factory.Sequence(lambda n: f"Ratings {n}")
    slug = factory.Sequence(lambda n: f"ratings-{n}")
    lexicon = "CSW24"


class RatedEventFactory(factory.django.DjangoModelFactory):
    """A completed rated event on a list, played some weeks ago."""

    class Meta:
        model = Event

    slug = factory.Sequence(lambda n: f"rated-event-{n}")
    title = factory.Sequence(lambda n: f"Open {n}")
    owner = factory.SubFactory(UserFactory)
    association = factory.SubFactory(AssociationFactory)
    status = EventStatus.COMPLETED
    starts_on = factory.LazyFunction(lambda: timezone.localdate() - timedelta(days=30))
    ends_on = factory.LazyAttribute(lambda o: o.starts_on)
    rated = True
    rating_list = factory.SubFactory(RatingListFactory)


class PlayerRatingFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = PlayerRating

    rating_list = factory.SubFactory(RatingListFactory)
    player = factory.SubFactory("tests.factories.PlayerFactory")
    rating = 1500
    games = 100
    peak = factory.LazyAttribute(lambda o: o.rating)
    seed_rating = factory.LazyAttribute(lambda o: o.rating)
    seed_games = factory.LazyAttribute(lambda o: o.games)


def seed(rating_list: RatingList, player: Player, rating: int, games: int = 100) -> PlayerRating:
    return PlayerRatingFactory(rating_list=rating_list, player=player, rating=rating, games=games)


def play(
    event: Event,
    games: list[tuple],
    name: str = "A",
    status: str = GameStatus.CONFIRMED,
    seats: list[Player] | None = None,
) -> Division:
    """A division of `event` with these games: (round, player_a, player_b, score_a, score_b),
    or (round, player, None, spread) for a bye. All confirmed unless told otherwise. Players are
    numbered in `seats` order, else in order of appearance."""
    division = Division.objects.create(event=event, name=name, position=event.divisions.count())
    players: list[Player] = list(seats or [])
    for g in games:
        for p in (g[1], g[2]):
            if p is not None and p not in players:
                players.append(p)
    DivisionPlayer.objects.bulk_create(
        DivisionPlayer(division=division, player=p, number=i) for i, p in enumerate(players, start=1)
    )
    rounds = {
        n: Round.objects.create(division=division, number=n, status=RoundStatus.COMPLETE)
        for n in sorted({g[0] for g in games})
    }
    for g in games:
        if g[2] is None:
            Game.objects.create(
                division=division,
                round=rounds[g[0]],
                round_number=g[0],
                kind=GameKind.BYE,
                status=status,
                player_a=g[1],
                spread_a=g[3],
            )
        else:
            Game.objects.create(
                division=division,
                round=rounds[g[0]],
                round_number=g[0],
                kind=GameKind.NORMAL,
                status=status,
                player_a=g[1],
                player_b=g[2],
                score_a=g[3],
                score_b=g[4],
            )
    return division


def round_robin(players: list[Player], upsets: set[tuple[int, int]] = frozenset()) -> list[tuple]:
    """Every pair once (circle method, an even number of players); the player listed first wins
    unless the pair of indices is in `upsets`."""
    n = len(players)
    order = list(range(n))
    games = []
    for rnd in range(1, n):
        for k in range(n // 2):
            i, j = sorted((order[k], order[n - 1 - k]))
            a_wins = (i, j) not in upsets
            games.append((rnd, players[i], players[j], 420 if a_wins else 350, 350 if a_wins else 420))
        order = [order[0], order[-1], *order[1:-1]]
    return games


def days_ago(n: int) -> date:
    return timezone.localdate() - timedelta(days=n)
