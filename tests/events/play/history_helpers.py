"""Played games for the player-history tests: an event, a division, published rounds, confirmed games."""

from datetime import date

from events.models import Event, EventStatus
from events.play.models import Division, Game, GameKind, GameStatus, Round, RoundStatus
from tests.factories import AssociationFactory, UserFactory


def played_event(
    player, games: list[tuple], *, starts_on: date = date(2024, 5, 4), lexicon: str = "CSW", title: str = ""
) -> Event:
    """An event where `player` played `games`: (opponent, player's score, opponent's score[, extra fields]),
    one round each, the player as A in odd rounds and as B in even ones."""
    owner = UserFactory()
    n = Event.objects.count() + 1
    event = Event.objects.create(
        slug=f"history-{n}",
        title=title or f"History Open {n}",
        owner=owner,
        association=AssociationFactory(),
        status=EventStatus.COMPLETED,
        starts_on=starts_on,
        ends_on=starts_on,
        lexicon=lexicon,
        number_of_games=len(games),
    )
    division = Division.objects.create(event=event, name="A")
    rounds = Round.objects.bulk_create(
        Round(division=division, number=i, status=RoundStatus.COMPLETE) for i in range(1, len(games) + 1)
    )
    rows = []
    for rnd, (opponent, mine, theirs, *extra) in zip(rounds, games, strict=True):
        as_a = rnd.number % 2 == 1
        rows.append(
            Game(
                division=division,
                round=rnd,
                round_number=rnd.number,
                board=1,
                kind=GameKind.NORMAL,
                status=GameStatus.CONFIRMED,
                player_a=player if as_a else opponent,
                player_b=opponent if as_a else player,
                score_a=mine if as_a else theirs,
                score_b=theirs if as_a else mine,
                **(extra[0] if extra else {}),
            )
        )
    Game.objects.bulk_create(rows)
    return event
