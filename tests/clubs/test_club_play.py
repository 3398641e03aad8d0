"""Play at club nights through its services: one-on-one games submitted and confirmed as at tournaments, tables by
seed 001's rule, the ladder and the club rating list worked out from them."""

from datetime import timedelta

import pytest

from clubs.models import ClubGame, ClubGameStatus, ClubRating, NightStatus
from clubs.services import play, standings
from clubsite.kit.errors import NotAllowed, ServiceError
from tests.clubs.play_helpers import club_director, club_night, member
from tests.factories import ClubFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def night():
    club = ClubFactory(name="Tel Aviv Scrabble Club")
    ann, bob, cy = member(club, "Ann Lee"), member(club, "Bob Tan"), member(club, "Cy Ng", account=False)
    night = club_night(club, players=[ann, bob, cy])
    night.ann, night.bob, night.cy = ann, bob, cy
    night.director = club_director(club)
    return night


def test_a_player_submits_their_game_and_the_opponent_confirms_it(night):
    game = play.submit_game(night.ann.user, night, night.ann, night.bob, 400, 350)
    assert game.status == ClubGameStatus.SUBMITTED
    assert play.who_confirms(game, night.ann.user) == "Bob Tan confirms it"
    with pytest.raises(ServiceError, match="You submitted this game"):
        play.confirm_game(night.ann.user, game)
    assert not ClubRating.objects.exists(), "an unconfirmed game is not rated"
    play.confirm_game(night.bob.user, game)
    game.refresh_from_db()
    assert game.status == ClubGameStatus.CONFIRMED and game.confirmed_by == night.bob.user
    ratings = dict(ClubRating.objects.values_list("player__full_name", "rating"))
    assert ratings["Ann Lee"] > ratings["Bob Tan"]


def test_the_opponent_without_an_account_leaves_it_to_the_club_director(night):
    game = play.submit_game(night.ann.user, night, night.ann, night.cy, 300, 320)
    assert play.who_confirms(game, night.ann.user) == "the club director confirms it (Cy Ng has no account here)"
    play.confirm_game(night.director, game)
    game.refresh_from_db()
    assert game.status == ClubGameStatus.CONFIRMED


def test_a_disputed_game_is_settled_by_the_club_director(night):
    game = play.submit_game(night.ann.user, night, night.ann, night.bob, 400, 350)
    play.dispute_game(night.bob.user, game, "It was 340")
    with pytest.raises(ServiceError, match="disputed"):
        play.confirm_game(night.bob.user, game)
    play.remove_game(night.director, game)
    assert not night.games.exists()


def test_the_club_directors_entry_is_confirmed_at_once(night):
    game = play.submit_game(night.director, night, night.ann, night.bob, 380, 380, ahead_before_tiles="b")
    assert game.status == ClubGameStatus.CONFIRMED
    assert game.tie_winner_side == "b"


def test_who_may_enter_a_game(night):
    outsider = member(ClubFactory(), "Di Wu")
    for someone in (night.ann.user, UserFactory()):  # a member at the night, an account with no player
        with pytest.raises(ServiceError, match="You can only submit a game you played") as error:
            play.submit_game(someone, night, night.bob, night.cy, 400, 350)
        assert error.value.field == "player_a"
    assert not ClubGame.objects.filter(night=night).exists()
    with pytest.raises(ServiceError, match="Di Wu is not down as at this night") as error:
        play.submit_game(night.director, night, night.ann, outsider, 400, 350)
    assert error.value.field == "player_b"


@pytest.mark.parametrize(
    ("scores", "extra", "field"),
    [
        ((400, 400), {}, "ahead_before_tiles"),  # the club breaks ties: say who led
        ((-1, 300), {}, "score_a"),
        ((300, 10**9), {}, "score_b"),
        ((0, 0), {}, "confirm_unusual"),
        ((300, 200), {"first": "x"}, "first"),
    ],
)
def test_a_game_that_cannot_be_right_is_refused_naming_the_field(night, scores, extra, field):
    with pytest.raises(ServiceError) as error:
        play.submit_game(night.director, night, night.ann, night.bob, *scores, **extra)
    assert error.value.field == field
    assert not night.games.exists()


def test_no_games_at_a_night_that_was_off_or_has_not_happened(night):
    night.status = NightStatus.CANCELLED
    night.save()
    with pytest.raises(ServiceError, match="was off"):
        play.submit_game(night.director, night, night.ann, night.bob, 300, 200)
    later = club_night(night.club, days_ago=-7, players=[night.ann, night.bob])
    with pytest.raises(ServiceError, match="has not happened yet"):
        play.submit_game(night.director, later, night.ann, night.bob, 300, 200)


