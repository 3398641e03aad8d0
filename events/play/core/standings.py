"""Standings, cross-tables, scorecards and Gibsonization.

Ranking (DOMAIN §2): wins (a tie counts ½), then fewer losses (matters when
players have played different numbers of games), then, if the event uses it,
cumulative score, then cumulative spread. Options per event: a spread cap per
game (one value, or one per round), and "ties stand" (seed 000, Singapore):
players level on all of those share a rank, shown "=3".

Whatever the rank, every standing also has a unique `position`: the order
used for pairing and display, which breaks remaining ties by pre-event rating
(higher first), then seed number (lower first), then the order the entrants
were given in.

Withdrawals (DOMAIN §2, tsh `off`): the standings after round r are the
standings as they were then. A player who withdrew after round w is ranked on
their record like everyone else in the standings after rounds up to w; in the
standings after any later round they are listed after every ranked player,
unranked (`rank` None), so they neither hold nor push down anyone's rank.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import NamedTuple

from events.play.core.results import Game, GameKind, PlayerId, PlayerResult, SpreadRules, player_results

__all__ = [
    "Entrant",
    "StandingsOptions",
    "Standing",
    "compute_standings",
    "MAX_SPREAD_CAP",
    "validate_spread_cap",
    "parse_round_spread_caps",
    "format_round_spread_caps",
    "round_spread_caps",
    "CrossCell",
    "CrossTable",
    "cross_table",
    "ScorecardLine",
    "scorecard",
    "scorecards",
    "gibsonized",
    "out_of_contention",
]


@dataclass(frozen=True)
class Entrant:
    """A player entered in a division, as standings and pairing need them."""

    id: PlayerId
    rating: int = 0  # pre-event rating; 0 = unrated
    seed: int = 0  # seed number; lower is seeded higher
    rating_class: str = ""  # e.g. "B", for class prizes
    # Withdrawn (tsh `off`). With `withdrawn_after` unknown, listed apart in every round's standings.
    withdrawn: bool = False
    # The last round before the withdrawal (0: before round 1). Setting it sets `withdrawn`.
    withdrawn_after: int | None = None

    def __post_init__(self) -> None:
        if self.withdrawn_after is not None and not self.withdrawn:
            object.__setattr__(self, "withdrawn", True)

    def withdrawn_by(self, round_number: int) -> bool:
        """Whether the standings after `round_number` list this player apart, unranked."""
        if not self.withdrawn:
            return False
        return self.withdrawn_after is None or round_number > self.withdrawn_after


@dataclass(frozen=True)
class StandingsOptions:
    """Per-event standings rules.

    `spread_cap`: the most spread one game can count for, either one value
    for every round or a tuple with one value per round (index 0 = round 1;
    None, or a round past the end of the tuple, means no cap).
    """

    spread_rules: SpreadRules = SpreadRules()
    spread_cap: int | tuple[int | None, ...] | None = None
    cumulative_score: bool = False
    ties_stand: bool = False

    def cap_for(self, round_number: int) -> int | None:
        if self.spread_cap is None or isinstance(self.spread_cap, int):
            return self.spread_cap
        index = round_number - 1
        return self.spread_cap[index] if 0 <= index < len(self.spread_cap) else None

    def capped(self, result: PlayerResult) -> int:
        if self.spread_cap is None:  # most events: no lookup by round (tables call this thousands of times a page)
            return result.spread
        cap = self.cap_for(result.round)
        if cap is None:
            return result.spread
        return max(-cap, min(cap, result.spread))


@dataclass(frozen=True)
class Standing:
    player: PlayerId
    rank: int | None  # shared by tied players when ties stand; None: withdrawn, listed apart
    position: int  # unique, 1-based
    tied: bool  # True when another player shares this rank
    wins: float
    losses: float
    spread: int
    score: int  # cumulative points scored in normal games
    games: int  # games that count: wins + losses + ties, byes and forfeits included
    byes: int
    withdrawn: bool = False  # withdrawn before these standings: listed after the ranked players

    @property
    def rank_label(self) -> str:
        if self.rank is None:
            return ""
        return f"={self.rank}" if self.tied else str(self.rank)


@dataclass
class _Tally:
    wins: float = 0.0
    losses: float = 0.0
    spread: int = 0
    score: int = 0
    games: int = 0
    byes: int = 0


_ROUND = itemgetter(0)  # a PlayerResult's round


def _results_by_player(
    entrants: Sequence[Entrant],
    games: Iterable[Game],
    options: StandingsOptions,
    through_round: int | None,
) -> dict[PlayerId, list[PlayerResult]]:
    by_player: dict[PlayerId, list[PlayerResult]] = {e.id: [] for e in entrants}
    for game in games:
        if through_round is not None and game.round > through_round:
            continue
        for result in player_results(game, options.spread_rules):
            if result.player not in by_player:
                raise ValueError(f"round {game.round}: player {result.player} is not an entrant")
            by_player[result.player].append(result)
    for results in by_player.values():
        results.sort(key=_ROUND)
    return by_player


def _tally(results: Iterable[PlayerResult], options: StandingsOptions) -> _Tally:
    # Summed in locals, the kinds compared directly: a large division tallies thousands of results a page.
    wins = losses = 0.0
    spread = score = games = byes = 0
    for r in results:
        wins += r.wins
        losses += r.losses
        spread += options.capped(r)
        kind = r.kind
        if kind is GameKind.NORMAL and r.own_score is not None:
            score += r.own_score
        if r.wins or r.losses:
            games += 1
        if kind is GameKind.BYE:
            byes += 1
    return _Tally(wins, losses, spread, score, games, byes)


def compute_standings(
    entrants: Sequence[Entrant],
    games: Iterable[Game],
    options: StandingsOptions = StandingsOptions(),
    through_round: int | None = None,
) -> list[Standing]:
    """Standings after `through_round` (None: all recorded rounds), best first.

    These are the standings after the last round, up to `through_round`, that
    has a result: a player who withdrew after that round is still ranked.
    Players who withdrew earlier follow the ranked players, unranked.

    Pending games are ignored. Raises ValueError for a game naming a player
    who is not an entrant.
    """
    return _ranked(entrants, _results_by_player(entrants, games, options, through_round), options)


def _ranked(
    entrants: Sequence[Entrant], by_player: dict[PlayerId, list[PlayerResult]], options: StandingsOptions
) -> list[Standing]:
    tallies = {e.id: _tally(by_player[e.id], options) for e in entrants}
    as_of = max((r.round for results in by_player.values() for r in results), default=0)
    apart = {e.id for e in entrants if e.withdrawn_by(as_of)}

    def merit(e: Entrant) -> tuple[bool, float, float, int, int]:
        t = tallies[e.id]
        return (e.id in apart, -t.wins, t.losses, -t.score if options.cumulative_score else 0, -t.spread)

    indexed = list(enumerate(entrants))
    indexed.sort(key=lambda ie: (merit(ie[1]), -ie[1].rating, ie[1].seed, ie[0]))
    ranks: list[int | None] = []
    for pos, (_, e) in enumerate(indexed, start=1):
        if e.id in apart:
            ranks.append(None)
            continue
        # Competition ranking when ties stand: equal merit shares the group's best position.
        shared = options.ties_stand and pos > 1 and merit(indexed[pos - 2][1]) == merit(e)
        ranks.append(ranks[-1] if shared else pos)
    sharing = Counter(r for r in ranks if r is not None)
    return [
        Standing(
            player=e.id,
            rank=rank,
            position=pos,
            tied=rank is not None and sharing[rank] > 1,
            wins=tallies[e.id].wins,
            losses=tallies[e.id].losses,
            spread=tallies[e.id].spread,
            score=tallies[e.id].score,
            games=tallies[e.id].games,
            byes=tallies[e.id].byes,
            withdrawn=e.id in apart,
        )
        for pos, ((_, e), rank) in enumerate(zip(indexed, ranks, strict=True), start=1)
    ]


# --------------------------------------------------------------------------- per-round spread caps

# The most a spread cap may be, per game or per round: a cap above any real game's margin is a typing slip.
MAX_SPREAD_CAP = 1000


def validate_spread_cap(cap: int, label: str = "spread cap") -> int:
    """The one bound of a spread cap, whether one for every round or one per round: 1 to MAX_SPREAD_CAP."""
    if not 1 <= cap <= MAX_SPREAD_CAP:
        raise ValueError(f"{label} of {cap} is not between 1 and {MAX_SPREAD_CAP} points")
    return cap


def parse_round_spread_caps(text: str) -> tuple[int | None, ...]:
    """Per-round spread caps as written by a director or in tsh's config.

    "200, 700, , 300" or "[200, 700, 0, 300]" -> (200, 700, None, 300): one
    entry per round from round 1; an empty entry or 0 means no per-round cap
    for that round. Blank text -> (). Raises ValueError naming a bad entry.
    """
    text = text.strip()
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
    if not text.strip():
        return ()
    caps: list[int | None] = []
    for n, raw in enumerate(text.split(","), start=1):
        raw = raw.strip()
        if not raw:
            caps.append(None)
            continue
        if not raw.isdigit():
            raise ValueError(f"round {n}: {raw[:20]!r} is not a whole number of points")
        cap = int(raw)
        caps.append(validate_spread_cap(cap, f"round {n}: a cap") if cap else None)
    while caps and caps[-1] is None:
        caps.pop()
    return tuple(caps)


def format_round_spread_caps(caps: Sequence[int | None]) -> str:
    """(200, None, 300) -> "200,,300", the text `parse_round_spread_caps` reads back."""
    return ",".join("" if c is None else str(c) for c in caps)


def round_spread_caps(
    per_round: Sequence[int | None], every_round: int | None = None, rounds: int = 0
) -> int | tuple[int | None, ...] | None:
    """The `StandingsOptions.spread_cap` of an event with per-round caps and one cap for the rest.

    A round without its own cap (an empty entry, or a round past the list)
    gets `every_round`; the list is extended to `rounds` (the event's number
    of games) so that later rounds keep that cap.
    """
    if not any(c is not None for c in per_round):
        return every_round
    length = max(len(per_round), rounds)
    return tuple(
        per_round[i] if i < len(per_round) and per_round[i] is not None else every_round for i in range(length)
    )


# --------------------------------------------------------------------------- cross-table


class CrossCell(NamedTuple):
    """One game in a cross-table cell, from the row's side (a named tuple: a large division has thousands)."""

    round: int
    own_score: int | None
    opp_score: int | None
    letter: str  # W, L, T, or F for a forfeit, V void
    spread: int  # as counted (capped)


