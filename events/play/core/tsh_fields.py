"""The site's own per-round fields on a `.t` player line, beside tsh's, for what tsh has no field for.

tsh keeps on a player's line every extra field it does not know and writes it back unchanged, so these names
(none of them tsh's) survive a trip through tsh and are read back by the site's import:

- `played`: the score as played at the table, before time penalties (`00`: not recorded apart). The `.t`
  scores themselves are the scores after time penalties: tsh has no time penalty of its own, the director
  enters the score less the penalty, so tsh's wins, losses and spreads equal the site's. tsh's `penalty`
  field is something else (a spread taken from one side only, the opponent's spread unchanged) that the
  site does not apply: an imported one is kept as it was written.
- `overtime`: seconds over the time control (0: none).
- `overrun`: 1 where the player overran the time by the event's forfeit limit and so lost the game.
- `ahead`: a level game decided by the score before the end-of-game tile adjustment: 1 for the player who
  was ahead then, 2 on both lines when they were level then too (0: no such decision).
- `lateopp` and `forfeitopp`: a late-arrival forfeit, or a forfeit, against an opponent who was there. tsh
  writes a forfeit as a round without an opponent (opponent 0) scored with the spread each side gets, as
  here; these name the other player of that game (0: none), on both lines, so the one game comes back.

Each is one value a round (index 0 = round 1), written only when some round has one.
"""

from __future__ import annotations

from events.play.core.tsh import UNSET, TshPlayer

__all__ = [
    "PLAYED",
    "OVERTIME",
    "OVERRUN",
    "AHEAD",
    "LATE_OPPONENT",
    "FORFEIT_OPPONENT",
    "GAME_KEYS",
    "round_values",
    "value_in_round",
]

PLAYED, OVERTIME, OVERRUN, AHEAD = "played", "overtime", "overrun", "ahead"
LATE_OPPONENT, FORFEIT_OPPONENT = "lateopp", "forfeitopp"
# The fields the site writes from its games (and reads back into them): never kept on a seat as written.
GAME_KEYS = (PLAYED, OVERTIME, OVERRUN, AHEAD, LATE_OPPONENT, FORFEIT_OPPONENT)


def round_values(values: list[int | None], default: int | None = 0) -> list[str]:
    """One round's value after another as a `.t` field writes them (`00` for None), the trailing defaults
    left off (tsh reads a missing value as none); [] when no round has a value."""
    end = len(values)
    while end and values[end - 1] == default:
        end -= 1
    return ["00" if v is None else str(v) for v in values[:end]]


def value_in_round(player: TshPlayer, key: str, index: int, default: int | None = 0) -> int | None:
    """The value of a per-round field in round `index + 1` (`00` reads as None), `default` when not written."""
    values = player.extra_ints(key)
    if index >= len(values):
        return default
    return None if values[index] == UNSET else values[index]