def _row(player, drawn, before, tiles):
    return play.TableRow(player, drawn, before, tiles)


def test_a_three_player_table_with_a_tie_on_final_score_goes_to_the_score_before_tiles(night):
    table = play.enter_table(
        night.director,
        night,
        [
            _row(night.ann, "E", 300, 0),
            _row(night.bob, "?", 318, 8),
            _row(night.cy, "B", 280, 2),
            _row(None, "", None, 0),
        ],
        went_out=night.ann,
    )
    seats = [(s.player.full_name, s.seat, s.final, s.place_label) for s in table.seats.order_by("place")]
    assert seats == [("Bob Tan", 1, 310, "1"), ("Ann Lee", 3, 310, "2"), ("Cy Ng", 2, 278, "3")]


@pytest.mark.parametrize(
    ("rows", "went_out", "field"),
    [
        (lambda n: [_row(n.ann, "E", 300, 0)], None, "player_1"),
        (lambda n: [_row(n.ann, "E", 300, 0), _row(n.bob, "E", 300, 0)], None, "drawn_2"),
        (lambda n: [_row(n.ann, "E", 300, 0), _row(n.bob, "", 300, 0)], None, "drawn_2"),
        (lambda n: [_row(n.ann, "", 300, 4), _row(n.bob, "", 300, 0)], "ann", "tiles_left_1"),
        (lambda n: [_row(n.ann, "", None, 4), _row(n.bob, "", 300, 0)], None, "score_before_1"),
        (lambda n: [_row(n.ann, "", 300, 0), _row(n.ann, "", 300, 0)], None, "player_2"),
    ],
)
def test_a_table_that_cannot_be_right_is_refused_naming_the_row(night, rows, went_out, field):
    with pytest.raises(ServiceError) as error:
        play.enter_table(night.director, night, rows(night), went_out=getattr(night, went_out) if went_out else None)
    assert error.value.field == field
    assert not night.tables.exists()


def test_only_the_club_director_enters_tables(night):
    with pytest.raises(NotAllowed):
        play.enter_table(night.ann.user, night, [_row(night.ann, "", 300, 0), _row(night.bob, "", 200, 0)])


def test_the_ladder_counts_the_seasons_nights_by_the_clubs_points(night):
    play.save_rules(night.director, night.club, win_points=3, first_points=5, attendance_points=1)
    play.submit_game(night.director, night, night.ann, night.bob, 400, 300)
    play.enter_table(
        night.director, night, [_row(night.ann, "", 300, 0), _row(night.bob, "", 310, 0), _row(night.cy, "", 200, 0)]
    )
    old = club_night(night.club, days_ago=400, players=[night.cy, night.bob])
    play.submit_game(night.director, old, night.cy, night.bob, 500, 300)  # last season: not on this ladder
    board = standings.club_ladder(night.club)
    got = {line.player.full_name: (line.row.points, line.row.rank_label) for line in board.lines}
    # Ann: win 3 + second 2 + night 1; Bob: loss 0 + first 5 + night 1; Cy: third 1 + night 1.
    assert got == {"Ann Lee": (6, "=1"), "Bob Tan": (6, "=1"), "Cy Ng": (2, "3")}
    assert next(line for line in board.lines if line.player == night.cy).rating is not None, "rated on last season"


def test_play_rules_are_bounded_and_only_the_director_sets_them(night):
    with pytest.raises(ServiceError) as error:
        play.save_rules(night.director, night.club, win_points=10**6)
    assert error.value.field == "win_points"
    with pytest.raises(NotAllowed):
        play.save_rules(night.ann.user, night.club, win_points=1)


def test_a_club_that_does_not_rate_keeps_no_rating_list(night):
    play.submit_game(night.director, night, night.ann, night.bob, 400, 300)
    assert ClubRating.objects.count() == 2
    play.save_rules(night.director, night.club, rated=False)
    assert not ClubRating.objects.exists()


def test_the_member_sees_their_ladder_line_and_club_rating(night):
    play.submit_game(night.director, night, night.ann, night.bob, 400, 300)
    standing = standings.player_standing(night.ann)
    assert standing["line"].row.rank_label == "1" and standing["rating"].games == 1
    assert standings.player_standing(member(None, "No Club")) == {}
    assert night.on - timedelta(days=1) < standing["ladder"].until + timedelta(days=1)
