"""Property-based API tests generated from the site's own OpenAPI schema (schemathesis, in-process WSGI).

For anonymous visitors, a player and association staff, against realistic data (an event open for
entries with an entry, an event in progress with a division, a published round and a draft round, a
rating list), every operation answers without a server error and as its schema says. Path
parameters are drawn from the objects that exist half the time, so requests reach the views' logic.

The number of examples per operation is small so the suite stays fast; FUZZ_EXAMPLES=200 runs more.
"""

import os
from datetime import date
from decimal import Decimal

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import content_type_conformance, response_schema_conformance

from events import services
from events.models import EventStatus
from events.play import services as play
from events.play.models import Division, DivisionPlayer
from players.models import Club
from ratings.models import RatingRun
from tests.events.factories import (
    EventFactory,
    fast_passwords,  # noqa: F401
    open_event,
    player_with_account,
)
from tests.factories import AssociationFactory, PlayerFactory, UserFactory, api_token
from tests.ratings.factories import PlayerRatingFactory, RatingListFactory

pytestmark = pytest.mark.django_db

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "6"))
CHECKS = [not_a_server_error, response_schema_conformance, content_type_conformance]


@pytest.fixture(autouse=True)
def _keep_the_test_connection():
    """The calls go straight into the WSGI application, and every request ends with Django closing old
    database connections, which would close the test's own (PostgreSQL then refuses the next query).
    Django's test client disconnects that handler the same way for the duration of a request."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def world():
    """What a site has on a tournament weekend; returns the people and the real values of path parameters."""
    club = Club.objects.create(association=AssociationFactory(), name="Fuzz Club", slug="fuzz-club")
    event, category, (fee, _) = open_event(quota=2, fees=(Decimal("3.00"), Decimal("1.50")))
    me = player_with_account(club=club, listed_in_directory=True)
    mine = services.register_entry(me.user, event, category=category, fee=fee)
    theirs = services.register_entry(player_with_account().user, event, category=category, fee=fee)
    waiting = services.register_entry(player_with_account().user, event, category=category, fee=fee)

    staff = UserFactory(is_staff=True)
    playing = EventFactory(status=EventStatus.IN_PROGRESS, number_of_games=5, rated=False)
    playing.directors.add(staff)
    division = Division.objects.create(event=playing, name="A")
    DivisionPlayer.objects.create(division=division, player=me, number=1, rating=1500)
    for number in range(2, 6):
        DivisionPlayer.objects.create(division=division, player=PlayerFactory(), number=number, rating=1500 - number)
    first = play.pair_round(staff, division, "random", seed=1)
    play.publish_round(staff, first)
    game = first.games.exclude(player_b=None).first()
    play.submit_result(staff, game, 400, 350)
    draft = play.pair_round(staff, division, "random", seed=2)

    rating_list = RatingListFactory()
    PlayerRatingFactory(rating_list=rating_list, player=me)
    run = RatingRun.objects.create(rating_list=rating_list, from_date=date(2020, 1, 1), reason="fuzz")
    values = {
        "entries": [mine.pk, theirs.pk, waiting.pk],
        "games": list(division.games.values_list("pk", flat=True)),
        "rounds": [first.pk, draft.pk],
        "divisions": [division.pk],
        "rating-runs": [run.pk],
        "slug": [event.slug, playing.slug, rating_list.slug, club.slug],
        "member_number": [me.member_number],
    }
    users = {"anonymous": None, "player": me.user, "staff": staff}
    return users, values


def real_path_parameters(operation, values) -> dict:
    """Values of the operation's path parameters taken from the objects that exist."""
    chosen = {}
    for parameter in operation.path_parameters:
        name = parameter.name
        if name == "id":
            kind = next((k for k in values if f"/{k}/" in operation.path), None)
            if kind:
                chosen[name] = values[kind]
        elif name in values:
            chosen[name] = values[name]
    return chosen


def strategy(operation, values, mode):
    real = real_path_parameters(operation, values)
    free = operation.as_strategy(generation_mode=mode)
    if not real:
        return free
    fixed = st.fixed_dictionaries({name: st.sampled_from(options) for name, options in real.items()})
    return st.one_of(free, fixed.flatmap(lambda params: operation.as_strategy(mode, path_parameters=params)))


@pytest.fixture
def api_schema():
    from clubsite.wsgi import application

    return schemathesis.openapi.from_wsgi("/api/schema/?format=json", application)


@pytest.mark.parametrize("who", ["anonymous", "player", "staff"])
@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE], ids=["valid", "invalid"])
def test_the_api_keeps_to_its_schema(api_schema, world, who, mode):
    """Valid requests answer as documented; invalid ones (wrong types, out of range) a 4xx, never a 5xx."""
    users, values = world
    user = users[who]
    headers = {"Authorization": f"Token {api_token(user)}"} if user else {}
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) > 30

    failures = []
    for operation in operations:

        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            database=None,
            derandomize="FUZZ_EXAMPLES" not in os.environ,
            suppress_health_check=list(HealthCheck),
        )
        @given(case=strategy(operation, values, mode))
        def call(case):
            response = case.call(headers=headers)
            checks = CHECKS if mode == GenerationMode.POSITIVE else [not_a_server_error, content_type_conformance]
            case.validate_response(response, checks=checks, headers=headers)

        try:
            call()
        except Unsatisfiable:  # nothing in the request can be made invalid (e.g. a lone slug in the path)
            assert mode == GenerationMode.NEGATIVE, operation.label
        except (Exception, BaseExceptionGroup) as failure:  # every operation runs; all failures are reported together
            failures.append(f"{operation.label} as {who}: {str(failure)[:2000]}")
    assert not failures, "\n\n".join(failures)
