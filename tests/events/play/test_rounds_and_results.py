import pytest

from clubsite.kit.errors import NotAllowed
from events.play import services as play
from events.play.models import Game, GameChange, GameKind, GameStatus, RoundStatus
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _play_round(director, rnd, winner_first=True):
    for game in rnd.games.filter(kind=GameKind.NORMAL):
        play.submit_result(director, game, 400 if winner_first else 350, 350 if winner_first else 400)


def test_random_then_king_of_the_hill(director, make_division):
    division = make_division(8)
    r1 = play.pair_round(director, division, "random", seed=7)
    assert r1.status == RoundStatus.DRAFT and r1.pairing_seed == 7
    assert r1.games.count() == 4
    play.publish_round(director, r1)
    _play_round(director, r1)
    r1.refresh_from_db()
    assert r1.status == RoundStatus.COMPLETE
    r2 = play.pair_round(director, division, "koth")
    table = play.standings(division)
    boards = list(r2.games.order_by("board"))
    # King of the Hill: 1st plays 2nd on board 1 (no rematch of round 1 if avoidable).
    assert {boards[0].player_a_id, boards[0].player_b_id} & {table[0].player, table[1].player}
    met = {frozenset((g.player_a_id, g.player_b_id)) for g in r1.games.all()}
    assert not any(frozenset((g.player_a_id, g.player_b_id)) in met for g in boards)


def test_random_pairing_is_reproducible_from_its_seed(director, make_division):
    d1, d2 = make_division(10), make_division(10)
    pairs = []
    for d in (d1, d2):
        rnd = play.pair_round(director, d, "random", seed=42)
        numbers = {s.player_id: s.number for s in d.seats.all()}
        pairs.append(sorted(tuple(sorted((numbers[g.player_a_id], numbers[g.player_b_id]))) for g in rnd.games.all()))
    assert pairs[0] == pairs[1]


def test_odd_field_gets_one_bye_scored_as_the_event_sets(director, make_division):
    division = make_division(5, bye_spread=50)
    rnd = play.pair_round(director, division, "koth")
    byes = list(rnd.games.filter(kind=GameKind.BYE))
    assert len(byes) == 1 and byes[0].spread_a == 50 and byes[0].status == GameStatus.CONFIRMED


def test_player_submits_opponent_confirms(director, make_division):
    division = make_division(2, users=True)
    rnd = play.pair_round(director, division, "koth")
    game = rnd.games.get()
    a, b = game.player_a.user, game.player_b.user
    with pytest.raises(play.PlayError, match="not published"):
        play.submit_result(a, game, 400, 300)
    play.publish_round(director, rnd)
    with pytest.raises(NotAllowed):
        play.submit_result(UserFactory(), game, 400, 300)
    play.submit_result(a, game, 400, 300, overtime_a=61, first="a")
    game.refresh_from_db()
    assert (game.score_a, game.score_b, game.status) == (380, 300, GameStatus.SUBMITTED)  # 2 minutes' penalty
    with pytest.raises(play.PlayError, match="already submitted"):
        play.submit_result(b, game, 300, 400)
    with pytest.raises(play.PlayError, match="You submitted this result: .* confirms it now"):
        play.confirm_result(a, game)
    play.confirm_result(b, game)
    game.refresh_from_db()
    assert game.status == GameStatus.CONFIRMED
    assert list(GameChange.objects.filter(game=game).values_list("action", flat=True)) == ["confirmed", "submitted"]


def test_dispute_goes_to_a_director(director, make_division):
    division = make_division(2, users=True)
    rnd = play.pair_round(director, division, "koth")
    play.publish_round(director, rnd)
    game = rnd.games.get()
    play.submit_result(game.player_a.user, game, 450, 300)
    play.dispute_result(game.player_b.user, game, "I won")
    game.refresh_from_db()
    assert game.status == GameStatus.DISPUTED
    play.submit_result(director, game, 300, 450)
    game.refresh_from_db()
    assert (game.score_a, game.score_b, game.status) == (300, 450, GameStatus.CONFIRMED)


def test_negative_or_absurd_scores_are_refused(director, make_division):
    division = make_division(2)
    rnd = play.pair_round(director, division, "koth")
    play.publish_round(director, rnd)
    game = rnd.games.get()
    for a, b in ((-5, 300), (400, 5000)):
        with pytest.raises(play.PlayError):
            play.submit_result(director, game, a, b)
    game.refresh_from_db()
    assert game.status == GameStatus.PAIRED and game.score_a is None


