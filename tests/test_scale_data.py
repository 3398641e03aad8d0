"""The benchmarks' scale data follows the current models: a tiny history, generated and rated.

Runs on whatever DATABASE_URL points at (COPY on PostgreSQL, plain inserts on SQLite), so a
field added to a model without teaching the generator about it shows here, not in `make bench`.
"""

import pytest
from django.utils import timezone

from bench.bulk import UnfilledColumn, fill_defaults
from bench.generate_scale_data import build
from events.models import Entry, Event
from events.play.models import Division, DivisionPlayer, Game
from players.models import Membership, Player
from ratings.models import PlayerRating, RatedEvent, RatingList

pytestmark = pytest.mark.django_db


def test_a_tiny_history_is_generated_and_rated_on_the_current_models():
    build(players=300, events=3, games=60, seed=7, log=lambda line: None)

    events = list(Event.objects.filter(slug__startswith="scale-7-"))
    assert len(events) == 3
    assert Player.objects.count() == 300
    assert Membership.objects.count() == 300
    assert Division.objects.filter(event__in=events).count() == 3
    seats = DivisionPlayer.objects.filter(division__event__in=events).count()
    assert seats == Entry.objects.filter(event__in=events).count() >= 30
    assert Game.objects.filter(division__event__in=events).count() >= 15
    # Columns the generator does not set take the model's defaults.
    for event in events:
        defaults = Event()
        assert event.one_prize_per_player == defaults.one_prize_per_player
        assert event.entrants_public == defaults.entrants_public
        assert event.payment_methods == []
        assert event.created_at is not None
        event.full_clean(exclude=["directors"])
    rating_list = RatingList.objects.get(slug="scale-ratings")
    assert RatedEvent.objects.filter(rating_list=rating_list).count() == 3
    games = Game.objects.filter(division__event__in=events, kind="normal")
    players = {p for pair in games.values_list("player_a_id", "player_b_id") for p in pair}
    assert PlayerRating.objects.filter(rating_list=rating_list).count() == len(players)


def test_every_column_not_given_takes_the_model_default():
    columns, values = fill_defaults(
        Event, ["id", "slug", "title", "owner_id", "association_id", "starts_on", "ends_on"], now=timezone.now()
    )
    concrete = {f.column for f in Event._meta.concrete_fields}
    assert set(columns) == concrete
    filled = dict(zip(columns[7:], values, strict=True))
    assert filled["one_prize_per_player"] is True
    assert filled["club_id"] is None


def test_a_column_that_may_not_be_null_and_has_no_default_is_named():
    with pytest.raises(UnfilledColumn, match="owner"):
        fill_defaults(Event, ["id", "slug", "title"], now=timezone.now())
