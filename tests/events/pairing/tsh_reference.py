"""tsh's King of the Hill, written out the way tsh searches, to hold the site's pairing against.

It shares nothing with the site's pairing but `History`: each player ranks the
opponents the repeat limit allows by distance in the order, then a rematch of
last round, then how often they met, then position; the highest unpaired player
takes their first choice not yet paired, and a dead end backs up to the last
choice made (a set of players found impossible to pair is not tried again).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from events.play.core.pairing.core import History
from events.play.core.results import Game, GameKind, PlayerId
from events.play.core.tsh import TshFile

SHARED = Path(__file__).resolve().parents[3] / ".." / "shared" / "fixtures" / "tsh"
REAL_FILES = [
    "jvc56_tpa_86aeb79_test_data_a.t",
    "e4c5_team_pairings_api_tests_anon1.t",
    "e4c5_team_pairings_tournament1_a.t",
]


def tsh_koth(order: Sequence[PlayerId], history: History, limit: int) -> list[tuple[PlayerId, PlayerId]] | None:
    n = len(order)
    choices = []
    for i in range(n):
        allowed = [j for j in range(n) if j != i and history.met(order[i], order[j]) <= limit]
        allowed.sort(
            key=lambda j, i=i: (
                abs(i - j),
                int(history.met_last_round(order[i], order[j])),
                history.met(order[i], order[j]),
                j,
            )
        )
        choices.append(allowed)
    dead: set[tuple[int, ...]] = set()

    def search(unpaired: tuple[int, ...]) -> list[tuple[int, int]] | None:
        if not unpaired:
            return []
        if unpaired in dead:
            return None
        top = unpaired[0]
        for other in choices[top]:
            if other in unpaired[1:]:
                rest = search(tuple(p for p in unpaired if p not in (top, other)))
                if rest is not None:
                    return [(top, other), *rest]
        dead.add(unpaired)
        return None

    found = search(tuple(range(n)))
    return None if found is None else [(order[a], order[b]) for a, b in found]


def games_of(f: TshFile) -> list[Game]:
    """The file's games by player number: each pair once, a bye for a round without an opponent."""
    games: list[Game] = []
    for p in f.players:
        for index, (opponent, score) in enumerate(zip(p.opponents, p.scores, strict=False)):
            if opponent == 0:
                games.append(Game(round=index + 1, player_a=p.number, kind=GameKind.BYE))
            elif 0 < p.number < opponent:
                other = f.players[opponent - 1]
                games.append(
                    Game(
                        round=index + 1,
                        player_a=p.number,
                        player_b=opponent,
                        score_a=score,
                        score_b=other.scores[index],
                    )
                )
    return games


def file_games(f: TshFile) -> list[Game]:
    """The file's games as the site imports them: starts from `p12` (1 started, 2 replied), and a round
    without an opponent as its score says: above 0 a bye of that spread, below 0 a forfeit, 0 a void round."""
    games: list[Game] = []
    for g in games_of(f):
        player = f.players[g.player_a - 1]
        if g.kind is GameKind.BYE:
            score = player.scores[g.round - 1] if g.round <= len(player.scores) else 0
            kind = GameKind.BYE if score > 0 else GameKind.FORFEIT if score < 0 else GameKind.VOID
            games.append(Game(round=g.round, player_a=g.player_a, kind=kind, award=abs(score) or None))
        else:
            p12 = player.p12[g.round - 1] if g.round <= len(player.p12) else 0
            games.append(g._replace(first=g.player_a if p12 == 1 else g.player_b if p12 == 2 else None))
    return games


