"""One read of a division for every page, the API and prizes: its seats, its games as the pure cores see
them, its rules; the standings, cross-table and scorecards are built from that read and nothing else.

What it holds, and so what anybody sees: results count once confirmed; a submitted score is a pending
pairing until then; nothing of a draft round counts (not even its bye) until it is published; a player
who withdrew is ranked through the rounds they played and listed apart after that. Whatever is stored, it
reads: a row the result rules would refuse is read as the nearest thing they know (results.recorded_game).

Who sees a result's scores before it is confirmed is one rule, `result_visible`, which every page and the
API ask: the event's directors and the game's two players."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from django.db.models import JSONField, Q, Value
from django.db.models.functions import NullIf

from events.models import Event
from events.play.core import results
from events.play.core import standings as pure_standings
from events.play.models import Division, DivisionPlayer, Game, GameKind, GameStatus, Round, RoundStatus
from players.models import Player, shown_name


def spread_rules(event: Event) -> results.SpreadRules:
    """The spread the event awards for byes, forfeits and late-arrival forfeits."""
    return results.SpreadRules(
        bye_spread=event.bye_spread,
        forfeit_spread=event.forfeit_spread,
        late_forfeit_spread=event.late_forfeit_spread,
    )


def standings_options(event: Event) -> pure_standings.StandingsOptions:
    return pure_standings.StandingsOptions(
        spread_rules=spread_rules(event),
        spread_cap=event.standings_spread_cap(),
        ties_stand=event.ties_stand,
    )


GAME_FIELDS = (
    "round_number",
    "kind",
    "status",
    "player_a_id",
    "player_b_id",
    "score_a",
    "score_b",
    "spread_a",
    "first",
    "overrun",
    "ahead_before_tiles",
)

_KINDS = {kind.value: kind for kind in results.GameKind}  # a stored kind's member, without the enum's call
_NORMAL = results.GameKind.NORMAL
_AWARDED = (results.GameKind.BYE, results.GameKind.FORFEIT, results.GameKind.LATE_FORFEIT)


def pure_game(row: tuple, *, scored: bool = True) -> results.Game:
    """A stored game (its GAME_FIELDS, in that order) as the pure cores see it. `scored=False` keeps only
    the pairing (a pending game). Tuples rather than dicts: a large division reads thousands a page.

    Never refuses: a row the result rules would not accept (stored before a rule was there, or by hand) is
    read by `results.recorded_game` as the nearest thing the rules know, so every table still draws."""
    rnd, kind, _, a, b, score_a, score_b, spread_a, first, overrun, ahead = row
    first = a if first == "a" else b if first == "b" else None
    kind = _KINDS.get(kind, kind)
    try:
        if kind is _NORMAL:
            if not scored:
                return results.Game(rnd, a, b, first=first)
            level = score_a is not None and score_a == score_b
            tie_winner = (a if ahead == "a" else b if ahead == "b" else None) if level and not overrun else None
            return results.Game(rnd, a, b, score_a, score_b, kind, first, None, tie_winner)  # positional: cheaper
        award = abs(spread_a) if kind in _AWARDED and spread_a is not None else None
        return results.Game(rnd, a, b, kind=kind, first=first, award=award)
    except (results.ResultError, ValueError):
        award = abs(spread_a) if kind in _AWARDED and spread_a is not None else None
        scores = (score_a, score_b) if scored and kind is _NORMAL else (None, None)
        return results.recorded_game(rnd, a, b, *scores, kind, first, award)


def division_games(division: Division, *, confirmed_only: bool) -> list[results.Game]:
    """One query: the division's published games as pure objects (unconfirmed ones as pending pairings)."""
    # Every game of the division but a draft round's: a NOT IN that PostgreSQL works out once and hashes. Asked
    # for the published rounds instead (IN, planned as a join), it guesses how many games the division has, and
    # for one newer than its statistics (a tournament in progress) it guessed one and looked the rounds up once
    # a game: 5 ms for 2,250 games. Joined to every round, it reads them all.
    drafts = Round.objects.filter(division=division, status=RoundStatus.DRAFT)
    rows = (
        Game.objects.filter(division=division)
        .exclude(round__in=drafts)
        .order_by("round_number", "board", "pk")
        .values_list(*GAME_FIELDS)
    )
    confirmed = GameStatus.CONFIRMED.value
    return [pure_game(r, scored=r[2] == confirmed or not confirmed_only) for r in rows]


