"""Printed round material: a scorecard per player for the next round (board, opponent, who goes first,
each player's record so far), pairings by name for the door and result slips. Records come from the one
read of the division (reads.read_division), as they stood after the previous round."""

from __future__ import annotations

from dataclasses import dataclass

from clubsite.kit.wins import format_record
from events.play.models import Division, Round

from .reads import TableSeat, read_division
from .wall import boards, find_my_table


@dataclass(frozen=True)
class Record:
    wins: float = 0
    losses: float = 0
    spread: int = 0

    def __str__(self):
        return f"{format_record(self.wins, self.losses)}, {self.spread:+d}"


@dataclass
class Side:
    seat: TableSeat
    record: Record
    goes_first: bool | None  # None: decided at the table (draw tiles)


@dataclass
class Sheet:
    board: int | None
    first: Side
    second: Side | None
    kind: str  # bye, forfeit …; "" for a game


def round_sheets(division: Division, rnd: Round) -> list[Sheet]:
    """One sheet per board (unplayed rounds last), the records being those after the previous round."""
    records = {}
    seats = None
    if rnd.number > 1:
        read = read_division(division, for_tables=True)
        seats = read.seats
        for row in read.standings(rnd.number - 1):
            records[row.player] = Record(row.wins, row.losses, row.spread)
    sheets = []
    for b in boards(division, rnd, seats):
        known = b.first_known and b.second is not None
        first = Side(b.first, records.get(b.first.player_id, Record()), True if known else None)
        second = None
        if b.second is not None:
            second = Side(b.second, records.get(b.second.player_id, Record()), False if known else None)
        sheets.append(Sheet(b.board, first, second, b.kind))
    return sheets


def scorecards(sheets: list[Sheet]) -> list[tuple[Sheet, Side, Side | None]]:
    """One card per player who plays a game (byes and forfeits need none), in board order."""
    cards = []
    for sheet in sheets:
        if sheet.kind or sheet.second is None:
            continue
        cards.append((sheet, sheet.first, sheet.second))
        cards.append((sheet, sheet.second, sheet.first))
    return cards


__all__ = ["Record", "Sheet", "Side", "find_my_table", "round_sheets", "scorecards"]