@dataclass(frozen=True)
class CrossTable:
    """Who met whom: rows and columns in standings order.

    `cells[(row, col)]` lists the games of `row` against `col`, from row's
    side, in round order (more than one when they met more than once).
    `unopposed[player]` lists byes and forfeits without an opponent.
    """

    players: tuple[PlayerId, ...]
    cells: Mapping[tuple[PlayerId, PlayerId], tuple[CrossCell, ...]]
    unopposed: Mapping[PlayerId, tuple[CrossCell, ...]] = field(default_factory=dict)
    standings: tuple[Standing, ...] = ()  # the standings giving that order, for the rows' totals

    def cell(self, row: PlayerId, col: PlayerId) -> tuple[CrossCell, ...]:
        return self.cells.get((row, col), ())


def cross_table(
    entrants: Sequence[Entrant],
    games: Iterable[Game],
    options: StandingsOptions = StandingsOptions(),
    through_round: int | None = None,
) -> CrossTable:
    by_player = _results_by_player(entrants, games, options, through_round)
    standings = tuple(_ranked(entrants, by_player, options))
    # Tuples grown a cell at a time: most pairs meet once, so this is cheaper than lists turned into tuples.
    cells: dict[tuple[PlayerId, PlayerId], tuple[CrossCell, ...]] = {}
    unopposed: dict[PlayerId, tuple[CrossCell, ...]] = {}
    for player, results in by_player.items():
        for r in results:
            cell = CrossCell(r.round, r.own_score, r.opp_score, r.letter, options.capped(r))
            if r.opponent is None:
                unopposed[player] = unopposed.get(player, ()) + (cell,)
            else:
                key = (player, r.opponent)
                cells[key] = cells.get(key, ()) + (cell,)
    return CrossTable(players=tuple(s.player for s in standings), cells=cells, unopposed=unopposed, standings=standings)


