"""Tournament play as a state machine: random sequences of what directors and players do, through play's
services (never its pages), with every rule of the division checked after each step.

The steps: check players in (and withdraw the no-shows), split the field into divisions, pair a round with
each system the site offers (Gibsonized or not, repeats accepted or not, players who have not checked in
refused or left out), publish it, swap two boards of a draft, delete a draft; a player submits a result
(0–0 too), resubmits their own, the opponent confirms or disputes, a director confirms, enters or corrects
with a reason; a director records a forfeit, a late-arrival forfeit or a void game (on any game, byes too),
and withdraws a player.

What must hold after every step:

1. Every stored game is one the result rules accept (a bye is never a late-arrival forfeit).
2. The standings (after every round), cross-table and scorecards the site reads equal those the pure cores
   work out from scratch from the stored games: drafts not counted, unconfirmed scores not counted.
3. The prizes the site awards equal the pure prize rules applied to those standings, and the money awarded
   is the prize table's: every place prize a ranked player reaches, split to the cent, none made up or lost.
4. The tsh export says what the games say: each player's opponent and score every round, and the wins,
   losses and spread tsh would count from it are the standings' own through every fully confirmed round.
5. Nobody is paired twice in a round, nor paired in a round after they withdrew; once the event uses
   check-in, nobody who has not checked in is paired. A swap that pairs two players who have met before says
   so. Every round page, and the wall and printed pairings of the round shown, list each player without an
   opponent with what the round counts for them as the standings count it ("Withdrawn after round 2:
   forfeit loss (-50)"), a withdrawn player's later rounds said as such.
6. Every read of a division succeeds whatever is stored: standings, cross-table, scorecards, prizes, the
   wall (pairings, find my table, standings, its version), printed round sheets, the tsh export, live
   ratings, and pairing the next round. The wall, which the whole room sees, shows no unconfirmed score.
7. A Gibsonized leader plays, of the players who met them least often, one who can no longer finish in a
   prize place of the prize table (tsh's and NASPA's out of contention), or the lowest-placed of them when
   all still can; an odd field's bye goes to the Gibsonized leader.
8. When the event is rated and every scheduled round is played and confirmed, the live ratings equal what
   the rating run stores.
9. Categories stay apart (seed 004: primary and secondary students, each category with its own prizes): a
   division plays for one category's prizes, and everyone that assignment or a split seated in it entered that
   category; only a director's placement seats a player of another, and no prize of a category ever goes to a
   player who did not enter it.

Bounded to run in `make test` in well under a minute (on SQLite here, on PostgreSQL in CI)."""

from __future__ import annotations

import re
from collections import Counter
from datetime import timedelta
from decimal import Decimal
from html import unescape

import pytest
from django.core.cache import cache
from django.db import transaction
from django.db.models import Count, Q
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from clubsite.kit.errors import ServiceError
from events.models import Category, Entry, EntryStatus, Event, EventStatus, Prize, PrizeKind
from events.play import services as play
from events.play.core import pairing, tsh
from events.play.core.results import ResultError
from events.play.models import CheckIn, Division, DivisionPlayer, Game, GameKind, GameStatus, Round, RoundStatus
from events.play.services import checkin, printing, tsh_io, wall
from events.play.services import prizes as prizes_io
from players.models import Player, User
from ratings import services as rating_services
from ratings.models import PlayerRating, RatingChange, RatingList
from ratings.services.live import division_live_ratings
from tests.factories import AssociationFactory

from . import play_scratch as scratch

pytestmark = pytest.mark.django_db(transaction=False)

SYSTEMS = sorted(pairing.SYSTEMS)
OPEN = ["paired", "submitted"]
PRIZES = [Decimal("100.00"), Decimal("70.00"), Decimal("50.00"), Decimal("33.33"), Decimal("20.00"), Decimal("10.01")]


class Rollback(Exception):
    """Leaves a savepoint without keeping what was done in it."""


