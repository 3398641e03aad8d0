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

Withdrawn players keep their results but are listed after every active
player, so they neither hold nor push down anyone's rank.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from events.core.results import Game, PlayerId, PlayerResult, SpreadRules, player_results

__all__ = [
    "Entrant",
    "StandingsOptions",
    "Standing",
    "compute_standings",
    "CrossCell",
    "CrossTable",
    "cross_table",
    "ScorecardLine",
    "scorecard",
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
    withdrawn: bool = False  # listed after every active player, as tsh does


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
        cap = self.cap_for(result.round)
        if cap is None:
            return result.spread
        return max(-cap, min(cap, result.spread))


@dataclass(frozen=True)
class Standing:
    player: PlayerId
    rank: int  # shared by tied players when ties stand
    position: int  # unique, 1-based
    tied: bool  # True when another player shares this rank
    wins: float
    losses: float
    spread: int
    score: int  # cumulative points scored in normal games
    games: int  # games that count: wins + losses + ties, byes and forfeits included
    byes: int

    @property
    def rank_label(self) -> str:
        return f"={self.rank}" if self.tied else str(self.rank)


@dataclass
class _Tally:
    wins: float = 0.0
    losses: float = 0.0
    spread: int = 0
    score: int = 0
    games: int = 0
    byes: int = 0


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
        results.sort(key=lambda r: r.round)
    return by_player


def _tally(results: Iterable[PlayerResult], options: StandingsOptions) -> _Tally:
    t = _Tally()
    for r in results:
        t.wins += r.wins
        t.losses += r.losses
        t.spread += options.capped(r)
        if r.rated and r.own_score is not None:
            t.score += r.own_score
        if r.wins or r.losses:
            t.games += 1
        if r.letter == "B":
            t.byes += 1
    return t


def compute_standings(
    entrants: Sequence[Entrant],
    games: Iterable[Game],
    options: StandingsOptions = StandingsOptions(),
    through_round: int | None = None,
) -> list[Standing]:
    """Standings after `through_round` (None: all recorded rounds), best first.

    Pending games are ignored. Raises ValueError for a game naming a player
    who is not an entrant.
    """
    by_player = _results_by_player(entrants, games, options, through_round)
    tallies = {e.id: _tally(by_player[e.id], options) for e in entrants}

    def merit(e: Entrant) -> tuple[bool, float, float, int, int]:
        t = tallies[e.id]
        return (e.withdrawn, -t.wins, t.losses, -t.score if options.cumulative_score else 0, -t.spread)

    indexed = list(enumerate(entrants))
    indexed.sort(key=lambda ie: (merit(ie[1]), -ie[1].rating, ie[1].seed, ie[0]))
    ranks: list[int] = []
    for pos, (_, e) in enumerate(indexed, start=1):
        # Competition ranking when ties stand: equal merit shares the group's best position.
        shared = options.ties_stand and pos > 1 and merit(indexed[pos - 2][1]) == merit(e)
        ranks.append(ranks[-1] if shared else pos)
    sharing = Counter(ranks)
    return [
        Standing(
            player=e.id,
            rank=rank,
            position=pos,
            tied=sharing[rank] > 1,
            wins=tallies[e.id].wins,
            losses=tallies[e.id].losses,
            spread=tallies[e.id].spread,
            score=tallies[e.id].score,
            games=tallies[e.id].games,
            byes=tallies[e.id].byes,
        )
        for pos, ((_, e), rank) in enumerate(zip(indexed, ranks, strict=True), start=1)
    ]


# --------------------------------------------------------------------------- cross-table


@dataclass(frozen=True)
class CrossCell:
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

    def cell(self, row: PlayerId, col: PlayerId) -> tuple[CrossCell, ...]:
        return self.cells.get((row, col), ())


def cross_table(
    entrants: Sequence[Entrant],
    games: Iterable[Game],
    options: StandingsOptions = StandingsOptions(),
    through_round: int | None = None,
) -> CrossTable:
    games = list(games)
    order = tuple(s.player for s in compute_standings(entrants, games, options, through_round))
    cells: dict[tuple[PlayerId, PlayerId], list[CrossCell]] = {}
    unopposed: dict[PlayerId, list[CrossCell]] = {}
    for player, results in _results_by_player(entrants, games, options, through_round).items():
        for r in results:
            cell = CrossCell(r.round, r.own_score, r.opp_score, r.letter, options.capped(r))
            if r.opponent is None:
                unopposed.setdefault(player, []).append(cell)
            else:
                cells.setdefault((player, r.opponent), []).append(cell)
    return CrossTable(
        players=order,
        cells={k: tuple(v) for k, v in cells.items()},
        unopposed={k: tuple(v) for k, v in unopposed.items()},
    )


# --------------------------------------------------------------------------- scorecard


@dataclass(frozen=True)
class ScorecardLine:
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
    """Players (best first) who can no longer reach any of the first `prize_places` places.

    A player is out when they cannot catch whoever holds the last prize place
    now, even by winning every game left while that player loses every game.
    """
    if prize_places < 1 or len(standings) <= prize_places:
        return []
    last_prize = standings[prize_places - 1]
    return [s.player for s in standings[prize_places:] if not _can_catch(s, last_prize, rounds_left, spread_allowance)]