# --------------------------------------------------------------------------- scorecard


class ScorecardLine(NamedTuple):
    """One line of a player's scorecard (a named tuple: every scorecard of a large division is thousands)."""

    round: int
    opponent: PlayerId | None
    went_first: bool | None  # True first, False second, None unknown or no opponent
    own_score: int | None
    opp_score: int | None
    result: str  # W, L, T, B bye, F forfeit, V void
    spread: int  # this game's spread as counted (capped)
    running_wins: float
    running_losses: float
    running_spread: int


def scorecard(
    player: PlayerId,
    entrants: Sequence[Entrant],
    games: Iterable[Game],
    options: StandingsOptions = StandingsOptions(),
    through_round: int | None = None,
) -> list[ScorecardLine]:
    """One player's games in round order with running totals."""
    results = _results_by_player(entrants, games, options, through_round)[player]
    return _scorecard_lines(results, options)


def scorecards(
    entrants: Sequence[Entrant],
    games: Iterable[Game],
    options: StandingsOptions = StandingsOptions(),
    through_round: int | None = None,
) -> dict[PlayerId, list[ScorecardLine]]:
    """Every entrant's scorecard (as `scorecard` gives each), from one pass over the games."""
    by_player = _results_by_player(entrants, games, options, through_round)
    return {player: _scorecard_lines(results, options) for player, results in by_player.items()}


