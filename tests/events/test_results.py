import pytest

from events.play.core.results import (
    MAX_OVERTIME_SECONDS,
    MAX_SCORE,
    MIN_STORED_SCORE,
    Game,
    GameKind,
    ResultError,
    ScoreError,
    SpreadRules,
    TieUndecided,
    TimeControl,
    adjudicate,
    overrun_forfeit_scores,
    overtime_penalty,
    player_results,
    validate_score,
    validate_stored_scores,
)

NASPA = SpreadRules()


def outcome(game: Game, rules: SpreadRules = NASPA) -> list[tuple[int, float, float, int]]:
    return [(r.player, r.wins, r.losses, r.spread) for r in player_results(game, rules)]


def test_normal_game_win_loss_and_tie() -> None:
    assert outcome(Game(1, 1, 2, 420, 380)) == [(1, 1.0, 0.0, 40), (2, 0.0, 1.0, -40)]
    assert outcome(Game(1, 1, 2, 300, 355)) == [(1, 0.0, 1.0, -55), (2, 1.0, 0.0, 55)]
    assert outcome(Game(1, 1, 2, 400, 400)) == [(1, 0.5, 0.5, 0), (2, 0.5, 0.5, 0)]


def test_bye_spread_is_per_event() -> None:
    assert outcome(Game(1, 7, kind=GameKind.BYE)) == [(7, 1.0, 0.0, 50)]
    assert outcome(Game(1, 7, kind=GameKind.BYE), SpreadRules(bye_spread=100)) == [(7, 1.0, 0.0, 100)]
    assert outcome(Game(1, 7, kind=GameKind.BYE, award=1)) == [(7, 1.0, 0.0, 1)]


def test_forfeit_loss_with_and_without_opponent() -> None:
    assert outcome(Game(2, 3, kind=GameKind.FORFEIT)) == [(3, 0.0, 1.0, -50)]
    assert outcome(Game(2, 3, 4, kind=GameKind.FORFEIT), SpreadRules(forfeit_spread=75)) == [
        (3, 0.0, 1.0, -75),
        (4, 1.0, 0.0, 75),
    ]


def test_late_arrival_forfeit_is_100_each_way() -> None:
    assert outcome(Game(1, 5, 6, kind=GameKind.LATE_FORFEIT)) == [(5, 0.0, 1.0, -100), (6, 1.0, 0.0, 100)]


def test_void_counts_nothing() -> None:
    assert outcome(Game(1, 5, 6, kind=GameKind.VOID)) == [(5, 0.0, 0.0, 0), (6, 0.0, 0.0, 0)]
    assert outcome(Game(1, 5, kind=GameKind.VOID)) == [(5, 0.0, 0.0, 0)]


def test_pending_game_has_no_result() -> None:
    game = Game(3, 1, 2)
    assert game.pending
    assert player_results(game) == ()


def test_only_normal_games_are_rated() -> None:
    assert [r.rated for r in player_results(Game(1, 1, 2, 400, 300))] == [True, True]
    assert [r.rated for r in player_results(Game(1, 1, 2, kind=GameKind.LATE_FORFEIT))] == [False, False]
    assert [r.letter for r in player_results(Game(1, 1, 2, 400, 300))] == ["W", "L"]
    assert player_results(Game(1, 1, kind=GameKind.BYE))[0].letter == "B"


def test_who_went_first() -> None:
    a, b = player_results(Game(1, 1, 2, 400, 300, first=2))
    assert (a.went_first, b.went_first) == (False, True)
    assert player_results(Game(1, 1, 2, 400, 300))[0].went_first is None


@pytest.mark.parametrize("bad", [-1, MAX_SCORE + 1, 5000])
def test_implausible_played_scores_are_refused(bad: int) -> None:
    with pytest.raises(ScoreError) as caught:
        adjudicate(bad, 300)
    assert "player A's score" in str(caught.value) and caught.value.side == "a"
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize("stored", [-40, -200, 0, 1500, -471, 2000])
def test_a_recorded_game_counts_whatever_was_stored(stored: int) -> None:
    # The range is checked where results enter; a stored game is always shown and counted.
    a, b = player_results(Game(1, 1, 2, 380, stored))
    assert (a.spread, b.spread) == (380 - stored, stored - 380)


