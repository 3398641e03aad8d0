"""A club's ladder: season standings from its nights, by the points the club sets.

A one-on-one game gives the winner the club's points for a win, each player of a level game the points for
a tie (unless the club breaks ties by the score before the tile adjustment and the game names who led: then
it is a win and a loss), the loser the points for a loss. A table gives each player the points for their
place (players sharing a place each get that place's points; places beyond the club's list give none). Each
night a player attended gives the attendance points once, however many games they played there; a player
who played at a night attended it, whether or not they were checked in.

Rows are ranked by points, then wins (a win at a table is first place), then nights attended; players level
on all three share the rank. Only confirmed games are given to `ladder`: the caller decides that.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .results import PlayerId

__all__ = ["MAX_POINTS", "LadderPoints", "PairGame", "TablePlaces", "LadderRow", "ladder", "game_points"]

# Points for one result or one night; more is a typing slip (and keeps a season's sum far from overflow).
MAX_POINTS = 100


@dataclass(frozen=True)
class LadderPoints:
    win: int = 2
    tie: int = 1
    loss: int = 0
    places: tuple[int, ...] = (4, 2, 1, 0)  # first, second, third, fourth at a table
    attendance: int = 1

    def check(self) -> None:
        """Refuses points a club cannot mean, naming the setting (ValueError)."""
        for label, value in (
            ("a win", self.win),
            ("a tie", self.tie),
            ("a loss", self.loss),
            ("attending a night", self.attendance),
            *((f"place {n} at a table", v) for n, v in enumerate(self.places, start=1)),
        ):
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_POINTS:
                raise ValueError(f"The points for {label} must be a whole number from 0 to {MAX_POINTS}.")
        if len(self.places) > 4:
            raise ValueError("A table has at most four places.")

    def for_place(self, place: int) -> int:
        return self.places[place - 1] if 1 <= place <= len(self.places) else 0


@dataclass(frozen=True)
class PairGame:
    night: int
    player_a: PlayerId
    player_b: PlayerId
    score_a: int
    score_b: int
    tie_winner: PlayerId | None = None


@dataclass(frozen=True)
class TablePlaces:
    night: int
    places: tuple[tuple[PlayerId, int], ...]  # (player, place), places as `tables.rank_table` gives them


@dataclass(frozen=True)
class LadderRow:
    player: PlayerId
    points: int
    wins: float
    games: int
    nights: int
    rank: int
    shared: bool

    @property
    def rank_label(self) -> str:
        return f"={self.rank}" if self.shared else str(self.rank)


def game_points(game: PairGame, points: LadderPoints) -> dict[PlayerId, tuple[int, float]]:
    """Each player's (points, wins) from one one-on-one game."""
    a, b = game.player_a, game.player_b
    if game.score_a == game.score_b and game.tie_winner is None:
        return {a: (points.tie, 0.5), b: (points.tie, 0.5)}
    a_won = game.score_a > game.score_b if game.score_a != game.score_b else game.tie_winner == a
    winner, loser = (a, b) if a_won else (b, a)
    return {winner: (points.win, 1.0), loser: (points.loss, 0.0)}


def ladder(
    points: LadderPoints,
    attendance: Iterable[tuple[int, PlayerId]] = (),
    games: Sequence[PairGame] = (),
    tables: Sequence[TablePlaces] = (),
) -> tuple[LadderRow, ...]:
    """The season's standings. `attendance` holds (night, player) pairs of players checked in."""
    nights: dict[PlayerId, set[int]] = defaultdict(set)
    score: dict[PlayerId, int] = defaultdict(int)
    wins: dict[PlayerId, float] = defaultdict(float)
    played: dict[PlayerId, int] = defaultdict(int)
    for night, player in attendance:
        nights[player].add(night)
    for game in games:
        for player, (got, won) in game_points(game, points).items():
            score[player] += got
            wins[player] += won
            played[player] += 1
            nights[player].add(game.night)
    for table in tables:
        for player, place in table.places:
            score[player] += points.for_place(place)
            wins[player] += 1.0 if place == 1 else 0.0
            played[player] += 1
            nights[player].add(table.night)
    rows = []
    for player, attended in nights.items():
        rows.append((score[player] + points.attendance * len(attended), wins[player], played[player], len(attended)))
    keyed = sorted(zip(nights, rows, strict=True), key=lambda item: (-item[1][0], -item[1][1], -item[1][3], item[0]))
    counts: dict[tuple, int] = defaultdict(int)
    for _, (total, won, _games, attended) in keyed:
        counts[(total, won, attended)] += 1
    result: list[LadderRow] = []
    rank, previous = 0, None
    for position, (player, (total, won, games_played, attended)) in enumerate(keyed, start=1):
        key = (total, won, attended)
        if key != previous:
            rank, previous = position, key
        result.append(LadderRow(player, total, won, games_played, attended, rank, counts[key] > 1))
    return tuple(result)
