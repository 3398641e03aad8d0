"""What a game holds beyond tsh's opponents and scores, written to and read from a `.t` file's per-round fields:
boards, the scores as played before time penalties, overtime, overrun forfeits, ties decided before the tile
adjustment, and who the other player of a forfeit was (the field names: core.tsh_fields)."""

from __future__ import annotations

from events.play.core import results, tsh
from events.play.core import tsh_fields as fields
from events.play.models import GameKind

from .common import PlayError

_OPPONENT_KEYS = {GameKind.LATE_FORFEIT: fields.LATE_OPPONENT, GameKind.FORFEIT: fields.FORFEIT_OPPONENT}
_DEFAULTS = {
    fields.PLAYED: None,
    fields.OVERTIME: 0,
    fields.OVERRUN: 0,
    fields.AHEAD: 0,
    fields.LATE_OPPONENT: 0,
    fields.FORFEIT_OPPONENT: 0,
}


class RoundFields:
    """Every line's per-round fields, filled game by game as the export reads them."""

    def __init__(self, lines: range, rounds: int) -> None:
        self.values = {key: {line: [default] * rounds for line in lines} for key, default in _DEFAULTS.items()}
        self.board = {line: [0] * rounds for line in lines}

    def seated(self, r: int, board: int | None, *lines: int) -> None:
        """The board a game's players (one or two lines) were given, played or not."""
        for line in lines:
            self.board[line][r] = board or 0

    def scored(self, r: int, na: int, nb: int, game: dict) -> None:
        """A scored game's scores as played, overtime, overrun and tie decided before the tile adjustment."""
        for line, side in ((na, "a"), (nb, "b")):
            self.values[fields.PLAYED][line][r] = game[f"played_{side}"]
            self.values[fields.OVERTIME][line][r] = game[f"overtime_{side}"] or 0
            self.values[fields.OVERRUN][line][r] = int(game["overrun"] == side)
        ahead = game["ahead_before_tiles"]
        if ahead == "level":
            self.values[fields.AHEAD][na][r] = self.values[fields.AHEAD][nb][r] = 2
        elif ahead in ("a", "b"):
            self.values[fields.AHEAD][na if ahead == "a" else nb][r] = 1

    def forfeit(self, r: int, na: int, nb: int, kind: str) -> None:
        """A forfeit (late arrival or other) of line `na` to line `nb`, who was there."""
        key = _OPPONENT_KEYS.get(kind)
        if key:
            self.values[key][na][r], self.values[key][nb][r] = nb, na

    def extras(self, line: int, imported_board: list[str]) -> dict[str, list[str]]:
        """The line's fields: the site's own, and `board` (the boards of imported rounds as the file gave them,
        then those of rounds paired here)."""
        written = {key: fields.round_values(v[line], _DEFAULTS[key]) for key, v in self.values.items()}
        board = imported_board + fields.round_values(self.board[line][len(imported_board) :])
        if board:
            written["board"] = board
        return {key: v for key, v in written.items() if v}


def check_fields(f: tsh.TshFile, line_of: dict[int, int]) -> dict[tuple[int, int], tuple[str, int]]:
    """The site's fields of a file are ones it can store, else PlayError naming the line. Returns the forfeits
    against an opponent who was there: (player number, round index) -> (kind, the other player's number), for
    both players, each line naming the other (`lateopp`, `forfeitopp`) and the two spreads opposite."""
    forfeits: dict[tuple[int, int], tuple[str, int]] = {}
    for p in f.players:
        line = line_of[p.number]
        try:
            for r in range(len(p.opponents)):
                _check_round(p, r)
        except results.ResultError as error:
            raise PlayError(f"Line {line}: {error}.", field="file") from None
        for kind, key in _OPPONENT_KEYS.items():
            for r, other in enumerate(p.extra_ints(key)):
                if other in (0, tsh.UNSET):
                    continue
                where = f"Line {line}: round {r + 1}'s {key} {other}"
                if r >= len(p.opponents) or p.opponents[r] != 0 or r >= len(p.scores):
                    raise PlayError(f"{where} names an opponent, but the round is not a scored forfeit.", field="file")
                if not 1 <= other <= len(f.players) or other == p.number:
                    raise PlayError(f"{where} is not another player of the file.", field="file")
                them = f.players[other - 1]
                theirs = fields.value_in_round(them, key, r)
                if theirs != p.number or them.opponents[r : r + 1] != [0] or r >= len(them.scores):
                    raise PlayError(f"{where}, but line {line_of[other]} does not name {p.number}.", field="file")
                if p.scores[r] != -them.scores[r] or p.scores[r] == 0:
                    raise PlayError(
                        f"{where}: the two spreads must be opposite (one loses what the other wins).", field="file"
                    )
                forfeits[(p.number, r)] = (kind, other)
    return forfeits


def _check_round(p: tsh.TshPlayer, r: int) -> None:
    label = f"round {r + 1}'s"
    played = fields.value_in_round(p, fields.PLAYED, r, None)
    if played is not None:
        results.validate_score(played, f"{label} score as played")
    results.validate_overtime(fields.value_in_round(p, fields.OVERTIME, r) or 0, f"{label} overtime")
    for key, allowed in ((fields.OVERRUN, (0, 1)), (fields.AHEAD, (0, 1, 2))):
        if fields.value_in_round(p, key, r) not in allowed:
            raise results.ResultError(f"{label} {key} must be one of {', '.join(map(str, allowed))}")


def scored_game(a: tsh.TshPlayer, b: tsh.TshPlayer, r: int) -> dict:
    """A game's fields beyond its scores, as the two lines' per-round fields give them (for `Game`)."""
    ahead_a, ahead_b = (fields.value_in_round(p, fields.AHEAD, r) for p in (a, b))
    overran_b = fields.value_in_round(b, fields.OVERRUN, r)
    return {
        "played_a": fields.value_in_round(a, fields.PLAYED, r, None),
        "played_b": fields.value_in_round(b, fields.PLAYED, r, None),
        "overtime_a": fields.value_in_round(a, fields.OVERTIME, r) or 0,
        "overtime_b": fields.value_in_round(b, fields.OVERTIME, r) or 0,
        "overrun": "a" if fields.value_in_round(a, fields.OVERRUN, r) else "b" if overran_b else "",
        "ahead_before_tiles": "level" if 2 in (ahead_a, ahead_b) else "a" if ahead_a else "b" if ahead_b else "",
    }
