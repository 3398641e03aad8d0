"""Who goes first (seeds 001, 003).

The player who has started fewer games starts; if equal, the one who has gone
second more often; if still equal, a draw. The draw is seeded by the event's
pairing seed, the round and the two players, so it can be reproduced.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from events.play.core.results import PlayerId

from .core import History

__all__ = ["order_for_start", "assign_firsts"]


def order_for_start(
    a: PlayerId, b: PlayerId, history: History, seed: int, round_number: int
) -> tuple[PlayerId, PlayerId]:
    """(starter, other) for a game between a and b."""
    fa, fb = history.firsts[a], history.firsts[b]
    if fa != fb:
        return (a, b) if fa < fb else (b, a)
    sa, sb = history.seconds[a], history.seconds[b]
    if sa != sb:
        return (a, b) if sa > sb else (b, a)
    low, high = sorted((a, b))
    draw = random.Random(f"{seed}:{round_number}:{low}:{high}")
    return (low, high) if draw.random() < 0.5 else (high, low)


def assign_firsts(
    pairs: Sequence[tuple[PlayerId, PlayerId]], history: History, seed: int, round_number: int
) -> list[tuple[PlayerId, PlayerId]]:
    return [order_for_start(a, b, history, seed, round_number) for a, b in pairs]