def _scorecard_lines(results: Iterable[PlayerResult], options: StandingsOptions) -> list[ScorecardLine]:
    lines: list[ScorecardLine] = []
    wins = losses = 0.0
    spread = 0
    for r in results:
        capped = options.capped(r)
        wins, losses, spread = wins + r.wins, losses + r.losses, spread + capped
        lines.append(
            ScorecardLine(
                r.round, r.opponent, r.went_first, r.own_score, r.opp_score, r.letter, capped, wins, losses, spread
            )
        )
    return lines


# --------------------------------------------------------------------------- Gibsonization


def _can_catch(chaser: Standing, target: Standing, rounds_left: int, allowance: int) -> bool:
    """Whether `chaser`, winning every game left while `target` loses all, can
    still finish level or ahead of `target`.

    A lead in wins greater than the rounds left cannot be closed; a lead equal
    to them can be closed only if the spread gap is within the catch-up
    allowance (`allowance` points per round left).
    """
    lead = target.wins - chaser.wins
    if lead < rounds_left:
        return True
    if lead > rounds_left:
        return False
    return target.spread - chaser.spread <= allowance * rounds_left


def gibsonized(standings: Sequence[Standing], rounds_left: int, spread_allowance: int = 200) -> PlayerId | None:
    """The leader if nobody can catch them any more, else None.

    `standings` are those of the players still playing, best first.
    `spread_allowance` is the spread a chaser is assumed able to make up per
    round left (200 is common).
    """
    if len(standings) < 2 or rounds_left < 0:
        return None
    leader, rest = standings[0], standings[1:]
    if any(_can_catch(other, leader, rounds_left, spread_allowance) for other in rest):
        return None
    return leader.player


def out_of_contention(
    standings: Sequence[Standing], rounds_left: int, prize_places: int, spread_allowance: int = 200
) -> list[PlayerId]:
    """Players (best first) who can no longer finish in a prize place: tsh's "lowest prize band".

    `standings` are those of the players still playing, best first; the first `prize_places` places
    carry prizes. A player is out when their best possible finish is below the last prize place
    (tsh's PairOneGibson: MaxRank above the last prize rank), that is when they cannot catch whoever
    holds the last prize place now, winning every game left while that player loses every game.

    Whoever holds a prize place is in contention, even if their place can no longer change: they are
    still in the money, and the Gibsonized leader is not theirs to play (NASPA's rule, as tsh's). When
    the prizes reach the whole field (or below it), nobody is out.
    """
    places = max(prize_places, 1)
    if len(standings) <= places:
        return []
    last_paid = standings[places - 1]
    return [s.player for s in standings[places:] if not _can_catch(s, last_paid, rounds_left, spread_allowance)]
