"""Every status moves only along its model's TRANSITIONS, through the one helper the services call."""

import pytest

from clubsite.kit.status import TransitionRefused, move
from events.models import Entry, EntryStatus
from events.play import services as play
from events.play.models import GameStatus, Round, RoundStatus

pytestmark = pytest.mark.django_db


def test_a_new_object_takes_its_first_status_freely():
    rnd = Round(status=RoundStatus.DRAFT)
    move(rnd, RoundStatus.COMPLETE)
    assert rnd.status == RoundStatus.COMPLETE


def test_saved_rounds_and_games_move_only_along_their_tables(make_division, director):
    division = make_division(4)
    rnd = play.pair_round(director, division, "koth", seed=1)
    play.publish_round(director, rnd)
    rnd.refresh_from_db()
    with pytest.raises(TransitionRefused, match="A published round cannot become draft"):
        move(rnd, RoundStatus.DRAFT)
    assert rnd.status == RoundStatus.PUBLISHED

    game = rnd.games.filter(player_b__isnull=False).first()
    play.submit_result(director, game, 400, 350)
    game.refresh_from_db()
    assert game.status == GameStatus.CONFIRMED
    with pytest.raises(TransitionRefused, match="A confirmed game cannot become submitted"):
        move(game, GameStatus.SUBMITTED)


def test_an_ended_entry_cannot_come_back():
    entry = Entry(status=EntryStatus.WITHDRAWN)
    entry._state.adding = False
    with pytest.raises(TransitionRefused, match="A withdrawn entry cannot become confirmed"):
        move(entry, EntryStatus.CONFIRMED)