def test_after_the_next_round_only_a_director_changes_a_result(director, make_division):
    division = make_division(4, users=True)
    r1 = play.pair_round(director, division, "koth")
    play.publish_round(director, r1)
    late = r1.games.first()
    for g in r1.games.exclude(pk=late.pk):
        play.submit_result(director, g, 400, 300)
    play.submit_result(director, late, 400, 300)
    r2 = play.pair_round(director, division, "koth")
    play.publish_round(director, r2)
    with pytest.raises(play.PlayError, match="already confirmed"):
        play.submit_result(late.player_a.user, late, 300, 400)
    with pytest.raises(play.PlayError, match="reason") as refused:
        play.submit_result(director, late, 300, 400)
    assert refused.value.field == "reason"
    play.submit_result(director, late, 300, 400, reason="scores swapped")
    late.refresh_from_db()
    assert (late.score_a, late.score_b) == (300, 400)
    assert late.changes.count() == 2  # both entries are in the audit trail


def test_fast_entry_of_a_whole_round(director, make_division):
    division = make_division(4)
    rnd = play.pair_round(director, division, "koth")
    play.publish_round(director, rnd)
    numbers = {s.player_id: s.number for s in division.seats.all()}
    lines = [f"{numbers[g.player_a_id]} 410 {numbers[g.player_b_id]} 390" for g in rnd.games.all()]
    play.enter_round_results(director, rnd, "\n".join(lines))
    assert set(rnd.games.values_list("status", flat=True)) == {GameStatus.CONFIRMED}


def test_fast_entry_names_the_bad_line_and_saves_nothing(director, make_division):
    division = make_division(4)
    rnd = play.pair_round(director, division, "koth")
    play.publish_round(director, rnd)
    g = rnd.games.first()
    numbers = {s.player_id: s.number for s in division.seats.all()}
    good = f"{numbers[g.player_a_id]} 410 {numbers[g.player_b_id]} 390"
    stranger = next(n for p, n in numbers.items() if p not in (g.player_a_id, g.player_b_id))
    not_paired = f"{numbers[g.player_a_id]} 410 {stranger} 390"
    with pytest.raises(play.PlayError, match="Line 2: players .* are not paired together"):
        play.enter_round_results(director, rnd, f"{good}\n{not_paired}")
    with pytest.raises(play.PlayError, match="Line 1: expected"):
        play.enter_round_results(director, rnd, "1 400 two 300")
    assert not Game.objects.filter(round=rnd, status=GameStatus.CONFIRMED).exists()


def test_draft_pairs_can_be_swapped_then_published(director, make_division):
    division = make_division(4)
    rnd = play.pair_round(director, division, "koth")
    g1, g2 = rnd.games.order_by("board")
    play.swap_players(director, rnd, g1.player_b_id, g2.player_b_id)
    pairs = {frozenset((g.player_a_id, g.player_b_id)) for g in rnd.games.all()}
    assert frozenset((g1.player_a_id, g2.player_b_id)) in pairs
    play.publish_round(director, rnd)
    with pytest.raises(play.PlayError, match="published"):
        play.swap_players(director, rnd, g1.player_a_id, g2.player_a_id)


def test_repeats_beyond_the_limit_offer_the_least_repeat_pairing(director, make_division):
    division = make_division(2, games=3)
    r1 = play.pair_round(director, division, "koth")
    play.publish_round(director, r1)
    _play_round(director, r1)
    with pytest.raises(play.PairingRefused) as refused:
        play.pair_round(director, division, "koth")
    assert refused.value.best is not None and "repeat" in refused.value.message.lower()
    r2 = play.pair_round(director, division, "koth", accept_repeats=True)
    assert r2.games.count() == 1


def test_only_directors_pair(make_division):
    division = make_division(4)
    with pytest.raises(NotAllowed):
        play.pair_round(UserFactory(), division, "koth")


