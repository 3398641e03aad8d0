"""Pairing from an order of players: King of the Hill and random order (Swiss is in `swiss`).

King of the Hill within its repeat limit is tsh's: nearest-placed players
meet, only pairs beyond the limit are avoided (`koth_pairs`). Otherwise each
system is a minimum-cost perfect matching whose cost per pair is a tuple
compared lexicographically (see `matching`). Shared levels, most important
first:

1. pairs that have met more often than the event allows (when enforced);
2. a rematch of last round's game;
then the system's own levels.
"""

from __future__ import annotations

from collections.abc import Sequence

from events.play.core.results import PlayerId

from .core import History
from .matching import min_cost_perfect_matching

__all__ = ["koth_pairs", "closest_pairs", "choose_bye"]


def _repeat_levels(a: PlayerId, b: PlayerId, history: History, max_repeats: int | None) -> tuple[int, int, int]:
    met = history.met(a, b)
    over = 1 if max_repeats is not None and met > max_repeats else 0
    return over, int(history.met_last_round(a, b)), met * met


def koth_pairs(
    order: Sequence[PlayerId], history: History, avoid_repeats: bool, max_repeats: int | None
) -> list[tuple[PlayerId, PlayerId]]:
    """King of the Hill as tsh pairs it: 1v2, 3v4, ... over `order`, within the repeat limit.

    Pairs that have met up to `max_repeats` times are as good as fresh ones,
    so nearest-placed players meet even when they met before (or last
    round); only pairs beyond the limit are avoided. Read from the top, the
    highest unpaired player meets the nearest player below them with whom the
    players left can still all be paired within the limit, which is what
    tsh's depth-first search settles on. When no pairing keeps within the
    limit, the pairing with the fewest repeats (`closest_pairs`) is returned
    for the caller to refuse or accept.
    """
    if not avoid_repeats:
        return [(order[k], order[k + 1]) for k in range(0, len(order) - 1, 2)]
    if max_repeats is not None:
        within = _nearest_within_limit(order, history, max_repeats)
        if within is not None:
            return within
    return closest_pairs(order, history, avoid_repeats, max_repeats)


def _nearest_within_limit(
    order: Sequence[PlayerId], history: History, limit: int
) -> list[tuple[PlayerId, PlayerId]] | None:
    n = len(order)
    met_with = [history.opponents(p) for p in order]

    def allowed(i: int, j: int) -> bool:
        return met_with[i].get(order[j], 0) <= limit

    def complete(members: list[int]) -> dict[int, int] | None:
        """A pairing of `members` (positions) with every pair within the limit, if one exists."""
        neighbours = list(zip(members[0::2], members[1::2], strict=False))
        if len(members) % 2 == 0 and all(allowed(a, b) for a, b in neighbours):
            # The usual case, neighbours all within the limit: that is a pairing, found without a matching (a
            # matching for each player paired made a 100-player round take 150 ms). Any pairing within the limit
            # serves here: the search below only asks whether one exists.
            return {**dict(neighbours), **{b: a for a, b in neighbours}}
        matched = min_cost_perfect_matching(len(members), lambda a, b: (0 if allowed(members[a], members[b]) else 1,))
        partner: dict[int, int] = {}
        for a, b in matched:
            if not allowed(members[a], members[b]):
                return None
            partner[members[a]], partner[members[b]] = members[b], members[a]
        return partner

    partner = complete(list(range(n)))
    if partner is None:
        return None
    remaining = list(range(n))
    pairs: list[tuple[PlayerId, PlayerId]] = []
    while remaining:
        top = remaining[0]
        for other in remaining[1:]:
            if partner[top] == other:
                break  # the pairing in hand already gives top its nearest possible opponent
            if not allowed(top, other):
                continue
            rest = complete([p for p in remaining if p not in (top, other)])
            if rest is not None:
                partner = rest
                partner[top], partner[other] = other, top
                break
        other = partner[top]
        pairs.append((order[top], order[other]))
        remaining = [p for p in remaining if p not in (top, other)]
    return pairs


def closest_pairs(
    order: Sequence[PlayerId], history: History, avoid_repeats: bool, max_repeats: int | None
) -> list[tuple[PlayerId, PlayerId]]:
    """1v2, 3v4, ... over `order`; with repeat avoidance, the closest pairing to it with the fewest repeats.

    "Closest" is read from the top, as a director pairs by hand: the highest
    unpaired player meets the nearest player below them that still allows
    the fewest repeats overall (the shared levels plus how often each pair
    met, squared so a third meeting weighs more than two second ones); then
    the next highest unpaired player, and so on.

    The fewest repeats possible come from one matching; each choice of the
    greedy pass is then checked against it. A candidate other than the
    current matching's own partner is accepted only if the players left can
    still be paired with no more repeats, which a new matching decides.
    """
    if not avoid_repeats:
        return [(order[k], order[k + 1]) for k in range(0, len(order) - 1, 2)]
    n = len(order)
    levels = {
        (i, j): _repeat_levels(order[i], order[j], history, max_repeats) for i in range(n) for j in range(i + 1, n)
    }

    def solve(members: list[int]) -> dict[int, int]:
        """Fewest repeats over `members` (positions), ties broken towards small gaps."""
        m = len(members)

        def cost(a: int, b: int) -> tuple[int, ...]:
            i, j = members[a], members[b]
            gap = j - i
            return (*levels[i, j], gap * gap, gap * (n - i))

        partner: dict[int, int] = {}
        for a, b in min_cost_perfect_matching(m, cost):
            partner[members[a]], partner[members[b]] = members[b], members[a]
        return partner

    def total(partner: dict[int, int]) -> tuple[int, int, int]:
        sums = [0, 0, 0]
        for i, j in partner.items():
            if i < j:
                for k, x in enumerate(levels[i, j]):
                    sums[k] += x
        return sums[0], sums[1], sums[2]

    matching = solve(list(range(n)))
    remaining = list(range(n))
    pairs: list[tuple[PlayerId, PlayerId]] = []
    while remaining:
        top = remaining[0]
        best = total(matching)
        for other in remaining[1:]:
            if matching[top] == other:
                break
            own = levels[top, other]
            if own > best:
                continue  # this pair alone already costs more than the optimum
            rest = solve([p for p in remaining if p not in (top, other)])
            if tuple(a + b for a, b in zip(own, total(rest), strict=True)) == best:
                matching = rest
                matching[top], matching[other] = other, top
                break
        other = matching[top]
        pairs.append((order[top], order[other]))
        remaining = [p for p in remaining if p not in (top, other)]
        del matching[top], matching[other]
    return pairs


def choose_bye(order: Sequence[PlayerId], history: History) -> PlayerId:
    """The lowest-placed player among those with the fewest rounds without an opponent so far.

    As tsh's Division::ChooseBye (its default bottom_up method): a forfeit, a void game or a missed
    round counts as a bye had, so a player who forfeited is not given the next bye before one who has
    played every round.
    """
    without = {p: history.rounds_without_opponent(p) for p in order}
    fewest = min(without.values())
    return next(p for p in reversed(order) if without[p] == fewest)