def _pick(data, items, label):
    return data.draw(st.sampled_from(items), label=label)


class PlayMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self._atomic = transaction.atomic()
        self._atomic.__enter__()
        cache.clear()
        self.changed = True
        self.answers = {}

    def teardown(self):
        transaction.set_rollback(True)
        self._atomic.__exit__(None, None, None)

    # --- the event -------------------------------------------------------------------------------

    @initialize(
        players=st.integers(min_value=4, max_value=10),
        rounds=st.integers(min_value=2, max_value=5),
        rated=st.booleans(),
        prize_places=st.sampled_from([1, 2, 3, 5, 10]),
        missed=st.sampled_from(["forfeit", "bye", "void"]),
        head_start=st.sampled_from(["none", "one round", "all but the last", "all"]),
        gibson=st.booleans(),
        seed=st.integers(min_value=0, max_value=2**31),
        here=st.integers(min_value=0, max_value=8),
        late=st.sampled_from([50, 75, 100]),
    )
    def start(self, players, rounds, rated, prize_places, missed, head_start, gibson, seed, here, late):
        """An event of two categories, each with its prize table, its entrants seated in a division per category,
        `here` of them checked in (none: the event does not use check-in); with a head start, some rounds played
        already in the first division (as `play_round` plays them), so that runs reach the last rounds."""
        association = AssociationFactory()
        self.director = User.objects.create(username="td", email="td@example.org")
        ratings = RatingList.objects.create(association=association, name="Ratings", slug="ratings", lexicon="CSW")
        today = timezone.localdate()
        self.event = Event.objects.create(
            slug="machine",
            title="Machine Open",
            owner=self.director,
            association=association,
            status=EventStatus.IN_PROGRESS,
            starts_on=today,
            ends_on=today,
            number_of_games=rounds,
            rated=rated,
            rating_list=ratings if rated else None,
            late_forfeit_spread=late,
        )
        self.event.directors.add(self.director)
        # Seed 004: secondary and primary students, each category with its own prize table.
        self.categories = [
            Category.objects.create(event=self.event, name="Secondary", position=1),
            Category.objects.create(event=self.event, name="Primary", position=2),
        ]
        for n, category in enumerate(self.categories):
            for place in range(1, prize_places + 1):
                amount = PRIZES[place - 1] - 10 * n if place <= len(PRIZES) else None
                Prize.objects.create(
                    category=category,
                    kind=PrizeKind.PLACE,
                    rank_from=place,
                    rank_to=place,
                    description=f"{category.name} prize {place}",
                    amount=amount if amount is None or amount > 0 else Decimal("1.00"),
                )
        self.users = {}
        for i in range(players):
            user = User.objects.create(username=f"p{i}", email=f"p{i}@example.org")
            player = Player.objects.create(full_name=f"Player {i + 1:02d}", member_number=9000 + i, user=user)
            self.users[player.pk] = user
            if i % 3:  # every third player is a newcomer
                rating = 1300 + 90 * i
                PlayerRating.objects.create(
                    rating_list=ratings,
                    player=player,
                    rating=rating,
                    games=40 + i,
                    peak=rating,
                    seed_rating=rating,
                    seed_games=40 + i,
                )
            accepted = timezone.now() + timedelta(seconds=i)
            Entry.objects.create(
                event=self.event,
                category=self.categories[i % 2],
                player=player,
                status=EntryStatus.CONFIRMED,
                accepted_at=accepted,
            )
        play.assign_divisions(self.director, self.event)
        Division.objects.filter(event=self.event).update(missed_rounds_as=missed)
        for entry in Entry.objects.filter(event=self.event).order_by("pk")[:here]:
            checkin.check_in(self.director, entry)
        played = {"none": 0, "one round": 1, "all but the last": rounds - 1, "all": rounds}[head_start]
        for n in range(played):
            division = self.divisions()[0]
            scores = [(300 + (seed >> k) % 250, 300 + (seed >> (k + 9)) % 250) for k in range(players)]
            self.play_one(division, "koth" if n else "random", gibson, seed + n, scores, favourites=True)

    # --- helpers ---------------------------------------------------------------------------------

    def known(self, name: str, read):
        """`read()` once for the state as it is: preconditions ask the same questions many times a step, and
        the state changes only when a service does something (see `refused`)."""
        if name not in self.answers:
            self.answers[name] = read()
        return self.answers[name]

    def divisions(self) -> list[Division]:
        return self.known(
            "divisions",
            lambda: list(
                Division.objects.filter(event=self.event)
                .select_related("event")
                .annotate(played=Count("rounds"), drafts=Count("rounds", filter=Q(rounds__status=RoundStatus.DRAFT)))
                .order_by("position", "pk")
            ),
        )

    def published(self, **filters):
        return (
            Game.objects.filter(division__event=self.event, **filters)
            .exclude(round__status=RoundStatus.DRAFT)
            .select_related("player_a", "player_b", "round")
            .order_by("pk")
        )

    def games(self, **filters) -> list[Game]:
        return self.known(f"games {sorted(filters.items())}", lambda: list(self.published(**filters)))

    def drafts(self) -> list[Round]:
        return self.known(
            "drafts",
            lambda: list(Round.objects.filter(division__event=self.event, status=RoundStatus.DRAFT).order_by("pk")),
        )

    def started(self) -> bool:
        return self.known("started", lambda: Round.objects.filter(division__event=self.event).exists())

    def pairable(self) -> list[Division]:
        """Divisions whose next round may be paired: no draft waiting, rounds left to play."""
        return [d for d in self.divisions() if not d.drafts and d.played < self.event.number_of_games]

    def refused(self, call):
        """Calls a service: a refusal a person can act on is an answer, anything else fails the machine. What
        it answers changed the division, so the invariants look again after this step (a refusal changes
        nothing: they were checked on this state already)."""
        try:
            done = call()
        except ServiceError:
            return None
        self.changed = True
        self.answers = {}
        return done

    def opponent_of_submitter(self, game: Game) -> int:
        return game.player_b_id if game.submitted_by_id == self.users[game.player_a_id].pk else game.player_a_id

    # --- check-in and divisions ------------------------------------------------------------------

    @precondition(lambda self: not self.started())
    @rule(data=st.data())
    def check_in(self, data):
        entries = list(Entry.objects.filter(event=self.event, status=EntryStatus.CONFIRMED, check_in__isnull=True))
        if entries:
            entry = _pick(data, entries, "entry")
            self.refused(lambda: checkin.check_in(self.director, entry))

    @precondition(lambda self: not self.started())
    @rule()
    def withdraw_no_shows(self):
        missing = Entry.objects.filter(event=self.event, status=EntryStatus.CONFIRMED, check_in__isnull=True)
        ids = list(missing.values_list("pk", flat=True))
        if ids and CheckIn.objects.filter(entry__event=self.event).exists():
            self.refused(lambda: checkin.withdraw_no_shows(self.director, self.event, ids))

    @precondition(lambda self: not self.started())
    @rule(k=st.integers(min_value=1, max_value=3))
    def split(self, k):
        self.refused(lambda: play.assign_divisions(self.director, self.event, split_into=k))

    @precondition(lambda self: not self.started())
    @rule(data=st.data())
    def place_by_hand(self, data):
        """A director seats an entrant in a division of their choice, another category's too (invariant 9)."""
        entries = list(Entry.objects.filter(event=self.event, status=EntryStatus.CONFIRMED).order_by("pk"))
        divisions = self.divisions()
        if entries and divisions:
            entry, division = _pick(data, entries, "entry"), _pick(data, divisions, "division")
            self.refused(lambda: play.place_entrant(self.director, entry, division, "asked to"))

    # --- rounds ----------------------------------------------------------------------------------

    @precondition(lambda self: self.pairable())
    @rule(
        data=st.data(),
        system=st.sampled_from(SYSTEMS),
        gibson=st.booleans(),
        avoid=st.booleans(),
        accept=st.booleans(),
        seed=st.integers(min_value=0, max_value=2**31),
        absent=st.sampled_from(["refuse", "exclude"]),
    )
    def pair(self, data, system, gibson, avoid, accept, seed, absent):
        self.pair_one(_pick(data, self.pairable(), "division"), system, gibson, avoid, accept, seed, absent)

    def pair_one(self, division, system, gibson, avoid, accept, seed, absent) -> Round | None:
        present = scratch.checked_in_players(self.event)
        rnd = self.refused(
            lambda: play.pair_round(
                self.director,
                division,
                system,
                avoid_repeats=avoid,
                seed=seed,
                gibson=gibson,
                accept_repeats=accept,
                not_checked_in=absent,
            )  # fmt: skip
        )
        if rnd is None:
            return None
        paired = {p for g in rnd.games.filter(kind=GameKind.NORMAL) for p in (g.player_a_id, g.player_b_id)}
        if present is not None:
            entered = set(DivisionPlayer.objects.filter(division=division, entry__isnull=False)
                          .values_list("player_id", flat=True))  # fmt: skip
            assert not paired & (entered - present), "paired a player who has not checked in"
        if rnd.pairing_notes:
            self.check_gibson(division, rnd, present)
        return rnd

    @precondition(lambda self: self.pairable())
    @rule(
        data=st.data(),
        system=st.sampled_from(["koth", "swiss", "random"]),
        gibson=st.booleans(),
        seed=st.integers(min_value=0, max_value=2**31),
        scores=st.lists(st.tuples(st.integers(250, 550), st.integers(250, 550)), min_size=8, max_size=8),
        favourites=st.booleans(),
    )
    def play_round(self, data, system, gibson, seed, scores, favourites):
        """A whole round: paired (repeats accepted, absentees left out), published, every result entered by a
        director, so that tournaments reach their last rounds."""
        self.play_one(_pick(data, self.pairable(), "division"), system, gibson, seed, scores, favourites)

    def play_one(self, division, system, gibson, seed, scores, favourites=False):
        """`favourites`: the better seed wins every game, so that a leader runs away (and is Gibsonized)."""
        rnd = self.pair_one(division, system, gibson, True, True, seed, "exclude")
        if rnd is None or self.refused(lambda: play.publish_round(self.director, rnd)) is None:
            return
        number = dict(DivisionPlayer.objects.filter(division=division).values_list("player_id", "number"))
        for game, (a, b) in zip(rnd.games.filter(kind=GameKind.NORMAL).order_by("pk"), scores, strict=False):
            if favourites:
                high, low = max(a, b) + 150, min(a, b)
                a, b = (high, low) if number[game.player_a_id] < number[game.player_b_id] else (low, high)
            self.refused(lambda game=game, a=a, b=b: play.submit_result(self.director, game, a, b))

    def check_gibson(self, division: Division, rnd: Round, present: set[int] | None):
        """Invariant 7, for the round just paired: the leader plays someone who can no longer finish in a prize
        place, unless every player who met the leader as few times as their opponent still can."""
        people = {
            s.player_id
            for s in DivisionPlayer.objects.filter(division=division)
            if s.joined_in_round <= rnd.number
            and (s.withdrawn_after_round is None or s.withdrawn_after_round >= rnd.number)
            and (present is None or s.entry_id is None or s.player_id in present)
        }
        table = [s for s in scratch.Scratch.of(division).standings(rnd.number - 1) if s.player in people]
        leader = table[0].player
        game = rnd.games.filter(Q(player_a_id=leader) | Q(player_b_id=leader), kind=GameKind.NORMAL).first()
        if game is None:
            return
        opponent = game.player_b_id if game.player_a_id == leader else game.player_a_id
        byes = set(rnd.games.filter(kind=GameKind.BYE).values_list("player_a_id", flat=True))
        earlier = Game.objects.filter(division=division, round_number__lt=rnd.number, player_b__isnull=False)
        met = Counter(
            b if a == leader else a
            for a, b in earlier.exclude(kind=GameKind.VOID).values_list("player_a_id", "player_b_id")
            if leader in (a, b)
        )
        places = max((p.place for p in scratch.place_prizes(division)), default=1)
        left = division.event.number_of_games - (rnd.number - 1)
        reach = {s.player: scratch.can_finish_in_prizes(table, k, places, left) for k, s in enumerate(table) if k}
        if reach[opponent]:
            out = [p for p, can in reach.items() if not can and p not in byes and met[p] <= met[opponent]]
            assert not out, (
                f"the Gibsonized leader plays {opponent}, who can still finish in a prize place, not one of {out}"
            )

    @precondition(lambda self: self.drafts())
    @rule(data=st.data())
    def publish(self, data):
        self.refused(lambda: play.publish_round(self.director, _pick(data, self.drafts(), "draft")))

    @precondition(lambda self: self.drafts())
    @rule(data=st.data())
    def delete_draft(self, data):
        self.refused(lambda: play.delete_draft_round(self.director, _pick(data, self.drafts(), "draft")))

    @precondition(lambda self: self.drafts())
    @rule(data=st.data())
    def swap(self, data):
        rnd = _pick(data, self.drafts(), "draft")
        players = sorted({p for g in rnd.games.all() for p in (g.player_a_id, g.player_b_id) if p})
        if len(players) < 2:
            return
        x, y = data.draw(st.lists(st.sampled_from(players), min_size=2, max_size=2, unique=True), label="swap")
        swapped = self.refused(lambda: play.swap_players(self.director, rnd, x, y))
        if swapped is not None:
            past = pairing.History(scratch.published_games(rnd.division), rnd.number)
            made = [
                g
                for g in rnd.games.filter(kind=GameKind.NORMAL)
                if past.met(g.player_a_id, g.player_b_id) and {x, y} & {g.player_a_id, g.player_b_id}
            ]
            assert len(swapped.warnings) >= len(made), "a swap made a rematch without a warning"

    def swap_into_a_rematch(self, rnd: Round):
        """Invariant 5's swap: a swap that pairs two players who have met before says so."""
        past = pairing.History(scratch.published_games(rnd.division), rnd.number)
        games = list(rnd.games.filter(kind=GameKind.NORMAL))
        for game in games:
            met = [p for other in games if other != game for p in (other.player_a_id, other.player_b_id)]
            again = next((p for p in met if past.met(game.player_a_id, p)), None)
            if again is not None:
                swapped = play.swap_players(self.director, rnd, game.player_b_id, again)
                assert swapped.warnings, "a swap made a rematch without a warning"
                return

    # --- results ---------------------------------------------------------------------------------

    @precondition(lambda self: self.games(kind=GameKind.NORMAL, player_b__isnull=False, status__in=OPEN))
    @rule(data=st.data(), a=st.integers(0, 600), b=st.integers(0, 600), zero=st.booleans(), sure=st.booleans())
    def submit(self, data, a, b, zero, sure):
        """A player submits their game's result (or resubmits their own, or tries to submit over the other's)."""
        games = self.games(kind=GameKind.NORMAL, player_b__isnull=False, status__in=OPEN)
        game = _pick(data, games, "game")
        side = data.draw(st.sampled_from(["a", "b"]), label="side")
        user = self.users[game.player_a_id if side == "a" else game.player_b_id]
        a, b = (0, 0) if zero else (a, b)
        self.refused(lambda: play.submit_result(user, game, a, b, confirm_unusual=sure))

    @precondition(lambda self: self.games(status__in=["submitted", "disputed"]))
    @rule(data=st.data(), director=st.booleans())
    def confirm(self, data, director):
        game = _pick(data, self.games(status__in=["submitted", "disputed"]), "game")
        user = self.director if director else self.users[self.opponent_of_submitter(game)]
        self.refused(lambda: play.confirm_result(user, game))

    @precondition(lambda self: self.games(status="submitted"))
    @rule(data=st.data())
    def dispute(self, data):
        game = _pick(data, self.games(status="submitted"), "game")
        opponent = self.users[self.opponent_of_submitter(game)]
        self.refused(lambda: play.dispute_result(opponent, game, "not what we played"))

    @precondition(lambda self: self.games(player_b__isnull=False))
    @rule(data=st.data(), a=st.integers(0, 600), b=st.integers(0, 600), reason=st.sampled_from(["", "slip"]))
    def director_enters(self, data, a, b, reason):
        """A director enters, settles or corrects a result (a correction of a confirmed one needs a reason)."""
        game = _pick(data, self.games(player_b__isnull=False), "game")
        self.refused(lambda: play.submit_result(self.director, game, a, b, reason=reason))

    @precondition(lambda self: self.games())
    @rule(data=st.data(), kind=st.sampled_from(["forfeit", "late_forfeit", "void"]), side=st.sampled_from("ab"))
    def unplayed(self, data, kind, side):
        """A forfeit, late-arrival forfeit or void game recorded on any game of a published round."""
        game = _pick(data, self.games(), "game")
        self.refused(lambda: play.set_unplayed(self.director, game, kind, reason="recorded", forfeited_by=side))

    @precondition(lambda self: self.games(kind=GameKind.BYE))
    @rule(data=st.data(), kind=st.sampled_from(["forfeit", "late_forfeit", "void"]))
    def bye(self, data, kind):
        """The same, on a bye (issue 28 F3): a bye has nobody to forfeit to."""
        game = _pick(data, self.games(kind=GameKind.BYE), "bye")
        self.refused(lambda: play.set_unplayed(self.director, game, kind, reason="no show"))

    def staying(self) -> list[DivisionPlayer]:
        return self.known(
            "staying",
            lambda: list(DivisionPlayer.objects.filter(division__event=self.event, withdrawn_after_round__isnull=True)),
        )

    @precondition(lambda self: self.staying())
    @rule(data=st.data())
    def withdraw(self, data):
        seat = _pick(data, self.staying(), "seat")
        self.refused(lambda: play.withdraw_player(self.director, seat))

    @precondition(lambda self: self.event.rated)
    @rule()
    def rate(self):
        """Invariant 8: once every scheduled round is played and confirmed, live ratings are the run's."""
        divisions = self.divisions()
        games = Game.objects.filter(division__event=self.event)
        done = all(
            Round.objects.filter(division=d).exclude(status=RoundStatus.DRAFT).count() == self.event.number_of_games
            for d in divisions
        )
        if not (done and games.exists() and not games.exclude(status=GameStatus.CONFIRMED).exists()):
            return
        if self.known("rated", lambda: False):
            return  # compared for this state already
        self.answers["rated"] = True
        live = {d.pk: division_live_ratings(d) for d in divisions}
        try:
            with transaction.atomic():
                rating_services.rate_event(Event.objects.get(pk=self.event.pk))
                stored = {
                    (c.division_id, c.player_id): (c.pre, c.post, c.games)
                    for c in RatingChange.objects.filter(division__event=self.event)
                }
                raise Rollback
        except Rollback:
            pass
        expected = {
            (d, pid): (r.pre, r.rating, r.games) for d, ratings in live.items() for pid, r in ratings.players.items()
            if r.games
        }  # fmt: skip
        assert expected == stored, "the live ratings after the last round are not what the rating run stores"

    # --- invariants ------------------------------------------------------------------------------

    @invariant()
    def stored_games_are_results(self):
        """1."""
        for game in Game.objects.filter(division__event=self.event):
            try:
                scratch.as_pure(game, counted=game.status == "confirmed")
            except ResultError as error:
                raise AssertionError(f"stored a game the result rules refuse: {game} {game.kind}: {error}") from None

    @invariant()
    def divisions_keep_their_rules(self):
        """2 to 6, for each division, after every step that changed something."""
        if not self.changed:
            return
        self.changed = False
        for division in self.divisions():
            self.every_read_succeeds(division)
            try:
                expected = scratch.Scratch.of(division)
            except ResultError:
                continue  # invariant 1 says so
            self.tables_are_the_games(division, expected)
            self.prizes_are_the_table(division, expected)
            self.categories_stay_apart(division)
            self.tsh_export_is_the_games(division, expected)
            self.nobody_paired_twice_or_after_withdrawing(division)
            self.unplayed_rounds_said_alike(division)

    def tables_are_the_games(self, division, expected):
        """2."""
        read = play.read_division(division)
        for through in [None, *range(1, Round.objects.filter(division=division).count() + 1)]:
            got = [(r.standing, r.seat.player_id) for r in read.standings(through)]
            assert [s for s, _ in got] == expected.standings(through), f"standings after round {through}"
            assert all(s.player == pid for s, pid in got)
        cross = read.cross_table()
        want = expected.cross_table()
        assert (cross.players, dict(cross.cells), dict(cross.unopposed)) == (
            want.players,
            dict(want.cells),
            dict(want.unopposed),
        ), "cross-table"
        assert read.scorecards() == expected.scorecards(), "scorecards"

    def prizes_are_the_table(self, division, expected):
        """3."""
        report = prizes_io.division_prizes(division, one_prize_per_player=self.event.one_prize_per_player)
        got = [(a.prize, sorted(s.player_id for s in a.seats), a.amount_each) for a in report.awards]
        awards = scratch.awards(division, expected)
        assert got == [(a.prize, sorted(a.players), a.amount_each) for a in awards], "prizes"
        paid = sum((a.amount_each * len(a.seats) for a in report.awards if a.amount_each), Decimal(0))
        due = scratch.prize_money_due(division, expected)
        cents = sum(len(a.seats) - 1 for a in report.awards if a.seats) * Decimal("0.01")
        assert due - cents <= paid <= due, f"prize money awarded {paid} is not the prize table's {due}"

    def categories_stay_apart(self, division):
        """9."""
        category = scratch.prize_category(division)
        assert category is not None, f"{division.name} plays for no category's prizes"
        for seat in DivisionPlayer.objects.filter(division=division).select_related("entry"):
            if seat.entry is not None and seat.entry.category_id != category.pk:
                assert seat.placed_by_director, f"{division.name} seats a player of another category than its prizes'"
        report = prizes_io.division_prizes(division, one_prize_per_player=self.event.one_prize_per_player)
        for award in report.awards:
            for seat in award.seats:
                entered = Entry.objects.filter(pk=seat.entry_id).values_list("category_id", flat=True).first()
                assert entered in (None, category.pk), f"{award.prize} of {category.name} goes to another category"

    def tsh_export_is_the_games(self, division, expected):
        """4."""
        parsed = tsh.parse_t(tsh_io.export_tsh(division))
        rows = scratch.tsh_rows(division)
        for player in parsed.players:
            opponents, scores = rows[player.number]
            assert player.opponents == opponents, f"tsh opponents of line {player.number}"
            known = max((r + 1 for r, s in enumerate(scores) if s is not None), default=0)
            assert player.scores == [0 if s is None else s for s in scores[:known]], f"tsh scores {player.number}"
        done = 0
        for rnd in Round.objects.filter(division=division).order_by("number"):
            if rnd.status == RoundStatus.DRAFT or rnd.games.exclude(status=GameStatus.CONFIRMED).exists():
                break
            done = rnd.number
        if not done:
            return
        by_line = {p.number: p.scores for p in parsed.players}
        seats = list(DivisionPlayer.objects.filter(division=division).order_by("number"))
        uncapped = scratch.pure_standings.StandingsOptions(spread_rules=expected.options.spread_rules)
        standings = scratch.pure_standings.compute_standings(expected.entrants, expected.games, uncapped, done)
        table = {s.player: s for s in standings}
        for player, seat in zip(parsed.players, seats, strict=True):
            wins, losses, spread = scratch.tsh_tally(player.opponents[:done], player.scores[:done], by_line)
            standing = table[seat.player_id]
            assert (wins, losses, spread) == (standing.wins, standing.losses, standing.spread), "tsh tally"

    def nobody_paired_twice_or_after_withdrawing(self, division):
        """5 (who has checked in is checked as each round is paired, in `pair`)."""
        withdrawn = dict(
            DivisionPlayer.objects.filter(division=division, withdrawn_after_round__isnull=False).values_list(
                "player_id", "withdrawn_after_round"
            )
        )
        for rnd in Round.objects.filter(division=division).prefetch_related("games"):
            seen = []
            for g in rnd.games.all():
                seen += [p for p in (g.player_a_id, g.player_b_id) if p]
                for p in (g.player_a_id, g.player_b_id):
                    if p in withdrawn and rnd.number > withdrawn[p]:
                        assert g.kind != GameKind.NORMAL, f"round {rnd.number} pairs a player who withdrew before it"
            assert len(seen) == len(set(seen)), f"round {rnd.number} pairs a player twice"

    def unplayed_rounds_said_alike(self, division):
        """5: the round pages, the wall and the printed pairings against the result rules' own reading."""
        expected = scratch.unplayed_lines(division)
        for number, lines in expected.items():
            html = Client().get(reverse("events:play_round", args=[self.event.slug, division.pk, number]))
            assert html.status_code == 200, f"round {number} page"
            listed = re.search(r'<ul class="small">(.*?)</ul>', html.content.decode(), re.S)
            items = re.findall(r"<li>(.*?)</li>", listed.group(1), re.S) if listed else []
            said = {unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", i)).strip()) for i in items}
            assert said == lines, f"round {number} page says {said}, the games {lines}"
        shown = wall.shown_round(division)
        if shown is not None:
            printed = {
                f"{f.number}. {f.name}: {f.kind}" for f in printing.find_my_table(division, shown) if f.opponent is None
            }
            assert printed == expected[shown.number], "the printed pairings say the unplayed rounds otherwise"
            on_wall = {
                f"{b.first.number}. {b.first.player.name}: {b.kind}"
                for b in wall.boards(division, shown)
                if not b.second
            }
            assert on_wall == expected[shown.number], "the wall says the unplayed rounds otherwise"

    def every_read_succeeds(self, division):
        """6 (the standings, cross-table, scorecards, prizes and tsh export are read by the checks above)."""
        read = play.read_division(division, for_tables=True)
        read.standings(), read.cross_table(), read.scorecards()
        wall.wall_version(division)
        shown = wall.shown_round(division)
        if shown is not None:
            scored = [b for b in wall.boards(division, shown) if b.first_score is not None]
            assert all(b.confirmed for b in scored), "the wall shows an unconfirmed score"
            wall.find_my_table(division, shown)
            printing.round_sheets(division, shown)
        division_live_ratings(division)
        # Pairing the next round, Gibsonized (invariant 7 for it too), then taken back.
        present = scratch.checked_in_players(self.event)
        try:
            with transaction.atomic():
                rnd = play.pair_round(
                    self.director, division, "koth", gibson=True, accept_repeats=True, not_checked_in="exclude"
                )
                if rnd.pairing_notes:
                    self.check_gibson(division, rnd, present)
                self.swap_into_a_rematch(rnd)
                raise Rollback
        except (Rollback, ServiceError):
            pass


def test_tournament_play_keeps_its_rules():
    run_state_machine_as_test(
        PlayMachine,
        settings=settings(
            max_examples=15,
            stateful_step_count=25,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        ),
    )