def test_score_validation_messages() -> None:
    with pytest.raises(ScoreError, match="cannot be negative"):
        validate_score(-5)
    with pytest.raises(ScoreError, match="above 1500"):
        validate_score(1501)
    with pytest.raises(ScoreError, match="whole number"):
        validate_score(True)  # type: ignore[arg-type]
    assert validate_score(0) == 0
    assert validate_score(MAX_SCORE) == MAX_SCORE


def test_game_shape_is_checked() -> None:
    with pytest.raises(ResultError, match="two players"):
        Game(1, 1, score_a=400, score_b=300)
    with pytest.raises(ResultError, match="themselves"):
        Game(1, 1, 1, 400, 300)
    with pytest.raises(ScoreError, match="both scores"):
        Game(1, 1, 2, 400)
    with pytest.raises(ResultError, match="no opponent"):
        Game(1, 1, 2, kind=GameKind.BYE)
    with pytest.raises(ResultError, match="on time"):
        Game(1, 1, kind=GameKind.LATE_FORFEIT)
    with pytest.raises(ResultError, match="not in this game"):
        Game(1, 1, 2, 400, 300, first=3)
    with pytest.raises(ResultError, match="round"):
        Game(0, 1, 2, 400, 300)
    with pytest.raises(ResultError, match="negative"):
        Game(1, 1, kind=GameKind.BYE, award=-50)


@pytest.mark.parametrize("seconds,penalty", [(0, 0), (1, 10), (59, 10), (60, 10), (61, 20), (120, 20), (121, 30)])
def test_overtime_penalty_per_minute_or_part(seconds: int, penalty: int) -> None:
    assert overtime_penalty(seconds) == penalty


def test_one_minute_one_second_over_costs_twenty() -> None:
    assert overtime_penalty(61) == 20
    assert overtime_penalty(61, points_per_minute=5) == 10
    with pytest.raises(ResultError):
        overtime_penalty(-1)


def test_penalty_applies_before_the_result() -> None:
    # A leads by 15 at the end but ran 1:01 over: 20 off turns the win into a loss.
    result = adjudicate(415, 400, seconds_over_a=61)
    assert (result.score_a, result.score_b, result.penalty_a, result.penalty_b) == (395, 400, 20, 0)
    assert result.forfeit is None
    # Not clamped at 0: the opponent gets the whole penalty as spread.
    assert adjudicate(10, 400, seconds_over_a=600).score_a == -90


def test_apsp_overrun_forfeit_margin_at_least_150() -> None:
    apsp = TimeControl(forfeit_after_seconds=15 * 60)
    # A is ahead 400-300 when 15 minutes over: 150 off puts A at 250, a 50 margin: forfeit by 150.
    result = adjudicate(400, 300, seconds_over_a=15 * 60, time_control=apsp)
    assert (result.score_a, result.score_b, result.forfeit) == (150, 300, "a")
    # B is behind by 200 after the penalty: that margin stands.
    result = adjudicate(450, 400, seconds_over_b=15 * 60, time_control=apsp)
    assert (result.score_a, result.score_b, result.forfeit) == (450, 250, "b")
    # Under the limit only the penalty applies.
    assert adjudicate(400, 300, seconds_over_a=14 * 60, time_control=apsp).forfeit is None


def test_overrun_forfeit_never_goes_negative() -> None:
    assert overrun_forfeit_scores(90, 100) == (0, 150)
    assert overrun_forfeit_scores(50, 400) == (50, 400)
    assert overrun_forfeit_scores(500, 400) == (250, 400)


def test_kind_may_be_given_as_its_stored_text() -> None:
    game = Game(1, 4, kind="bye")  # type: ignore[arg-type]
    assert game.kind is GameKind.BYE
    with pytest.raises(ValueError):
        Game(1, 4, kind="walkover")  # type: ignore[arg-type]


def test_the_audit_case_is_stored_negative_and_counted() -> None:
    # 380 v 60, the opponent 10:00 over: 100 off, stored as -40, a 420 win.
    result = adjudicate(380, 60, seconds_over_b=600)
    assert (result.score_a, result.score_b, result.penalty_b) == (380, -40, 100)
    a, _ = player_results(Game(1, 1, 2, result.score_a, result.score_b))
    assert (a.wins, a.spread) == (1.0, 420)


