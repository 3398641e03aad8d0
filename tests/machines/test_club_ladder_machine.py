"""Club nights' play as a state machine: random sequences of what a club director and members do at club nights,
through the services (never the pages), with the ladder and the club rating list checked after every step.

The steps: the director checks a member in at a night (this week's or one of last season); a member submits their
own game (level scores too, with who led before the tiles), the opponent confirms or disputes it, the director
enters, confirms or removes a game; the director enters a table of two to four players (someone went out, or the
time ran out) or removes one; the director changes the ladder's points, and turns the club rating on or off.

What must hold after every step:

1. The ladder's points equal a recomputation from the stored games, tables and check-ins, counted here from scratch:
   the club's points for a win, tie or loss of each confirmed game of the season, for each place at a table, and
   for each night of the season a player was checked in at or played at, once. Unconfirmed games count nothing, and
   nothing of last season counts.
2. Every table's stored seats are what seed 001's rule gives from their scores and tiles: the final score is the
   score before the tiles plus the adjustment, the player who went out gains exactly what the others lose, and a
   place is one more than the number of players ahead on final score, then on the score before the adjustment.
3. The club rating list equals one worked out again from the confirmed games (and is empty when the club does not
   rate); every rated player played a confirmed game."""

from __future__ import annotations

from collections import defaultdict
from datetime import date, time, timedelta

import pytest
from django.db import transaction
from django.utils import timezone
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule, run_state_machine_as_test

from clubs import services as clubs
from clubs.models import (
    Attendance,
    AttendanceStatus,
    ClubGame,
    ClubGameStatus,
    ClubNight,
    ClubRating,
    ClubTable,
    TableSeat,
)
from clubs.services import play, standings
from clubsite.kit.errors import ServiceError
from tests.clubs.play_helpers import club_director, member
from tests.factories import ClubFactory

pytestmark = pytest.mark.django_db(transaction=False)

NAMES = ("Ann Lee", "Bob Tan", "Cy Ng", "Di Wu", "Ed Ho")


class ClubLadderMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self._atomic = transaction.atomic()
        self._atomic.__enter__()

    def teardown(self):
        transaction.set_rollback(True)
        self._atomic.__exit__(None, None, None)

    @initialize()
    def open_club(self):
        self.club = ClubFactory(name="Club of the machine")
        self.director = club_director(self.club)
        self.members = [member(self.club, name, account=n < 4) for n, name in enumerate(NAMES)]
        today = timezone.localdate()
        self.nights = [
            ClubNight.objects.create(club=self.club, on=today - timedelta(days=days), starts_at=time(19))
            for days in (0, 7, 400)  # this week, last week, last season
        ]

    # --- steps ---------------------------------------------------------------------------------------

    def _try(self, call):
        try:
            with transaction.atomic():
                return call()
        except ServiceError:
            return None

    @rule(night=st.integers(0, 2), who=st.integers(0, 4))
    def check_in(self, night, who):
        self._try(lambda: clubs.check_in(self.director, self.nights[night], self.members[who]))

    @rule(
        night=st.integers(0, 2),
        a=st.integers(0, 4),
        b=st.integers(0, 4),
        scores=st.tuples(st.integers(0, 500), st.integers(0, 500)) | st.just((350, 350)),
        ahead=st.sampled_from([None, "a", "b", "level"]),
        by_director=st.booleans(),
    )
    def submit_game(self, night, a, b, scores, ahead, by_director):
        actor = self.director if by_director else self.members[a].user
        self._try(
            lambda: play.submit_game(
                actor,
                self.nights[night],
                self.members[a],
                self.members[b],
                *scores,
                ahead_before_tiles=ahead,
                confirm_unusual=True,
            )
        )

    @rule(data=st.data(), by_director=st.booleans(), dispute=st.booleans())
    def answer_game(self, data, by_director, dispute):
        games = list(ClubGame.objects.exclude(status=ClubGameStatus.CONFIRMED).order_by("pk"))
        if not games:
            return
        game = data.draw(st.sampled_from(games))
        other = game.player_b if game.submitted_by_id == game.player_a.user_id else game.player_a
        actor = self.director if by_director or other.user is None else other.user
        if dispute and actor is not self.director:
            self._try(lambda: play.dispute_game(actor, game, "No"))
        else:
            self._try(lambda: play.confirm_game(actor, game))

    @rule(data=st.data())
    def remove_game(self, data):
        games = list(ClubGame.objects.order_by("pk"))
        if games:
            game = data.draw(st.sampled_from(games))
            self._try(lambda: play.remove_game(self.director, game))

    @rule(
        night=st.integers(0, 2),
        seats=st.lists(st.tuples(st.integers(0, 4), st.integers(0, 500), st.integers(0, 20)), min_size=2, max_size=4),
        out=st.integers(-1, 3),
    )
    def enter_table(self, night, seats, out):
        rows = [play.TableRow(self.members[p], "", before, tiles) for p, before, tiles in seats]
        went_out = None
        if 0 <= out < len(rows):
            went_out = rows[out].player
            rows[out] = play.TableRow(went_out, "", rows[out].score_before, 0)
        self._try(lambda: play.enter_table(self.director, self.nights[night], rows, went_out=went_out))

    @rule(data=st.data())
    def remove_table(self, data):
        tables = list(ClubTable.objects.order_by("pk"))
        if tables:
            table = data.draw(st.sampled_from(tables))
            self._try(lambda: play.remove_table(self.director, table))

    @rule(
        points=st.tuples(*[st.integers(0, 5)] * 8),
        rated=st.booleans(),
    )
    def change_rules(self, points, rated):
        names = ("win", "tie", "loss", "first", "second", "third", "fourth", "attendance")
        fields = {f"{name}_points": value for name, value in zip(names, points, strict=True)}
        self._try(lambda: play.save_rules(self.director, self.club, rated=rated, **fields))

    # --- what must hold ------------------------------------------------------------------------------

    @invariant()
    def ladder_points_equal_a_recomputation(self):
        rules = play.rules_of(self.club)
        today = timezone.localdate()
        since = rules.season_starts_on or date(today.year, 1, 1)
        in_season = {n.pk for n in ClubNight.objects.filter(club=self.club, on__gte=since, on__lte=today)}
        points: dict[int, int] = defaultdict(int)
        nights: dict[int, set] = defaultdict(set)
        for game in ClubGame.objects.filter(status=ClubGameStatus.CONFIRMED, night_id__in=in_season):
            a, b = game.player_a_id, game.player_b_id
            if game.score_a == game.score_b and game.ahead_before_tiles not in ("a", "b"):
                points[a] += rules.tie_points
                points[b] += rules.tie_points
            else:
                a_won = game.score_a > game.score_b or (game.score_a == game.score_b and game.ahead_before_tiles == "a")
                points[a] += rules.win_points if a_won else rules.loss_points
                points[b] += rules.loss_points if a_won else rules.win_points
            nights[a].add(game.night_id)
            nights[b].add(game.night_id)
        by_place = {1: rules.first_points, 2: rules.second_points, 3: rules.third_points, 4: rules.fourth_points}
        for seat in TableSeat.objects.filter(table__night_id__in=in_season).select_related("table"):
            points[seat.player_id] += by_place[seat.place]
            nights[seat.player_id].add(seat.table.night_id)
        for attendance in Attendance.objects.filter(night_id__in=in_season, status=AttendanceStatus.CHECKED_IN):
            nights[attendance.player_id].add(attendance.night_id)
        expected = {p: points[p] + rules.attendance_points * len(n) for p, n in nights.items()}
        shown = {line.player.pk: line.row.points for line in standings.club_ladder(self.club).lines}
        assert shown == expected

    @invariant()
    def tables_follow_seed_001(self):
        for table in ClubTable.objects.prefetch_related("seats"):
            seats = list(table.seats.all())
            assert 2 <= len(seats) <= 4
            for s in seats:
                assert s.final == s.score_before + s.adjustment
                ahead = sum(1 for o in seats if (o.final, o.score_before) > (s.final, s.score_before))
                assert s.place == ahead + 1
            if table.went_out_id:
                assert sum(s.adjustment for s in seats) == 0
                assert next(s for s in seats if s.player_id == table.went_out_id).adjustment == sum(
                    s.tiles_left for s in seats
                )
            else:
                assert all(s.adjustment == -s.tiles_left for s in seats)

    @invariant()
    def club_ratings_equal_a_recomputation(self):
        stored = sorted(ClubRating.objects.filter(club=self.club).values_list("player_id", "rating", "games"))
        with transaction.atomic():
            standings.rerate_club(self.club)
            again = sorted(ClubRating.objects.filter(club=self.club).values_list("player_id", "rating", "games"))
            transaction.set_rollback(True)
        assert stored == again
        if not play.rules_of(self.club).rated:
            assert stored == []
        confirmed = ClubGame.objects.filter(status=ClubGameStatus.CONFIRMED)
        players = set(confirmed.values_list("player_a_id", flat=True)) | set(
            confirmed.values_list("player_b_id", flat=True)
        )
        assert {p for p, _, _ in stored} <= players


SETTINGS = settings(
    max_examples=15,
    stateful_step_count=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


def test_club_ladder_and_ratings_equal_a_recomputation_from_the_games():
    run_state_machine_as_test(ClubLadderMachine, settings=SETTINGS)
