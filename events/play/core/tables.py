"""A multi-player table (seed 001): two to four players round one board, scored and ranked by the club's rule.

Start of play: each player draws a tile; the tile nearest to A starts and a blank beats any letter; players
who drew the same tile draw again (a player's draws are written one after another, "E" then "EK" after a
redraw). The draw gives both the seating and the order of play, clockwise round the table: seat 1 starts.

End of play: the game ends when the hour is up or a player goes out. Each player still holding tiles has
their value deducted; the player who went out (if one did) gains the sum of them. The highest final score
wins, and a tie goes to the higher score before the tile adjustment. Players level on both share the place
("=2"): there is nothing further to tell them apart.

`rank_table` is the one rule every door uses; it refuses what cannot be right with `TableError`, naming the
player (`player`) and the input at fault (`field`), so a form can put the message by the field.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .results import MAX_SCORE, PlayerId

__all__ = [
    "MIN_PLAYERS",
    "MAX_PLAYERS",
    "MAX_RACK_VALUE",
    "MAX_DRAWS",
    "BLANK",
    "TableError",
    "Seat",
    "PlacedSeat",
    "TableResult",
    "order_of_play",
    "rank_table",
]

MIN_PLAYERS = 2
MAX_PLAYERS = 4
# Seven tiles of the highest value any set gives a letter (10): more is a typing slip.
MAX_RACK_VALUE = 70
# A draw repeated this often is a slip, not a run of equal tiles.
MAX_DRAWS = 10
BLANK = "?"


class TableError(ValueError):
    def __init__(self, message: str, player: PlayerId | None = None, field: str = "") -> None:
        super().__init__(message)
        self.player = player
        self.field = field


@dataclass(frozen=True)
class Seat:
    """One player's line on the table sheet: the score before the end-of-game adjustment (the turns' scores
    added up) and the value of the tiles left on their rack when the game ended."""

    player: PlayerId
    score_before: int
    tiles_left: int = 0


@dataclass(frozen=True)
class PlacedSeat:
    player: PlayerId
    seat: int  # 1 starts, then clockwise
    score_before: int
    tiles_left: int
    adjustment: int  # −tiles left, or + the others' tiles for the player who went out
    final: int
    place: int  # 1 is the winner; equal places are shared
    shared: bool  # another player holds the same place

    @property
    def place_label(self) -> str:
        return f"={self.place}" if self.shared else str(self.place)


@dataclass(frozen=True)
class TableResult:
    seats: tuple[PlacedSeat, ...]  # by place, then seat
    went_out: PlayerId | None

    @property
    def winners(self) -> tuple[PlayerId, ...]:
        return tuple(s.player for s in self.seats if s.place == 1)

    def by_seat(self) -> tuple[PlacedSeat, ...]:
        return tuple(sorted(self.seats, key=lambda s: s.seat))


def _tile_key(tile: str) -> int:
    """0 for a blank (it beats any letter), then A=1 … Z=26: the lower key starts."""
    if tile == BLANK:
        return 0
    return ord(tile) - ord("A") + 1


def _draws(player: PlayerId, drawn: str) -> tuple[int, ...]:
    tiles = (drawn or "").strip().upper()
    if not tiles:
        raise TableError("Say which tile this player drew (a letter, or ? for a blank).", player, "draw")
    if len(tiles) > MAX_DRAWS:
        raise TableError(f"At most {MAX_DRAWS} draws are recorded: check the tiles drawn.", player, "draw")
    for tile in tiles:
        if tile != BLANK and not ("A" <= tile <= "Z"):
            raise TableError(
                f"{tile!r} is not a tile: write each tile drawn as a letter A to Z, or ? for a blank.", player, "draw"
            )
    return tuple(_tile_key(t) for t in tiles)


def order_of_play(draws: Mapping[PlayerId, str]) -> tuple[PlayerId, ...]:
    """The players in order of play (seat 1 first, then clockwise) from the tiles each drew.

    Players whose draws are the same so far must draw again until they differ: a draw that leaves two
    players level (one drew again and the other did not, or both drew the same again) is refused, naming
    the second of them. Only the tiles up to the first difference count."""
    keys = {player: _draws(player, drawn) for player, drawn in draws.items()}
    ordered = sorted(keys, key=lambda p: keys[p])
    for first, second in zip(ordered, ordered[1:], strict=False):
        a, b = keys[first], keys[second]
        common = min(len(a), len(b))
        if a[:common] == b[:common]:
            raise TableError(
                "Two players drew the same tile: they draw again, and each one's next tile is written after "
                "the first (for example EK).",
                second,
                "draw",
            )
    return tuple(ordered)


def _check_seat(seat: Seat) -> None:
    for value, field, label, top in (
        (seat.score_before, "score_before", "score before the tile adjustment", MAX_SCORE),
        (seat.tiles_left, "tiles_left", "value of the tiles left", MAX_RACK_VALUE),
    ):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TableError(f"The {label} must be a whole number.", seat.player, field)
        if value < 0:
            raise TableError(f"The {label} cannot be negative.", seat.player, field)
        if value > top:
            raise TableError(f"The {label} of {value} is above {top}: please check it.", seat.player, field)


def rank_table(
    seats: Sequence[Seat],
    *,
    order: Sequence[PlayerId] | None = None,
    went_out: PlayerId | None = None,
) -> TableResult:
    """Adjust and rank a finished table.

    `seats` in any order; `order` is the order of play (from `order_of_play`; the seats' order when not
    given). `went_out` is the player who played their last tile with the bag empty, or None when the time
    ran out: that player has no tiles left and gains everyone else's; otherwise each player loses their own.
    """
    if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        raise TableError(f"A table has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(seats)}.", None, "players")
    players = [s.player for s in seats]
    if len(set(players)) != len(players):
        repeated = next(p for p in players if players.count(p) > 1)
        raise TableError("A player is listed twice at this table.", repeated, "player")
    for seat in seats:
        _check_seat(seat)
    if order is None:
        order = players
    if sorted(order) != sorted(players):
        raise TableError("The order of play must name each player at the table once.", None, "draw")
    by_player = {s.player: s for s in seats}
    others_tiles = 0
    if went_out is not None:
        if went_out not in by_player:
            raise TableError("The player who went out is not at this table.", None, "went_out")
        if by_player[went_out].tiles_left:
            raise TableError(
                "The player who went out has no tiles left: their tiles left must be 0.", went_out, "tiles_left"
            )
        others_tiles = sum(s.tiles_left for s in seats)
    seat_of = {player: n for n, player in enumerate(order, start=1)}
    adjusted = []
    for seat in seats:
        adjustment = others_tiles if seat.player == went_out else -seat.tiles_left
        adjusted.append((seat, adjustment, seat.score_before + adjustment))
    # Highest final score first, then the higher score before the adjustment; seat only orders the listing.
    adjusted.sort(key=lambda row: (-row[2], -row[0].score_before, seat_of[row[0].player]))
    placed: list[PlacedSeat] = []
    for seat, adjustment, final in adjusted:
        level = [r for r in adjusted if r[2] == final and r[0].score_before == seat.score_before]
        place = 1 + next(i for i, r in enumerate(adjusted) if r[2] == final and r[0].score_before == seat.score_before)
        placed.append(
            PlacedSeat(
                player=seat.player,
                seat=seat_of[seat.player],
                score_before=seat.score_before,
                tiles_left=seat.tiles_left,
                adjustment=adjustment,
                final=final,
                place=place,
                shared=len(level) > 1,
            )
        )
    return TableResult(tuple(placed), went_out)