def test_stored_scores_have_one_documented_range() -> None:
    assert validate_stored_scores(MIN_STORED_SCORE, MAX_SCORE) == (MIN_STORED_SCORE, MAX_SCORE)
    with pytest.raises(ScoreError, match="stored as -210") as caught:
        adjudicate(50, 300, seconds_over_a=26 * 60)  # 260 off a score of 50
    assert caught.value.side == "a"
    with pytest.raises(ScoreError, match="player B's score would be stored as -471"):
        validate_stored_scores(300, -471)
    with pytest.raises(ScoreError, match="2000"):
        validate_stored_scores(2000, 300)
    with pytest.raises(ScoreError, match="overtime") as caught:
        adjudicate(300, 300, seconds_over_b=MAX_OVERTIME_SECONDS + 1)
    assert (caught.value.side, caught.value.field) == ("b", "overtime")
    with pytest.raises(ScoreError, match="Ann's score"):
        adjudicate(-1, 300, names=("Ann", "Bob"))


# Seed 002 (APSP): "If in any game a player overruns the allotted time by 15 minutes the game shall be
# forfeit by that player. The margin shall be the margin when the 15 minutes is reached (after imposing
# time penalties) or 150 points, whichever is the greater."
APSP = TimeControl(forfeit_after_seconds=15 * 60)


def test_overrun_forfeit_seed_002_margin_of_150_when_close() -> None:
    # 400-300 at the table, A 15 minutes over: 150 off puts A at 250, 50 behind: the margin is 150.
    result = adjudicate(400, 300, seconds_over_a=15 * 60, time_control=APSP)
    assert (result.score_a, result.score_b, result.penalty_a, result.forfeit) == (150, 300, 150, "a")


def test_overrun_forfeit_seed_002_larger_margin_stands() -> None:
    # 300-420, A 15 minutes over: 150 off, 150-420 is a 270 margin, larger than 150: it stands.
    result = adjudicate(300, 420, seconds_over_a=15 * 60, time_control=APSP)
    assert (result.score_a, result.score_b, result.forfeit) == (150, 420, "a")


def test_overrun_penalty_stops_at_the_limit() -> None:
    # The margin is the one "when the 15 minutes is reached": a clock stopped at 16:30 costs 150, not 170.
    result = adjudicate(500, 300, seconds_over_b=16 * 60 + 30, time_control=APSP)
    assert (result.score_a, result.score_b, result.penalty_b, result.forfeit) == (500, 150, 150, "b")
    a, b = player_results(Game(1, 1, 2, result.score_a, result.score_b))
    assert (a.wins, b.wins, a.spread) == (1.0, 0.0, 350)


def test_without_the_setting_an_overrun_is_only_penalised() -> None:
    result = adjudicate(400, 300, seconds_over_a=15 * 60)
    assert (result.score_a, result.score_b, result.forfeit) == (250, 300, None)


# Seed 001: "In case of a tie, the player with the highest score before adding or deducting unplaced
# letters wins."
def test_tie_broken_by_score_before_tile_adjustment() -> None:
    result = adjudicate(400, 400, ahead_before_tiles="b", ties_by_score_before_tiles=True)
    assert result.tie_winner == "b"
    a, b = player_results(Game(1, 1, 2, 400, 400, tie_winner=2))
    assert (a.wins, a.losses, b.wins, b.losses, a.spread, a.letter, b.letter) == (0.0, 1.0, 1.0, 0.0, 0, "L", "W")


def test_tie_rule_asks_only_when_level() -> None:
    with pytest.raises(TieUndecided):
        adjudicate(400, 400, ties_by_score_before_tiles=True)
    assert adjudicate(401, 400, ties_by_score_before_tiles=True).tie_winner is None
    assert adjudicate(400, 400, ahead_before_tiles="level", ties_by_score_before_tiles=True).tie_winner is None
    assert adjudicate(400, 400, ahead_before_tiles="a").tie_winner is None  # the event does not use the rule
    a, b = player_results(Game(1, 1, 2, 400, 400))
    assert a.wins == b.wins == 0.5