def tsh_swiss(
    order: Sequence[PlayerId], wins: dict[PlayerId, float], history: History, limit: int, track_firsts: bool = False
) -> list[tuple[PlayerId, PlayerId]] | None:
    """tsh's `ns`: win groups paired from both ends inwards, each group by a depth-first search.

    Written as tsh's division code runs: a group is even-ed by promoting (at the
    top) or demoting (at the bottom) one player of the next group, appended
    after the group's own; a group that cannot be paired takes two more. Inside
    a group every player lists the opponents within `limit` by meetings, a
    rematch of last round, (with `track_firsts`, which tsh's `assign_firsts`
    switches on) 2 - |(p1 - p2 <=> 0) - (o1 - o2 <=> 0)| from each side's
    starts and replies, |n - 2|i - j||, index; over 12 players the choosers
    go fewest choices first; the search backs up to the last choice made and
    never retries a set of unpaired players found impossible.
    """

    def cmp(x: int, y: int) -> int:
        return (x > y) - (x < y)

    def pairsvr(a: PlayerId, b: PlayerId) -> int:
        if not track_firsts:
            return 0
        return 2 - abs(cmp(history.firsts[a] - history.seconds[a], 0) - cmp(history.firsts[b] - history.seconds[b], 0))

    groups: list[list[PlayerId]] = []
    for p in order:
        if groups and wins[groups[-1][0]] == wins[p]:
            groups[-1].append(p)
        else:
            groups.append([p])

    def one(ps: list[PlayerId]) -> list[tuple[PlayerId, PlayerId]] | None:
        n = len(ps)
        if n == 2:
            return [(ps[0], ps[1])] if history.met(ps[0], ps[1]) <= limit else None
        pref = []
        for i in range(n):
            keyed = []
            for j in range(n):
                if j != i and history.met(ps[i], ps[j]) <= limit:
                    keyed.append(
                        (
                            history.met(ps[i], ps[j]),
                            1 if history.met_last_round(ps[i], ps[j]) else 0,
                            pairsvr(ps[i], ps[j]),
                            abs(n - abs(2 * (i - j))),
                            j,
                        )
                    )
            pref.append([k[-1] for k in sorted(keyed)])
        if not all(pref):
            return None
        seq = list(range(n))
        if n > 12:
            seq = sorted(seq, key=lambda i: (len(pref[i]), i))
        dead: set[frozenset[int]] = set()

        def search(unpaired: frozenset[int]) -> list[tuple[int, int]] | None:
            if not unpaired:
                return []
            if unpaired in dead:
                return None
            chooser = next(i for i in seq if i in unpaired)
            for opp in pref[chooser]:
                if opp in unpaired and opp != chooser:
                    rest = search(unpaired - {chooser, opp})
                    if rest is not None:
                        return [(chooser, opp), *rest]
            dead.add(unpaired)
            return None

        found = search(frozenset(range(n)))
        return None if found is None else [(ps[a], ps[b]) for a, b in found]

    def top(gs: list[list[PlayerId]]):
        car, cdr = list(gs[0]), [list(g) for g in gs[1:]]

        def promote() -> None:
            nxt = cdr.pop(0)
            car.append(nxt.pop(0))
            if nxt:
                cdr.insert(0, nxt)

        if len(car) % 2 == 1:
            promote()
        while True:
            paired = one(car)
            if paired is not None:
                return paired, cdr
            if not cdr:
                return None, None
            promote()
            promote()

    def bottom(gs: list[list[PlayerId]]):
        car, cdr = list(gs[-1]), [list(g) for g in gs[:-1]]

        def demote() -> None:
            nxt = cdr.pop()
            car.append(nxt.pop())
            if nxt:
                cdr.append(nxt)

        if len(car) % 2 == 1:
            demote()
        while True:
            paired = one(car)
            if paired is not None:
                return paired, cdr
            if not cdr:
                return None, None
            demote()
            demote()

    def flat(gs: list[list[PlayerId]]) -> list[PlayerId]:
        return [p for g in gs for p in g]

    def recursive(gs: list[list[PlayerId]]):
        if len(gs) == 1:
            return one(gs[0])
        top_paired, rest = top(gs)
        if top_paired is None:
            return None
        if not rest:
            return top_paired
        if len(rest) == 1:
            r = one(rest[0])
            return top_paired + r if r is not None else one(flat(gs))
        bottom_paired, middle = bottom(rest)
        if bottom_paired is None:
            return one(flat(gs))
        if not middle:
            return top_paired + bottom_paired
        m = one(middle[0]) if len(middle) == 1 else recursive(middle)
        if m is not None:
            return top_paired + m + bottom_paired
        midbot = one(flat(rest))
        if midbot is not None:
            return top_paired + midbot
        return one(flat(gs))

    return recursive(groups) if groups else []
