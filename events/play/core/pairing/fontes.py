"""Initial Fontes as tsh's `InitFontes` command pairs it.

The field, best-rated first, is cut into N+1 rating bands for N rounds and
each group takes one player from each band, so a group of N+1 meets in full.
tsh forms the groups one of two ways (its `initial_snaked` setting):

* at random (its default): each group draws one player at random from each
  band. A field that is not a multiple of N+1 first gives up a few players,
  drawn one from each of several equal slices of the field, who form one odd
  group of their own (three, five or six players for three rounds);
* snaked: the bands are laid out as rows, every other row reversed, and each
  group takes one player from each row, so the top seed's group holds the
  weakest of the second band. A field one short of a multiple of N+1 leaves
  one group short a player; any other remainder is taken from the middle of
  the field and put in the middle of the last group.

Nobody is added to make the field even: a group of odd size has one player
without a game each round, which is that round's bye. Three rounds follow
tsh's fixed tables for groups of three to seven; longer blocks follow its
Berger schedule, whose last round is 1v2, 3v4 inside each group.

The random draws are tsh's own steps taken with Python's generator, seeded
by the round's recorded seed: the same seed gives the same groups in every
round of the block (not the groups tsh's Perl generator would draw).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from events.play.core.results import PlayerId

from .core import PairingError
from .schedules import Slot, berger_round, berger_starts

__all__ = ["fontes_groups", "fontes_round", "fontes_starts", "group_schedule"]

# tsh's fixed tables for three rounds, by group size: for each round, each
# member's opponent as a position in the group (None: no game, the bye).
# Groups of four meet 1v4 2v3, then 1v3 2v4, then 1v2 3v4.
_THREE_ROUNDS: dict[int, tuple[tuple[int | None, ...], ...]] = {
    3: ((2, None, 0), (1, 0, None), (None, 2, 1)),
    4: ((3, 2, 1, 0), (2, 3, 0, 1), (1, 0, 3, 2)),
    5: ((4, 3, None, 1, 0), (2, 4, 0, None, 1), (1, 0, 3, 2, None)),
    6: ((5, 2, 1, 4, 3, 0), (3, 4, 5, 0, 1, 2), (1, 0, 3, 2, 5, 4)),
    7: ((5, 3, 4, 1, 2, 0, None), (2, 6, 0, 4, 3, None, 1), (1, 0, 3, 2, None, 6, 5)),
}


def fontes_groups(
    ids_by_rating: Sequence[PlayerId], rounds: int, *, snaked: bool = False, seed: int = 0
) -> list[list[PlayerId]]:
    """The groups of an initial Fontes block of `rounds` (odd) rounds, each group in its schedule order.

    `ids_by_rating`: the field, best-rated first. The random draw is seeded by `seed`.
    """
    if rounds < 1 or rounds % 2 == 0:
        raise ValueError("initial Fontes needs an odd number of rounds")
    if len(ids_by_rating) <= rounds:
        raise PairingError(
            f"initial Fontes over {rounds} rounds needs at least {rounds + 1} players, there are {len(ids_by_rating)}"
        )
    players = list(ids_by_rating)
    if len(players) <= 2 * rounds:
        return [players]  # too few for two groups: one group plays part of a round robin
    if snaked:
        return _snaked(players, rounds)
    return _random(players, rounds, random.Random(seed))


def _random(players: list[PlayerId], rounds: int, rng: random.Random) -> list[list[PlayerId]]:
    n = len(players)
    size = rounds + 1
    groups: list[list[PlayerId]] = []
    residue = n % size
    if residue:
        # The odd players are drawn one from each of `parts` equal slices of the field (the top slice left
        # out when the remainder is odd), so the odd group spans the ratings as a full group does and the
        # players left fill whole groups. Drawn from the bottom slice up, so a draw never moves an index
        # still to be drawn.
        parts, top = size, residue % 2
        if residue != rounds:
            parts += residue + top
        oddballs: list[PlayerId] = []
        for section in range(parts - 1, top - 1, -1):
            oddballs.insert(0, players.pop(int(n * (section + rng.random()) / parts)))
        groups.append(oddballs)
    # Then each group takes one player at random from each band of what is left.
    for left in range(len(players) // size, 0, -1):
        group: list[PlayerId] = []
        for band in range(rounds, -1, -1):
            group.insert(0, players.pop(band * left + int(rng.random() * left)))
        groups.append(group)
    return groups


def _snaked(players: list[PlayerId], rounds: int) -> list[list[PlayerId]]:
    size = rounds + 1
    oddballs: list[PlayerId] = []
    # A field one short of whole groups keeps its grid (one group plays a player short); any other
    # remainder is taken from the middle of the field.
    if len(players) % size != rounds:
        while len(players) % size:
            oddballs.append(players.pop((len(players) + 1) // 2))
    count = -(-len(players) // size)
    rows = [players[k * count : (k + 1) * count] for k in range(size)]
    rows = [row if k % 2 == 0 else row[::-1] for k, row in enumerate(rows)]
    groups = [[row.pop() for row in rows if row] for _ in range(count)]
    if oddballs:
        last = groups[-1]
        last[len(last) // 2 : len(last) // 2] = oddballs
    return groups


def group_schedule(size: int, rounds: int, index: int) -> list[tuple[int, int | None]]:
    """Round `index` (0-based) of a group of `size` over a block of `rounds`: pairs of positions in the
    group, (position, None) for the member without a game."""
    if rounds == 1:
        return [(0, 1 if size > 1 else None)]
    if rounds == 3:
        table = _THREE_ROUNDS.get(size)
        if table is None:
            raise PairingError(f"tsh has no three-round schedule for a group of {size}")
        pairs: list[tuple[int, int | None]] = []
        for me, opponent in enumerate(table[index]):
            if opponent is None:
                pairs.append((me, None))
            elif me < opponent:
                pairs.append((me, opponent))
        return pairs
    # Longer blocks: tsh's Berger round in which the first member meets the member numbered `first`.
    # A full group meets its last member first and its second last, so the block ends 1v2, 3v4; a
    # smaller or larger group spreads the same walk over the rounds it has (tsh's formula, in the same
    # floating point as tsh's Perl).
    even = size + size % 2
    if size == rounds + 1:
        first = rounds + 1 - index
    else:
        first = int(2.5 + (even - 2) * (1 - index / (rounds - 1)))
    slots: list[Slot] = [*range(size), *([None] if size % 2 else [])]
    out: list[tuple[int, int | None]] = []
    for a, b in berger_round(slots, even - first):
        if a is None:
            a, b = b, a
        assert a is not None
        out.append((a, b))
    return out


def fontes_round(
    ids_by_rating: Sequence[PlayerId], rounds: int, index: int, *, snaked: bool = False, seed: int = 0
) -> tuple[list[tuple[PlayerId, PlayerId]], PlayerId | None]:
    """Pairs of round `index` (0-based, below `rounds`) of the block, and the player without a game, if any."""
    if not 0 <= index < rounds:
        raise PairingError(f"initial Fontes covers {rounds} rounds; round {index + 1} of it does not exist")
    pairs: list[tuple[PlayerId, PlayerId]] = []
    idle: list[PlayerId] = []
    for group in fontes_groups(ids_by_rating, rounds, snaked=snaked, seed=seed):
        for a, b in group_schedule(len(group), rounds, index):
            if b is None:
                idle.append(group[a])
            else:
                pairs.append((group[a], group[b]))
    if len(idle) > 1:  # never for tsh's groups: at most one group has an odd size
        raise PairingError("initial Fontes left more than one player without a game this round")
    return pairs, (idle[0] if idle else None)


def fontes_starts(
    ids_by_rating: Sequence[PlayerId], rounds: int, index: int, *, snaked: bool = False, seed: int = 0
) -> dict[frozenset[PlayerId], PlayerId]:
    """Who starts in round `index` of the block where tsh's schedule says, pair by pair.

    tsh's `if` assigns starts itself only in a block of five or more rounds, and only in full groups
    (N+1 players, who play a whole Berger round robin): there, as in a round robin, by its Berger rows
    (`schedules.berger_starts`), every group of the block the same way round. Which way tsh draws once
    for the tournament; the site draws it from the block's seed. Other pairs (three-round blocks, odd
    or short groups) are left to the players' counts, as tsh leaves them.
    """
    if rounds < 5:
        return {}
    flip = random.Random(f"{seed}:initial fontes starts").random() < 0.5
    starts: dict[frozenset[PlayerId], PlayerId] = {}
    for group in fontes_groups(ids_by_rating, rounds, snaked=snaked, seed=seed):
        if len(group) == rounds + 1:
            slots: list[Slot] = list(group)
            for a, b in berger_starts(slots, len(group) - (rounds + 1 - index), flip):
                assert a is not None and b is not None  # a full group is even: no phantom
                starts[frozenset((a, b))] = a
    return starts