def test_late_entrant_and_withdrawal(director, make_division):
    from tests.factories import PlayerFactory

    division = make_division(4)
    r1 = play.pair_round(director, division, "koth")
    play.publish_round(director, r1)
    _play_round(director, r1)
    late = play.add_late_entrant(director, division, PlayerFactory(full_name="Late Comer"))
    missed = Game.objects.get(division=division, player_a=late.player, round_number=1)
    assert missed.kind == GameKind.FORFEIT and missed.spread_a == -50
    play.withdraw_player(director, division.seats.get(number=1))
    r2 = play.pair_round(director, division, "koth")
    gone = division.seats.get(number=1).player_id
    assert r2.games.get(player_a_id=gone).kind == GameKind.FORFEIT
    assert r2.games.filter(kind=GameKind.NORMAL).count() == 2  # 4 left: two games


def test_finalise_needs_every_result_confirmed(director, make_division):
    division = make_division(2, games=1)
    rnd = play.pair_round(director, division, "koth")
    play.publish_round(director, rnd)
    with pytest.raises(play.PlayError, match="not confirmed"):
        play.finalise_division(director, division)
    _play_round(director, rnd)
    play.finalise_division(director, division)
    division.refresh_from_db()
    assert division.finalised_at
    with pytest.raises(play.PlayError, match="finalised"):
        play.dispute_result(director, rnd.games.get())


def test_a_correction_after_finalising_re_rates_the_event(director, on_commit):
    """Only a director corrects a finalised division; the event (and later ones) are re-rated."""
    from events.models import EventStatus
    from events.play.models import Division, DivisionPlayer
    from ratings.models import RatingChange
    from tests.events.factories import EventFactory
    from tests.factories import PlayerFactory
    from tests.ratings.factories import PlayerRatingFactory, RatingListFactory

    rating_list = RatingListFactory()
    event = EventFactory(status=EventStatus.IN_PROGRESS, number_of_games=1, rating_list=rating_list, rated=True)
    event.directors.add(director)
    division = Division.objects.create(event=event, name="A")
    for number in (1, 2):
        player = PlayerFactory(user=UserFactory())
        PlayerRatingFactory(rating_list=rating_list, player=player, rating=1500, seed_rating=1500)
        DivisionPlayer.objects.create(division=division, player=player, number=number, rating=1500)
    rnd = play.pair_round(director, division, "koth")
    play.publish_round(director, rnd)
    game = rnd.games.get()
    play.submit_result(director, game, 450, 300)
    with on_commit(execute=True):
        play.finalise_division(director, division)  # the rating run is queued on commit (in-process here)
    winner = game.player_a_id
    assert RatingChange.objects.get(division__event=event, player_id=winner).post > 1500

    with pytest.raises(play.PlayError, match="finalised"):
        play.submit_result(game.player_a.user, game, 300, 450)
    with on_commit(execute=True):
        play.submit_result(director, game, 300, 450, reason="scoresheet misread")  # the correction
    assert RatingChange.objects.get(division__event=event, player_id=winner).post < 1500


def test_standings_query_count_is_constant(director, make_division, django_assert_max_num_queries):
    division = make_division(30, games=3)
    for _ in range(3):
        rnd = play.pair_round(director, division, "koth")
        play.publish_round(director, rnd)
        _play_round(director, rnd)
    with django_assert_max_num_queries(3):
        rows = play.standings(division)
    assert len(rows) == 30 and rows[0].wins == 3


def test_nothing_of_a_draft_round_counts_in_the_tables_until_it_is_published(director, make_division):
    """Its bye is confirmed when it is paired, but the standings, cross-table and scorecards read it only once
    the round is out."""
    division = make_division(3)
    first = play.pair_round(director, division, "random", seed=1)
    play.publish_round(director, first)
    for game in first.games.filter(kind=GameKind.NORMAL):
        play.submit_result(director, game, 400, 300)
    second = play.pair_round(director, division, "random", seed=2)
    bye = second.games.get(kind=GameKind.BYE)
    assert bye.status == GameStatus.CONFIRMED and second.status == RoundStatus.DRAFT

    def tables():
        read = play.read_division(division, for_tables=True)
        rows = read.standings()
        return (
            sum(r.standing.games for r in rows),
            sum(r.standing.byes for r in rows),
            {c.round for cells in read.cross_table().unopposed.values() for c in cells},
            max(line.round for lines in read.scorecards().values() for line in lines),
        )

    assert tables() == (3, 1, {1}, 1)
    play.publish_round(director, second)
    assert tables() == (4, 2, {1, 2}, 2)
