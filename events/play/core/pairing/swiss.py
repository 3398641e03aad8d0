"""Swiss as tsh's `ns` (NewSwiss) pairs it, board for board.

tsh's rule, read from its NewSwiss command and the division's recursive Swiss:

1. The players, in standings order, are cut into win groups: a new group starts
   wherever the wins (a tie counting ½) change from the player above.
2. With one group left, it is paired on its own (`_pair_group`). With more, the
   top group is paired first: if it is odd, the best player of the group below
   is promoted into it; if it still cannot be paired within the repeat limit,
   two more players are promoted (the best of what lies below), and so on.
   Then, from what remains, the bottom group is paired the same way, demoting
   the lowest player of the group above it; what is left in the middle is
   paired recursively. When the middle cannot be paired, the middle and the
   bottom are paired as one group; failing that, everyone as one group.
   Promoted players are placed after the group's own players and demoted
   players after the bottom group's own (so a demoted player sits below the
   group it joins), which is where tsh puts them and what the distances below
   count from.
3. Inside a group of n players (index 0 the best placed), each player ranks
   the opponents the repeat limit allows by, in order: how often they met;
   whether they met last round; when the event decides who starts (tsh's
   `assign_firsts`, which switches on its `track_firsts`), whether one of
   the two is due to start and the other to reply (see `start_pull`);
   |n − 2·|i − j||, which is 0 for the opponent half the group away (1 v
   n/2 + 1, top half against bottom half); then the opponent's index. The
   best-placed player takes their first choice with whom everyone left can
   still be paired within the limit, then the next player not yet paired,
   and so on. tsh searches this depth first; the result is the
   same as asking, for each choice in turn, whether the rest can still be
   paired, which is what is done here (a minimum-cost matching answers it), so
   large groups never make the search blow up.
4. In a group of more than 12 players tsh, to search faster, lets the players
   with the fewest allowed opponents choose first (ties in standings order).
   That can change who meets whom; it is kept, as the pairings must match.

What is left out on purpose: class pairing (`class_endagony`), team play
(`exagony`), consecutive repeats and the forced or KOTH orders within a group
are off by default in tsh and are not offered here. Who starts is still
decided after pairing; step 3 only lets the counts of starts choose between
opponents, as tsh does whenever it assigns starts. When no pairing keeps
within the limit tsh refuses; the site returns the pairing with the fewest
repeats (`closest_pairs`) for the caller to refuse or accept, as for the other
systems.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from events.play.core.results import PlayerId

from .core import History
from .matching import min_cost_perfect_matching
from .ranked import closest_pairs

__all__ = [
    "swiss_pairs",
    "win_groups",
    "start_pull",
    "resolve_preferences",
    "can_resolve",
    "GROUP_SORT_THRESHOLD",
]

# tsh reorders the choosers of a group larger than this (fewest allowed opponents first).
GROUP_SORT_THRESHOLD = 12

Pairs = list[tuple[PlayerId, PlayerId]]


def win_groups(order: Sequence[PlayerId], wins: Mapping[PlayerId, float]) -> list[list[PlayerId]]:
    """`order` cut wherever the wins change from the player above."""
    groups: list[list[PlayerId]] = []
    for p in order:
        if groups and wins[groups[-1][-1]] == wins[p]:
            groups[-1].append(p)
        else:
            groups.append([p])
    return groups


def start_pull(a: PlayerId, b: PlayerId, history: History) -> int:
    """tsh's "pair those due to start against those due to reply": 0 best, 2 worst.

    Each player leans to starting (more replies than starts so far), to replying (more starts) or
    neither; the pair scores 2 less the gap between their leanings, so a player due to start and one
    due to reply score 0, two leaning the same way 2. Starts and replies are counted as tsh counts
    them (a game whose start was not recorded is neither).
    """

    def leaning(p: PlayerId) -> int:
        d = history.firsts[p] - history.seconds[p]
        return (d > 0) - (d < 0)

    return 2 - abs(leaning(a) - leaning(b))


def swiss_pairs(
    order: Sequence[PlayerId],
    wins: Mapping[PlayerId, float],
    history: History,
    max_repeats: int | None,
    firsts: bool = False,
) -> Pairs:
    """Swiss over `order` (best first, an even number) as tsh's `ns` pairs it.

    `max_repeats` None allows any number of meetings. When no pairing keeps
    within the limit, the pairing with the fewest repeats is returned instead.
    `firsts`: the event decides who starts, so opponents are also chosen by
    who is due to start (tsh's `assign_firsts`).
    """
    if not order:
        return []
    pairer = _Pairer(history, max_repeats, firsts)
    found = pairer.recursive(win_groups(order, wins))
    if found is None:
        return closest_pairs(order, history, True, max_repeats)
    return found


class _Pairer:
    def __init__(self, history: History, limit: int | None, firsts: bool = False) -> None:
        self.history = history
        self.limit = limit
        self.firsts = firsts

    def allowed(self, a: PlayerId, b: PlayerId) -> bool:
        return self.limit is None or self.history.met(a, b) <= self.limit

    def recursive(self, groups: list[list[PlayerId]]) -> Pairs | None:
        if len(groups) == 1:
            return self.group(groups[0])
        everyone = [p for g in groups for p in g]
        top = self.end(groups, from_top=True)
        if top is None:
            return None
        top_pairs, rest = top
        if not rest:
            return top_pairs
        if len(rest) == 1:
            alone = self.group(rest[0])
            return top_pairs + alone if alone is not None else self.group(everyone)
        bottom = self.end(rest, from_top=False)
        if bottom is None:
            return self.group(everyone)
        bottom_pairs, middle = bottom
        if not middle:
            return top_pairs + bottom_pairs
        middle_pairs = self.group(middle[0]) if len(middle) == 1 else self.recursive(middle)
        if middle_pairs is not None:
            return top_pairs + middle_pairs + bottom_pairs
        below = self.group([p for g in rest for p in g])
        if below is not None:
            return top_pairs + below
        return self.group(everyone)

    def end(self, groups: list[list[PlayerId]], from_top: bool) -> tuple[Pairs, list[list[PlayerId]]] | None:
        """Pair the top (or bottom) group, taking players from the next group in until it can be paired.

        Returns the pairs and the groups left, or None when even everyone together cannot be paired.
        """
        others = [list(g) for g in (groups[1:] if from_top else groups[:-1])]
        own = list(groups[0] if from_top else groups[-1])

        def take_one() -> None:
            nearest = others[0] if from_top else others[-1]
            own.append(nearest.pop(0) if from_top else nearest.pop())
            if not nearest:
                others.remove(nearest)

        if len(own) % 2:
            take_one()
        while True:
            pairs = self.group(own)
            if pairs is not None:
                return pairs, others
            if not others:
                return None
            take_one()
            take_one()

    def group(self, players: list[PlayerId]) -> Pairs | None:
        """One group, as tsh pairs it: each chooser takes their first choice that leaves the rest pairable."""
        n = len(players)
        if n == 2:
            return [(players[0], players[1])] if self.allowed(players[0], players[1]) else None
        history = self.history
        firsts = self.firsts

        def preference(i: int, j: int) -> tuple[int, int, int, int, int]:
            a, b = players[i], players[j]
            pull = start_pull(a, b, history) if firsts else 0
            return history.met(a, b), int(history.met_last_round(a, b)), pull, abs(n - 2 * abs(i - j)), j

        choices = []
        for i in range(n):
            allowed = [j for j in range(n) if j != i and self.allowed(players[i], players[j])]
            choices.append(sorted(allowed, key=lambda j, i=i: preference(i, j)))
        found = resolve_preferences(choices)
        return None if found is None else [(players[i], players[j]) for i, j in found]


def can_resolve(choices: Sequence[Sequence[int]]) -> bool:
    """Whether tsh's search over these lists finds a pairing at all (tsh's CanBePaired asks only this)."""
    return resolve_preferences(choices, settle=False) is not None


def resolve_preferences(choices: Sequence[Sequence[int]], settle: bool = True) -> list[tuple[int, int]] | None:
    """tsh's pairing search over players 0..n-1, each listing the partners they accept, best first.

    The first chooser takes their first choice with whom everyone left can
    still be paired, then the next chooser not yet paired, and so on. The
    choosers go in order, except that over 12 players those with the fewest
    choices go first (ties in order), as tsh does to search faster. A pair is
    formed by the earlier chooser's list, so "can still be paired" asks for a
    perfect matching of the players left using, for each two of them, the list
    of whichever chooses first. None when no one pairing exists.
    """
    n = len(choices)
    if n == 0:
        return []
    if any(not c for c in choices):
        return None
    choosers = list(range(n))
    if n > GROUP_SORT_THRESHOLD:
        choosers.sort(key=lambda i: len(choices[i]))  # stable: ties stay in order
    turn = {c: k for k, c in enumerate(choosers)}
    rank_of = [{j: k for k, j in enumerate(c)} for c in choices]

    def choice_rank(i: int, j: int) -> int | None:
        first, second = (i, j) if turn[i] < turn[j] else (j, i)
        return rank_of[first].get(second)

    def complete(members: list[int]) -> dict[int, int] | None:
        """A pairing of `members` from the lists, as close to everyone's first choices as a matching finds."""
        if not members:
            return {}

        def cost(x: int, y: int) -> tuple[int, int]:
            k = choice_rank(members[x], members[y])
            return (1, 0) if k is None else (0, k)

        partner: dict[int, int] = {}
        for x, y in min_cost_perfect_matching(len(members), cost):
            i, j = members[x], members[y]
            if choice_rank(i, j) is None:
                return None
            partner[i], partner[j] = j, i
        return partner

    partner = complete(list(range(n)))
    if partner is None:
        return None
    if not settle:  # some pairing exists; which one tsh's search settles on is not asked
        return [(i, j) for i, j in partner.items() if i < j]
    unpaired = set(range(n))
    pairs: list[tuple[int, int]] = []
    for top in choosers:
        if top not in unpaired:
            continue
        for other in choices[top]:
            if other not in unpaired:
                continue
            if partner[top] == other:
                break  # the pairing in hand already gives top this choice
            rest = complete([p for p in range(n) if p in unpaired and p not in (top, other)])
            if rest is not None:
                partner = rest
                partner[top], partner[other] = other, top
                break
        other = partner[top]
        pairs.append((top, other))
        unpaired -= {top, other}
    return pairs
