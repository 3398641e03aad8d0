"""Who goes first (seeds 001, 003), as tsh's `assign_firsts` decides it.

tsh decides starts in its division's SynchFirsts, pair by pair and round by round, from what each
player did in earlier rounds (their `p12`: 1 started, 2 replied, 0 no opponent, 3 or 4 not known):

1. The player who has started fewer games starts.
2. If equal, the one who has replied more often starts.
3. If still equal, tsh draws at random. The site draws too, but from the round's seed, the round and
   the two players, so the draw can be made again; tsh's draw (Perl's generator) cannot be
   reproduced, so on a full tie the site and tsh may choose differently.

Only games against an opponent count. A bye, a forfeit and a void game are opponent 0 in tsh and
neither a start nor a reply, whatever the site recorded. A game whose start was not recorded is
tsh's "indeterminate" start: while either player has one, tsh decides only when the other could not
catch up even if every unknown game had gone the other way (fewer starts by more than the opponent's
unknown games; on exactly that many, more replies by more than the player's own), and draws
otherwise; the site does the same.

tsh's optional refinements (`avoid_sr_runs`, `account_for_h2h_sr`, `final_draw`, `bye_firsts`) are
not offered: the site plays tsh's defaults. A round robin, and the full groups of an initial Fontes
block of five or more rounds, take their starts from tsh's Berger schedule instead
(`schedules.berger_starts`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from events.play.core.results import PlayerId

from .core import History

__all__ = ["assign_firsts", "due_to_start", "order_for_start"]


def _cmp(x: int, y: int) -> int:
    return (x > y) - (x < y)


def order_for_start(
    a: PlayerId, b: PlayerId, history: History, seed: int, round_number: int
) -> tuple[PlayerId, PlayerId]:
    """(starter, other) for a game between a and b."""
    starter = due_to_start(a, b, history)
    if starter is not None:
        return (starter, b if starter == a else a)
    low, high = sorted((a, b))
    draw = random.Random(f"{seed}:{round_number}:{low}:{high}")
    return (low, high) if draw.random() < 0.5 else (high, low)


def due_to_start(a: PlayerId, b: PlayerId, history: History) -> PlayerId | None:
    """Who starts by tsh's rule from the players' earlier starts and replies; None when it is a draw."""
    fa, fb = history.firsts[a], history.firsts[b]
    sa, sb = history.seconds[a], history.seconds[b]
    ua, ub = history.unknown_firsts[a], history.unknown_firsts[b]
    if ua + ub == 0:
        # Fewer starts first, then more replies: one comparison, negative when a should start.
        which = _cmp(fa, fb) or _cmp(sb, sa)
    else:
        # With unknown starts, a is surely "ahead" on starts only by more than b's unknown games (and the
        # same on replies, against a's own unknown games); otherwise it is a draw, as in tsh.
        d1, d2 = fa - fb, sa - sb
        if (_cmp(d1, ub) or _cmp(-d2, ua)) > 0:
            which = 1
        elif (_cmp(-d1, ua) or _cmp(d2, ub)) > 0:
            which = -1
        else:
            which = 0
    return a if which < 0 else b if which > 0 else None


def assign_firsts(
    pairs: Sequence[tuple[PlayerId, PlayerId]], history: History, seed: int, round_number: int
) -> list[tuple[PlayerId, PlayerId]]:
    return [order_for_start(a, b, history, seed, round_number) for a, b in pairs]