def result_visible(status: str, user, *, directing: bool, user_ids: tuple[int | None, ...] = ()) -> bool:
    """The one rule for who sees a result's scores: everybody once it is confirmed; before that (submitted
    or disputed) only the event's directors and the game's two players (`user_ids`: their accounts).
    A public display (the wall at the venue) asks for nobody in particular: `user=None`."""
    if status == GameStatus.CONFIRMED or directing:
        return True
    if not (user and user.is_authenticated):
        return False
    return user.pk in {uid for uid in user_ids if uid is not None}


def scores_visible(game: Game, user, *, directing: bool, players=None) -> bool:
    """`result_visible` for a stored game; the pages and the API ask this. `players`: the two players (or
    seats' players, the second None for a bye) when the caller has read them already."""
    if game.status == GameStatus.CONFIRMED or directing:
        return True
    a, b = players or (game.player_a, game.player_b if game.player_b_id else None)
    return result_visible(game.status, user, directing=directing, user_ids=(a and a.user_id, b and b.user_id))


def rating_class(seat: DivisionPlayer) -> str:
    """The tsh rating class a seat was imported with (for class prizes), or ''."""
    value = (seat.tsh_extras or {}).get("class", "")
    if isinstance(value, list):
        value = value[0] if value else ""
    return str(value)


@dataclass(frozen=True)
class StandingRow:
    standing: pure_standings.Standing
    seat: DivisionPlayer | TableSeat

    def __getattr__(self, name):
        return getattr(self.standing, name)


@dataclass(frozen=True)
class TimeNote:
    """Where time changed a recorded score, from one player's side: scores as played, own penalty, and
    who overran (APSP forfeit): "me", "opponent" or ""."""

    own_played: int | None
    opp_played: int | None
    own_penalty: int
    opp_penalty: int
    overrun: str


@dataclass
class DivisionRead:
    """A division as read once (three queries): build every table from this."""

    division: Division
    seats: dict[int, DivisionPlayer] | dict[int, TableSeat]  # by player id
    entrants: list[pure_standings.Entrant]
    games: list[results.Game]
    options: pure_standings.StandingsOptions

    def standings(self, through_round: int | None = None) -> list[StandingRow]:
        table = pure_standings.compute_standings(self.entrants, self.games, self.options, through_round)
        return [StandingRow(row, self.seats[row.player]) for row in table]

    def cross_table(self, through_round: int | None = None) -> pure_standings.CrossTable:
        return pure_standings.cross_table(self.entrants, self.games, self.options, through_round)

    def scorecard(self, player_id: int) -> list[pure_standings.ScorecardLine]:
        """One player's scorecard (with `time_notes` for where time changed a score)."""
        return pure_standings.scorecard(player_id, self.entrants, self.games, self.options)

    def scorecards(self) -> dict[int, list[pure_standings.ScorecardLine]]:
        """Every seat's scorecard by player id, from one pass over the games (one scorecard at a time
        reads them all again for each player: 1.4 s for 300 players and 15 rounds)."""
        return pure_standings.scorecards(self.entrants, self.games, self.options)

    @cached_property
    def time_notes(self) -> dict[tuple[int, int], TimeNote]:
        """(round, player) -> TimeNote for confirmed games whose score time changed (one query, when a
        scorecard is drawn)."""
        games = (
            Game.objects.filter(division=self.division, status=GameStatus.CONFIRMED, kind="normal")
            .filter(Q(overtime_a__gt=0) | Q(overtime_b__gt=0) | ~Q(overrun=""))
            .order_by()  # into a dict: the model's ordering would join the division and its event
        )
        notes = {}
        for g in games:
            for side, other, player in (("a", "b", g.player_a_id), ("b", "a", g.player_b_id)):
                overrun = "me" if g.overrun == side else "opponent" if g.overrun == other else ""
                notes[(g.round_number, player)] = TimeNote(
                    g.played(side), g.played(other), g.penalty(side), g.penalty(other), overrun
                )
        return notes


def division_seats(division: Division) -> dict[int, DivisionPlayer]:
    """The division's seats by player id, in seat order, each with its player (two queries)."""
    # By seat number within the one division (the default ordering's join to the event sorts the same). The
    # players by their ids: joined, PostgreSQL reads every player to find a division's 300; put in by hand, as
    # Django's prefetching costs as much again as reading them (300 players: ~4 ms).
    seats = list(DivisionPlayer.objects.filter(division=division).order_by("number"))
    players = Player.objects.in_bulk({s.player_id for s in seats})
    remember = DivisionPlayer.player.field.set_cached_value
    for seat in seats:
        remember(seat, players[seat.player_id])
    return {s.player_id: s for s in seats}


