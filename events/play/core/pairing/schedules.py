"""Fixed schedules: round robin (initial Fontes, in `fontes`, uses the same Berger rounds).

The schedules rest on the circle method: the first player stays put while the others
turn round a ring, so with an even number m of places every pair meets
exactly once in m-1 rounds. An odd field gets a phantom (None) in the last
place; whoever meets it has the bye.

The round robin follows tsh's Berger tables, so a director can switch between
tsh and the site mid-event and players find the schedule tsh would post: the
ring is seeded 3, 5, 7, ..., m, ..., 6, 4, 2 and the first seed meets m, m-1,
..., 2 in turn, which makes the last round 1v2, 3v4, ..., a King of the Hill.
A double round robin, as tsh's `rr 2` pairs it, plays each Berger round twice
in a row: the same pairs meet in rounds 1 and 2, 3 and 4, and so on, the
player who went second in the first game going first in the second.
"""

from __future__ import annotations

from collections.abc import Sequence

from events.play.core.results import PlayerId

from .core import PairingError

__all__ = ["berger_round", "berger_starts", "circle_round", "repeat_of_last_round", "round_robin_round"]

Slot = PlayerId | None  # None: the phantom


def circle_round(slots: Sequence[Slot], index: int) -> list[tuple[Slot, Slot]]:
    """Pairs of round `index` (0-based, taken modulo m-1) of a circle schedule.

    `slots` must have an even length; the first stays fixed.
    """
    m = len(slots)
    if m % 2:
        raise ValueError("the circle method needs an even number of places")
    if m == 0:
        return []
    rest = list(slots[1:])
    shift = index % (m - 1)
    rotated = [slots[0]] + rest[-shift:] + rest[:-shift] if shift else list(slots)
    return [(rotated[k], rotated[m - 1 - k]) for k in range(m // 2)]


def berger_round(slots: Sequence[Slot], index: int) -> list[tuple[Slot, Slot]]:
    """Pairs of round `index` (0-based, taken modulo m-1) of tsh's Berger schedule.

    `slots` must have an even length m; slot k is seed k+1. Round `index`
    pairs the first seed with seed m-index; the rest of the ring, read from
    that seed on, pairs its second place with its last, its third with its
    last but one, and so on.
    """
    m = len(slots)
    if m == 0:
        return []
    opponent, _, turned = _turned_ring(m, index)
    pairs = [(slots[0], slots[opponent])]
    pairs += [(slots[turned[k]], slots[turned[m - 1 - k]]) for k in range(1, m // 2)]
    return pairs


def _turned_ring(m: int, index: int) -> tuple[int, int, list[int]]:
    """Round `index` of tsh's Berger schedule for m places (even): the first seed's opponent (a slot position),
    where it sits on the ring, and the ring turned to start there."""
    if m % 2:
        raise ValueError("a Berger schedule needs an even number of places")
    ring = _berger_ring(m)
    opponent = m - 1 - index % (m - 1)
    start = ring.index(opponent)
    return opponent, start, ring[start:] + ring[:start]


def _berger_ring(m: int) -> list[int]:
    """Slot positions (0-based) round tsh's Berger ring: odd seeds rising from 3, the last seed, even seeds
    falling to 2."""
    return list(range(2, m - 1, 2)) + [m - 1] + list(range(m - 3, 0, -2))


def berger_starts(slots: Sequence[Slot], index: int, flip: bool) -> list[tuple[Slot, Slot]]:
    """The pairs of `berger_round(slots, index)`, each with the player who starts listed first, as tsh's
    Berger schedule assigns starts when it pairs a round robin (`assign_firsts`).

    tsh lays the round out as one row: the ring turned to start at the first seed's opponent, with the
    first seed added at one end (in front when that opponent sits at an odd place of the ring, else at
    the back), and pairs the row's ends inwards. The player nearer the front starts, except that from the
    third pair on every other pair is the other way round; `flip` reverses the row, so every pair starts
    the other way. With one orientation kept for the whole schedule, every player of an even field ends
    it with starts and replies within one of each other (in a field of 6, 2 starts and 3 replies or 3 and
    2); in an odd field, within two.
    """
    m = len(slots)
    if m == 0:
        return []
    _, start, turned = _turned_ring(m, index)
    row = [0, *turned[1:], turned[0]] if start % 2 else [*turned, 0]
    if flip:
        row.reverse()
    pairs: list[tuple[Slot, Slot]] = []
    for k in range(m // 2):
        front, back = row[k], row[m - 1 - k]
        if k >= 2 and k % 2 == 0:
            front, back = back, front
        pairs.append((slots[front], slots[back]))
    return pairs


def _with_phantom(ids: Sequence[PlayerId]) -> list[Slot]:
    slots: list[Slot] = list(ids)
    if len(slots) % 2:
        slots.append(None)
    return slots


def round_robin_round(ids_in_seed_order: Sequence[PlayerId], index: int, cycles: int = 1) -> list[tuple[Slot, Slot]]:
    """Round `index` (0-based) of a round robin over the players in seed order.

    With `cycles` of 2 or more each Berger round is played `cycles` times in a
    row (tsh's `rr 2`), so a pair meets again at once rather than a cycle later.
    """
    slots = _with_phantom(ids_in_seed_order)
    if not slots:
        return []
    per_cycle = len(slots) - 1
    if not 0 <= index < per_cycle * cycles:
        raise PairingError(
            f"this round robin has {per_cycle * cycles} rounds "
            f"({cycles} cycle(s) of {per_cycle}); round {index + 1} of it does not exist"
        )
    return berger_round(slots, index // cycles)


def repeat_of_last_round(index: int, cycles: int) -> bool:
    """Whether round `index` (0-based) of a round robin replays the pairs of the round before it."""
    return cycles > 1 and index % cycles > 0