@dataclass(frozen=True, slots=True, eq=False)
class TablePlayer:
    """What the division's tables show of a player."""

    id: int
    name: str
    user_id: int | None


@dataclass(frozen=True, slots=True, eq=False)
class TableSeat:
    """A seat as the division's tables (standings, cross-table, a round's boards) show it, read as plain
    rows: a 300-player division's seats and players as model instances cost those pages ~8 ms each and a
    third of the objects they leave to the garbage collector."""

    player_id: int
    number: int
    rating: int
    withdrawn_after_round: int | None
    tsh_extras: dict
    player: TablePlayer
    joined_in_round: int = 1


def unplayed_label(kind: str, spread: int | None, seat: TableSeat | DivisionPlayer | None, number: int) -> str:
    """What a game without an opponent counts for its player, as every page and printout says it: "Bye (+50)",
    "Forfeit loss (-50)", "Void (neither a win nor a loss)"; for a round after the player withdrew, said as
    such ("Withdrawn after round 2: forfeit loss (-50)"), so nobody reads a missed round as a game played.
    The standings, the cross-table and the tsh file count the same game (kind and spread) the same way."""
    what = GameKind(kind).label
    if kind == GameKind.VOID:
        what = "Void (neither a win nor a loss)"
    elif spread is not None:
        what += f" ({spread:+d})"
    withdrawn = getattr(seat, "withdrawn_after_round", None)
    if withdrawn is not None and withdrawn < number:
        return f"{withdrawn_when(withdrawn).capitalize()}: {what[:1].lower()}{what[1:]}"
    return what


def withdrawn_when(after: int) -> str:
    """ "withdrawn after round 2", or "withdrawn before round 1" for a player who never played."""
    return f"withdrawn after round {after}" if after else "withdrawn before round 1"


def table_seats(division: Division) -> dict[int, TableSeat]:
    """The division's seats by player id, in seat order, as its tables show them (two queries, as
    `division_seats`)."""
    return _table_seats(DivisionPlayer.objects.filter(division=division)).get(division.pk, {})


def event_table_seats(event: Event) -> dict[int, dict[int, TableSeat]]:
    """`table_seats` of every division of the event, by division id (two queries whatever their number)."""
    return _table_seats(DivisionPlayer.objects.filter(division__event=event))


def _table_seats(seats) -> dict[int, dict[int, TableSeat]]:
    rows = list(
        seats.order_by("division_id", "number")
        # Most seats have no tsh extras: NULL for those, so only an imported seat's JSON is decoded.
        .annotate(extras=NullIf("tsh_extras", Value({}, output_field=JSONField())))
        .values_list(
            "division_id", "player_id", "number", "rating", "withdrawn_after_round", "extras", "joined_in_round"
        )
    )
    if not rows:
        return {}
    # By their ids, for `division_seats`' reason (joined, PostgreSQL reads every player to find a division's
    # 300); unordered, as they go into a dict (the model's ordering would sort them by name).
    players = Player.objects.filter(pk__in={row[1] for row in rows}).order_by()
    by_id = {
        pk: TablePlayer(pk, shown_name(display_name, full_name), user_id)
        for pk, display_name, full_name, user_id in players.values_list("pk", "display_name", "full_name", "user_id")
    }
    found: dict[int, dict[int, TableSeat]] = {}
    for division_id, pid, number, rating, withdrawn, extras, joined in rows:
        found.setdefault(division_id, {})[pid] = TableSeat(
            pid, number, rating, withdrawn, extras or {}, by_id[pid], joined
        )
    return found


def read_division(division: Division, *, for_tables: bool = False) -> DivisionRead:
    """The division read once. `for_tables`: its seats as `TableSeat`s, all the standings and cross-table
    pages show of them (every other reader gets the model instances)."""
    seats = table_seats(division) if for_tables else division_seats(division)
    entrants = [
        pure_standings.Entrant(
            id=s.player_id,
            rating=s.rating,
            seed=s.number,
            rating_class=rating_class(s),
            withdrawn_after=s.withdrawn_after_round,
        )
        for s in seats.values()
    ]
    return DivisionRead(
        division=division,
        seats=seats,
        entrants=entrants,
        games=division_games(division, confirmed_only=True),
        options=standings_options(division.event),
    )


def standings(division: Division, through_round: int | None = None) -> list[StandingRow]:
    """Standings from confirmed results, as they were after `through_round` (three queries)."""
    return read_division(division).standings(through_round)
